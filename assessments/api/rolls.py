"""Roll API: GET /rolls/<id>/corrections/ — a roll's corrections and supplements (any staff role, auditors too);
POST /rolls/<id>/certify/ and /finalize/ — the irreversible steps; 400 with the reasons when they cannot run."""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from assessments.rolls import jobs
from assessments.rolls.models import Roll, RollCorrection, RollJob
from core import roles
from core.permissions import IsStaffReader


class RollCorrectionListApi(generics.ListAPIView):
    permission_classes = [IsStaffReader]
    filter_backends = []

    @extend_schema_serializer(component_name="RollCorrection")
    class OutputSerializer(serializers.ModelSerializer):
        cadastre = serializers.CharField(source="parcel.cadastre")
        source_cadastre = serializers.CharField(source="source_parcel.cadastre", default=None)
        payment_reference = serializers.CharField(source="receivable.payment_reference", default=None)
        entries = serializers.PrimaryKeyRelatedField(many=True, read_only=True)

        class Meta:
            model = RollCorrection
            fields = ["id", "roll", "kind", "rule", "cadastre", "source_cadastre", "amount", "reason", "breakdown",
                      "receivable", "payment_reference", "entries", "created_at"]

    serializer_class = OutputSerializer

    def get_queryset(self):
        roll = get_object_or_404(Roll, pk=self.kwargs["pk"])
        return (RollCorrection.objects.filter(roll=roll).select_related("parcel", "source_parcel", "receivable")
                .prefetch_related("entries").order_by("created_at", "pk"))

    @extend_schema(summary="A roll's corrections and supplements (IRR-8 re-evaluations, inclusions, segregations)")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class RollStepApi(APIView):
    """POST /rolls/<id>/certify/ or /rolls/<id>/finalize/ with {"confirm": true}: queue the step's job (202),
    or 400 with every reason it cannot run now (a pending line change; a fiscal year not started yet: liens
    are never dated before it). A job already queued or running for the step is returned, not doubled."""

    step = jobs.CERTIFY
    required_action = roles.CERTIFY

    @extend_schema_serializer(component_name="RollJob")
    class OutputSerializer(serializers.ModelSerializer):
        class Meta:
            model = RollJob
            fields = ["id", "operation", "status", "fiscal_year", "total", "done", "message", "created_at"]

    @extend_schema_serializer(component_name="RollStepInput")
    class InputSerializer(serializers.Serializer):
        # The step cannot be undone: the caller says so explicitly, as the page's confirmation does.
        confirm = serializers.BooleanField(help_text="true: the caller confirms an irreversible step")

        def validate_confirm(self, value: bool) -> bool:
            if not value:
                raise serializers.ValidationError(_("Confirme el paso: no se puede deshacer."))
            return value

    @extend_schema(request=InputSerializer, responses={202: OutputSerializer},
                   summary="Certify (bill) or finalize (constitute the liens of) a roll, as a background job")
    def post(self, request, pk: int):
        roll = get_object_or_404(Roll, pk=pk)
        self.InputSerializer(data=request.data).is_valid(raise_exception=True)
        request_step = jobs.request_finalize if self.step == jobs.FINALIZE else jobs.request_certify
        job = request_step(roll, request.user)   # RollError → 400 with the reasons (core.api)
        return Response(self.OutputSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class RollFinalizeApi(RollStepApi):
    step = jobs.FINALIZE
    required_action = roles.FINALIZE
