"""Roll API: GET /rolls/<id>/corrections/ — a roll's corrections and supplements (any staff role, auditors too)."""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import generics, serializers

from assessments.rolls.models import Roll, RollCorrection
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
