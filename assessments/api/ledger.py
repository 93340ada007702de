"""Money-core API: one view per operation with nested Input/Output serializers (HackSoft style).

POST /payments/ (cashier, staff, administrator) · GET /accounts/<id>/statement/?as_of= ·
GET /receivables/?account=&status=&fund= (any staff role, the auditor included).
"""
from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field, extend_schema_serializer
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from assessments.ledger import selectors, services
from assessments.models import Account, CashierBatch, LedgerEntry, Payment, Receivable
from core import roles
from core.permissions import HasAction, IsStaffReader
from districts.models import Party

MONEY = {"max_digits": 14, "decimal_places": 2}


class EntrySerializer(serializers.ModelSerializer):
    payment_reference = serializers.CharField(source="receivable.payment_reference", default=None)
    installment_seq = serializers.IntegerField(source="installment.seq", default=None)

    class Meta:
        model = LedgerEntry
        fields = ["id", "effective_date", "kind", "component", "amount", "payment_reference", "installment_seq",
                  "rule", "memo", "posted_at"]


class PaymentRecordApi(APIView):
    required_action = roles.PAY
    permission_classes = [HasAction]

    @extend_schema_serializer(component_name="PaymentRecordInput")
    class InputSerializer(serializers.Serializer):
        account = serializers.PrimaryKeyRelatedField(queryset=Account.objects.all())
        amount = serializers.DecimalField(min_value=Decimal("0.01"), **MONEY)
        method = serializers.ChoiceField(choices=Payment.Method.choices)
        paid_on = serializers.DateField()
        payer_name = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
        payer_party = serializers.PrimaryKeyRelatedField(queryset=Party.objects.all(), required=False, allow_null=True)
        idempotency_key = serializers.CharField(max_length=100)
        check_number = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
        batch = serializers.PrimaryKeyRelatedField(queryset=CashierBatch.objects.all(), required=False,
                                                   allow_null=True, help_text="Default: your open batch for today.")

    @extend_schema_serializer(component_name="PaymentRecord")
    class OutputSerializer(serializers.ModelSerializer):
        entries = EntrySerializer(many=True, read_only=True)
        account_balance = serializers.DecimalField(source="account.balance", read_only=True, **MONEY)

        class Meta:
            model = Payment
            fields = ["id", "receipt_number", "account", "paid_on", "method", "amount", "payer_name", "check_number",
                      "status", "batch", "idempotency_key", "account_balance", "entries"]

    @extend_schema(summary="Record a payment (idempotent on idempotency_key)", request=InputSerializer,
                   responses={201: OutputSerializer, 200: OutputSerializer, 400: {"type": "object"}})
    def post(self, request):
        data_in = self.InputSerializer(data=request.data)
        data_in.is_valid(raise_exception=True)
        data = data_in.validated_data
        batch = data.get("batch") or selectors.open_batch_for(request.user, timezone.localdate())
        payment, created = services.payment_record_outcome(
            account=data["account"], amount=data["amount"], method=data["method"], paid_on=data["paid_on"],
            payer=data.get("payer_party") or data["payer_name"], idempotency_key=data["idempotency_key"],
            batch=batch, actor=request.user, check_number=data["check_number"])  # ValidationError → 400
        payment.account.refresh_from_db()
        return Response(self.OutputSerializer(payment).data, status=status.HTTP_201_CREATED if created else
                        status.HTTP_200_OK)


class AccountStatementInstallmentSerializer(serializers.Serializer):
    """One open installment of a statement (module level: `get_installments` names it for the schema)."""

    installment_id = serializers.IntegerField()
    reference = serializers.CharField()
    description = serializers.CharField()
    fund = serializers.CharField()
    seq = serializers.IntegerField()
    due_date = serializers.DateField()
    amount = serializers.DecimalField(**MONEY)
    principal_open = serializers.DecimalField(**MONEY)
    surcharge_open = serializers.DecimalField(**MONEY)
    accrued_surcharge = serializers.DecimalField(**MONEY)
    total_due = serializers.DecimalField(**MONEY)
    surcharge_rule = serializers.CharField()
    surcharge_note = serializers.CharField()
    months_late = serializers.IntegerField()


class ReceivableInstallmentSerializer(serializers.Serializer):
    """Schema of `ReceivableListApi`'s installments (the view builds them as plain dicts)."""

    seq = serializers.IntegerField()
    due_date = serializers.DateField()
    amount = serializers.DecimalField(**MONEY)


class AccountStatementApi(APIView):
    permission_classes = [IsStaffReader]

    @extend_schema_serializer(component_name="AccountStatement")
    class OutputSerializer(serializers.Serializer):
        account = serializers.IntegerField(source="account.pk")
        number = serializers.CharField(source="account.number")
        as_of = serializers.DateField()
        balance = serializers.DecimalField(**MONEY)
        credit = serializers.DecimalField(**MONEY)
        accrued_surcharge = serializers.DecimalField(**MONEY)
        payoff = serializers.DecimalField(**MONEY)
        notes = serializers.ListField(child=serializers.CharField())
        installments = serializers.SerializerMethodField()
        entries = EntrySerializer(many=True)

        @extend_schema_field(AccountStatementInstallmentSerializer(many=True))
        def get_installments(self, st):
            return AccountStatementInstallmentSerializer(st.installments, many=True).data

    class QuerySerializer(serializers.Serializer):
        as_of = serializers.DateField(required=False)

    @extend_schema(summary="Statement of an account as of a date (default today)",
                   parameters=[OpenApiParameter("as_of", str, description="YYYY-MM-DD")],
                   responses={200: OutputSerializer, 400: {"type": "object"}})
    def get(self, request, pk: int):
        account = get_object_or_404(Account, pk=pk)
        query = self.QuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        as_of = query.validated_data.get("as_of") or timezone.localdate()
        return Response(self.OutputSerializer(services.statement(account=account, as_of=as_of)).data)


class ReceivableListApi(generics.ListAPIView):
    permission_classes = [IsStaffReader]
    filter_backends = []

    @extend_schema_serializer(component_name="Receivable")
    class OutputSerializer(serializers.ModelSerializer):
        fund = serializers.CharField(source="fund.code")
        office = serializers.CharField(source="office.name")
        installments = serializers.SerializerMethodField()

        class Meta:
            model = Receivable
            fields = ["id", "kind", "account", "fund", "office", "source_type", "source_id", "description",
                      "payment_reference", "amount", "issued_on", "status", "surcharge_rule", "creates_lien",
                      "breakdown", "installments"]

        @extend_schema_field(ReceivableInstallmentSerializer(many=True))
        def get_installments(self, rec):
            return [{"seq": i.seq, "due_date": i.due_date.isoformat(), "amount": str(i.amount)}
                    for i in rec.installments.all()]

    serializer_class = OutputSerializer

    @extend_schema(summary="Charge documents", parameters=[
        OpenApiParameter("account", int), OpenApiParameter("status", str, enum=Receivable.Status.values),
        OpenApiParameter("fund", str, description="fund code")])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        p = self.request.query_params
        account = p.get("account")
        if account is not None and not account.isdigit():
            raise ValidationError({"account": "Debe ser un número."})
        if p.get("status") and p["status"] not in Receivable.Status.values:  # a typo must not read as "none"
            raise ValidationError({"status": _("Estado desconocido; uno de: %(values)s.")
                                   % {"values": ", ".join(Receivable.Status.values)}})
        return selectors.receivables_for(account_id=account, status=p.get("status"), fund=p.get("fund"))
