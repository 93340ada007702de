"""Franchise billing API (HackSoft style: one view per operation, nested Input/Output serializers).

GET  /franchise-billing/franchises/<id>/invoices/?kind=&fiscal_year=   any staff role (auditor included)
POST /franchise-billing/runs/  {fiscal_year, issued_on?}               staff who write (not the auditor)
"""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from assessments.franchise_billing import selectors, services
from assessments.franchise_billing.models import FranchiseCharge, InvoiceRun
from assessments.models import Installment
from core import roles
from core.permissions import HasAction, IsStaffReader
from franchises.models import Franchise

MONEY = {"max_digits": 14, "decimal_places": 2}


class InstallmentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Installment
        fields = ["seq", "due_date", "amount"]


class FranchiseInvoiceSerializer(serializers.ModelSerializer):
    """One tariff invoice, metered bill, supplementary invoice or credit: the days it bills
    (`period_start`-`period_end`, both counted) and its signed `amount` (negative: a credit)."""

    franchise = serializers.CharField(source="franchise.number")
    amount = serializers.DecimalField(**MONEY, read_only=True)
    days = serializers.IntegerField(read_only=True, allow_null=True)
    adjusts = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)
    bills_days = serializers.SerializerMethodField()
    payment_reference = serializers.CharField(source="receivable.payment_reference", allow_null=True, default=None)
    description = serializers.SerializerMethodField()
    issued_on = serializers.SerializerMethodField()
    status = serializers.CharField(source="receivable.status", allow_null=True, default=None)
    open_amount = serializers.SerializerMethodField()
    installments = serializers.SerializerMethodField()
    breakdown = serializers.SerializerMethodField()

    class Meta:
        model = FranchiseCharge
        fields = ["id", "franchise", "kind", "cause", "fiscal_year", "period_start", "period_end", "days", "amount",
                  "bills_days", "adjusts", "month", "gallons", "tariff_class", "payment_plan", "prorated",
                  "authorized_gallons", "annual_tariff", "payment_reference", "description", "issued_on", "status",
                  "open_amount", "installments", "parameters", "breakdown"]

    def get_bills_days(self, obj) -> bool:
        """True when the charge bills days (an invoice, a bill, a term supplement); False when it
        re-prices or credits days another invoice billed (it names that invoice in `adjusts`)."""
        return selectors.bills_days(obj)

    def get_description(self, obj) -> str:
        return obj.receivable.description if obj.receivable_id else obj.credit_entry.memo

    def get_issued_on(self, obj) -> str:
        day = obj.receivable.issued_on if obj.receivable_id else obj.credit_entry.effective_date
        return day.isoformat()

    def get_open_amount(self, obj) -> str:
        value = self.context["open"].get(obj.receivable_id) if obj.receivable_id else None
        return f"{value if value is not None else 0:.2f}"

    @extend_schema_field(InstallmentSerializer(many=True))
    def get_installments(self, obj) -> list:
        if not obj.receivable_id:
            return []
        return InstallmentSerializer(obj.receivable.installments.all(), many=True).data

    def get_breakdown(self, obj) -> dict:
        return obj.receivable.breakdown if obj.receivable_id else {}


class FranchiseInvoiceListApi(generics.ListAPIView):
    """A franchise's tariff invoices (FRA-1 to FRA-3), metered bills, supplementary invoices and
    credits, each with the days it bills and its amount. `chain=true` adds the franchises it
    renews and that renew it: no day is billed twice along the chain (FRA-3 Decision)."""

    permission_classes = [IsStaffReader]
    serializer_class = FranchiseInvoiceSerializer
    queryset = FranchiseCharge.objects.none()

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return FranchiseCharge.objects.none()
        franchise = get_object_or_404(Franchise, pk=self.kwargs["pk"])
        if self.request.query_params.get("chain") in ("1", "true"):
            qs = (FranchiseCharge.objects.filter(franchise_id__in=selectors.chain_ids(franchise))
                  .select_related("receivable", "reading").prefetch_related("receivable__installments")
                  .order_by("period_start", "id"))
        else:
            qs = selectors.charges_for(franchise)
        qs = qs.select_related("franchise", "credit_entry")
        kind = self.request.query_params.get("kind")
        if kind in FranchiseCharge.Kind.values:
            qs = qs.filter(kind=kind)
        fy = self.request.query_params.get("fiscal_year")
        if fy and fy.isdigit():
            qs = qs.filter(fiscal_year=int(fy))
        return qs

    def get_serializer_context(self):
        ctx = super().get_serializer_context()
        pk = self.kwargs.get("pk")
        ctx["open"] = selectors.open_amounts(FranchiseCharge.objects.filter(franchise_id__in=selectors.chain_ids(pk))
                                             .exclude(receivable__isnull=True)
                                             .values_list("receivable_id", flat=True)) if pk else {}
        return ctx

    @extend_schema(summary="A franchise's invoices, metered bills, supplementary invoices and credits", parameters=[
        OpenApiParameter("kind", str, enum=FranchiseCharge.Kind.values),
        OpenApiParameter("fiscal_year", int),
        OpenApiParameter("chain", bool, description="Include the franchises it renews and that renew it.")])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class InvoiceRunInputSerializer(serializers.Serializer):
    fiscal_year = serializers.IntegerField(min_value=2000, max_value=2999)
    issued_on = serializers.DateField(required=False, allow_null=True)


class InvoiceRunSerializer(serializers.ModelSerializer):
    class Meta:
        model = InvoiceRun
        fields = ["id", "fiscal_year", "issued_on", "trigger", "run_at", "created_count", "created_total",
                  "report"]


class InvoiceRunApi(APIView):
    """FRA-3: run a fiscal year's tariff invoices (idempotent: a second run creates nothing)."""

    required_action = roles.FINALIZE

    permission_classes = [HasAction]

    InputSerializer = InvoiceRunInputSerializer
    OutputSerializer = InvoiceRunSerializer

    @extend_schema(summary="Run a fiscal year's franchise tariff invoices", request=InputSerializer,
                   responses={201: OutputSerializer, 400: {"type": "object"}})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        run = services.franchise_invoices_generate(fiscal_year=d["fiscal_year"], issued_on=d.get("issued_on"),
                                                   actor=request.user, trigger=InvoiceRun.Trigger.API)
        return Response(self.OutputSerializer(run).data, status=status.HTTP_201_CREATED)
