"""Improvement billing API (one view per operation, nested Input/Output serializers).

GET  /improvement-billing/runs/?district=&fiscal_year=       any staff role (auditor included)
POST /improvement-billing/runs/  {district, fiscal_year, issued_on?}   staff who write; 400 on bad input
GET  /improvement-billing/runs/<id>/charges/                  any staff role
"""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from assessments.improvement_billing import selectors, services
from assessments.improvement_billing.models import BillingRun
from core import roles
from core.permissions import HasAction, IsStaffReader
from districts.models import District

MONEY = {"max_digits": 14, "decimal_places": 2}


class ImprovementRunOut(serializers.ModelSerializer):
    district = serializers.CharField(source="district.code")
    source_type = serializers.CharField()

    class Meta:
        model = BillingRun
        fields = ["id", "district", "fiscal_year", "program", "status", "reason", "message", "issued_on", "trigger",
                  "charges_count", "charges_total", "source_type", "last_run_at"]


class ImprovementInstallmentOut(serializers.Serializer):
    seq = serializers.IntegerField()
    due_date = serializers.DateField()
    amount = serializers.DecimalField(**MONEY)


class ImprovementChargeOut(serializers.Serializer):
    id = serializers.IntegerField(source="charge.pk")
    cadastre = serializers.CharField(source="charge.parcel.cadastre")
    program = serializers.CharField(source="charge.program")
    collector = serializers.CharField(source="charge.collector")
    payment_reference = serializers.CharField(source="receivable.payment_reference")
    description = serializers.CharField(source="receivable.description")
    amount = serializers.DecimalField(source="receivable.amount", **MONEY)
    open_amount = serializers.DecimalField(source="open", **MONEY)
    status = serializers.CharField(source="receivable.status")
    installments = ImprovementInstallmentOut(many=True)
    notice = serializers.SerializerMethodField()
    breakdown = serializers.JSONField(source="receivable.breakdown")

    def get_notice(self, line) -> dict | None:
        n = line["notice"]
        return {"id": n.pk, "number": n.display_number, "method": n.method, "status": n.status} if n else None


class ImprovementBillInput(serializers.Serializer):
    district = serializers.SlugField()
    fiscal_year = serializers.IntegerField(min_value=1950, max_value=2200)
    issued_on = serializers.DateField(required=False, allow_null=True)


class RunListApi(APIView):
    """Billing runs (one per district and fiscal year) with their totals; POST bills a year."""

    required_action = roles.FINALIZE

    InputSerializer = ImprovementBillInput

    def get_permissions(self):
        return [HasAction()] if self.request.method == "POST" else [IsStaffReader()]

    @extend_schema(summary="Improvement billing runs", responses={200: ImprovementRunOut(many=True)},
                   parameters=[OpenApiParameter("district", str), OpenApiParameter("fiscal_year", int)])
    def get(self, request):
        qs = selectors.runs()
        if request.query_params.get("district"):
            qs = qs.filter(district__code=request.query_params["district"])
        fy = request.query_params.get("fiscal_year", "")
        if fy:
            if not fy.isdigit():
                return Response({"fiscal_year": ["Año fiscal inválido."]}, status=status.HTTP_400_BAD_REQUEST)
            qs = qs.filter(fiscal_year=int(fy))
        return Response(ImprovementRunOut(qs, many=True).data)

    @extend_schema(summary="Bill a SID or TID district for a fiscal year (idempotent)", request=ImprovementBillInput,
                   responses={201: ImprovementRunOut, 400: {"type": "object"}})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        district = District.objects.filter(code=d["district"]).first()
        if district is None:
            return Response({"district": [f"No existe el distrito {d['district']}."]},
                            status=status.HTTP_400_BAD_REQUEST)
        try:
            run = services.improvement_bill(district=district, fiscal_year=d["fiscal_year"], actor=request.user,
                                            issued_on=d.get("issued_on"), trigger=BillingRun.Trigger.API)
        except services.BillingRefused as exc:
            # Answered here, not raised: the refusal and its flag must stay recorded (ATOMIC_REQUESTS).
            return Response({"fiscal_year": [exc.text], "reason": exc.reason, "run": exc.run.pk},
                            status=status.HTTP_400_BAD_REQUEST)
        except ValidationError as exc:
            return Response(exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages},
                            status=status.HTTP_400_BAD_REQUEST)
        return Response({**ImprovementRunOut(run).data, "created": run.created_now,
                         "created_total": str(run.created_total_now)}, status=status.HTTP_201_CREATED)


class RunChargesApi(APIView):
    """A run's charges: receivable, installments, what is open and the current notice."""

    permission_classes = [IsStaffReader]

    @extend_schema(summary="Charges of an improvement billing run", responses={200: ImprovementChargeOut(many=True)})
    def get(self, request, pk):
        run = get_object_or_404(BillingRun, pk=pk)
        return Response(ImprovementChargeOut(selectors.run_page(run)["lines"], many=True).data)
