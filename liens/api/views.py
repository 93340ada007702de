"""Lien API: the parcel's ranking in the `lien-ranking` contract's shape, and rulings.

GET  /api/v1/parcels/{id}/liens/           staff (auditors included); ?on=YYYY-MM-DD, ?proceeds=
     each lien gives `amount` (as constituted) and `outstanding` (what it secures on `on`, LIEN-4);
     the distribution pays `outstanding`
POST /api/v1/parcels/{id}/liens/rulings/   legal reviewers only; 400 with the fields at fault

Lien ids are the liens' primary keys as strings, as ids are in docs/compute.md.
"""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from core import roles
from core.permissions import HasAction, IsStaffReader
from districts.models import Parcel
from liens import selectors, services
from liens.models import Lien, LienRuling

MONEY = {"max_digits": 14, "decimal_places": 2}


class LienOutputSerializer(serializers.ModelSerializer):
    """A lien in force: `amount` as constituted, `outstanding` what it secures on the date asked (LIEN-4)."""

    id = serializers.SerializerMethodField()
    outstanding = serializers.SerializerMethodField()
    kind_label = serializers.CharField(source="get_kind_display")
    status_label = serializers.CharField(source="get_status_display")

    class Meta:
        model = Lien
        fields = ["id", "kind", "kind_label", "amount", "outstanding", "constituted_on", "status", "status_label",
                  "origin_type", "origin_id", "origin_label", "mortgage_terms", "district_cooperative",
                  "finances_public_infrastructure", "presented_seq"]

    def get_id(self, lien) -> str:
        return str(lien.pk)

    def get_outstanding(self, lien) -> str:
        return str(self.context["secured"][lien.pk])


class RulingOutputSerializer(serializers.ModelSerializer):
    higher = serializers.SerializerMethodField()
    lower = serializers.SerializerMethodField()
    decided_by = serializers.SerializerMethodField()

    class Meta:
        model = LienRuling
        fields = ["id", "higher", "lower", "reference", "note", "decided_by", "decided_at"]

    def get_higher(self, ruling) -> str:
        return str(ruling.higher_id)

    def get_lower(self, ruling) -> str:
        return str(ruling.lower_id)

    def get_decided_by(self, ruling) -> str:
        return ruling.decided_by.username


def ranking_payload(parcel: Parcel, on=None, proceeds=None) -> dict:
    pr = selectors.parcel_ranking(parcel, on)
    return {
        "parcel": {"id": parcel.pk, "cadastre": parcel.cadastre},
        "on": on.isoformat() if on else None,
        "calculation": "lien-ranking",
        **selectors.ranking_contract(pr, proceeds),
        "as_of": pr.as_of.isoformat(),
        "liens": LienOutputSerializer([r.lien for r in pr.rows], many=True,
                                      context={"secured": {r.lien.pk: r.secured for r in pr.rows}}).data,
        "rulings": RulingOutputSerializer(pr.rulings, many=True).data,
    }


class ParcelLiensApi(APIView):
    """The parcel's liens in force and their ranking (LIEN-2), with the distribution of `proceeds` (LIEN-3)."""

    permission_classes = [IsStaffReader]

    class QuerySerializer(serializers.Serializer):
        on = serializers.DateField(required=False)
        proceeds = serializers.DecimalField(required=False, min_value=0, **MONEY)

        def validate_on(self, value):
            if value > timezone.localdate():
                raise serializers.ValidationError("No puede ser una fecha futura.")
            return value

    @extend_schema(summary="Lien ranking of a parcel (docs/compute.md `lien-ranking` shape) plus its liens",
                   parameters=[OpenApiParameter("on", str, description="YYYY-MM-DD: liens in force on that date"),
                               OpenApiParameter("proceeds", str, description="sale proceeds to distribute")],
                   responses={200: {"type": "object"}, 400: {"type": "object"}})
    def get(self, request, pk: int):
        parcel = get_object_or_404(Parcel, pk=pk)
        query = self.QuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(ranking_payload(parcel, query.validated_data.get("on"),
                                        query.validated_data.get("proceeds")))


class LienRulingCreateApi(APIView):
    """Record a ruling that `higher` outranks `lower` (legal reviewers only); returns it and the new ranking."""

    permission_classes = [HasAction]
    required_action = roles.RULE

    @extend_schema_serializer(component_name="LienRulingInput")
    class InputSerializer(serializers.Serializer):
        higher = serializers.PrimaryKeyRelatedField(queryset=Lien.objects.all())
        lower = serializers.PrimaryKeyRelatedField(queryset=Lien.objects.all())
        reference = serializers.CharField(max_length=120)
        note = serializers.CharField(required=False, allow_blank=True, default="")

    @extend_schema(summary="Record a legal ruling on the rank of two liens (legal reviewers)",
                   request=InputSerializer, responses={201: {"type": "object"}, 400: {"type": "object"},
                                                       403: {"type": "object"}})
    def post(self, request, pk: int):
        parcel = get_object_or_404(Parcel, pk=pk)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ruling = services.lien_ruling_record(parcel=parcel, actor=request.user, **data.validated_data)
        return Response({"ruling": RulingOutputSerializer(ruling).data, "ranking": ranking_payload(parcel)},
                        status=status.HTTP_201_CREATED)
