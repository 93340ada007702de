"""Franchise billing API (HackSoft style: one view per operation, nested Input/Output serializers).

GET  /franchise-billing/franchises/<id>/invoices/?kind=&fiscal_year=   any staff role (auditor included)
POST /franchise-billing/runs/  {fiscal_year, issued_on?}               staff who write (not the auditor)
"""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
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
    """One tariff invoice or metered bill, with its receivable's figures."""

    franchise = serializers.CharField(source="franchise.number")
    payment_reference = serializers.CharField(source="receivable.payment_reference")
    description = serializers.CharField(source="receivable.description")
    issued_on = serializers.DateField(source="receivable.issued_on")
    amount = serializers.DecimalField(source="receivable.amount", **MONEY)
    status = serializers.CharField(source="receivable.status")
    open_amount = serializers.SerializerMethodField()
    installments = InstallmentSerializer(source="receivable.installments", many=True)
    breakdown = serializers.JSONField(source="receivable.breakdown")

    class Meta:
        model = FranchiseCharge
        fields = ["id", "franchise", "kind", "fiscal_year", "month", "gallons", "tariff_class", "payment_plan",
                  "prorated", "payment_reference", "description", "issued_on", "amount", "status", "open_amount",
                  "installments", "parameters", "breakdown"]

    def get_open_amount(self, obj) -> str:
        value = self.context["open"].get(obj.receivable_id)
        return f"{value if value is not None else 0:.2f}"


class FranchiseInvoiceListApi(generics.ListAPIView):
    """A franchise's tariff invoices (FRA-1 to FRA-3) and metered bills, newest first, with what is open."""

    permission_classes = [IsStaffReader]
    serializer_class = FranchiseInvoiceSerializer
    queryset = FranchiseCharge.objects.none()

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return FranchiseCharge.objects.none()
        franchise = get_object_or_404(Franchise, pk=self.kwargs["pk"])
        qs = selectors.charges_for(franchise).select_related("franchise")
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
        ctx["open"] = selectors.open_amounts(FranchiseCharge.objects.filter(franchise_id=pk)
                                             .values_list("receivable_id", flat=True)) if pk else {}
        return ctx

    @extend_schema(summary="A franchise's invoices and metered bills", parameters=[
        OpenApiParameter("kind", str, enum=FranchiseCharge.Kind.values),
        OpenApiParameter("fiscal_year", int)])
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
