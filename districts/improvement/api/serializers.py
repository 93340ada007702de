"""Output serializers of the improvement-district API (inputs live beside their views)."""
from rest_framework import serializers

from districts.improvement.models import (
    SidCollectionBatch,
    SidNoticeRound,
    SidRefund,
    SidRefundLine,
    SidResolution,
    SidResolutionCharge,
    TidAccountEntry,
    TidAudit,
    TidFactorFinding,
    TidNoticeRound,
    TidOrdinance,
    TidPetition,
)


class SidChargeSerializer(serializers.ModelSerializer):
    parcel = serializers.SlugRelatedField(slug_field="cadastre", read_only=True)
    parcel_id = serializers.IntegerField(read_only=True)

    class Meta:
        model = SidResolutionCharge
        fields = ["id", "parcel_id", "parcel", "annual_charge"]


class SidNoticeRoundSerializer(serializers.ModelSerializer):
    class Meta:
        model = SidNoticeRound
        fields = ["id", "sequence", "fiscal_year", "due_on", "moved_from", "mailed_on"]


class SidBatchSerializer(serializers.ModelSerializer):
    resolution = serializers.PrimaryKeyRelatedField(read_only=True)

    class Meta:
        model = SidCollectionBatch
        fields = ["id", "resolution", "reference", "received_on", "collected", "retention_pct", "retained",
                  "remitted", "parameters_label", "remittance_due_on", "remittance_moved_from", "remitted_on",
                  "remitted_late"]


class SidRefundLineSerializer(serializers.ModelSerializer):
    parcel = serializers.SlugRelatedField(slug_field="cadastre", read_only=True)

    class Meta:
        model = SidRefundLine
        fields = ["parcel", "party", "paid", "from_authority", "from_fund", "from_crim"]


class SidRefundSerializer(serializers.ModelSerializer):
    lines = SidRefundLineSerializer(many=True, read_only=True)

    class Meta:
        model = SidRefund
        fields = ["id", "decided_on", "total", "from_authority", "from_fund", "from_crim", "crim_recovery_pending",
                  "crim_recovered_on", "notes", "lines"]


class SidResolutionSerializer(serializers.ModelSerializer):
    district = serializers.SlugRelatedField(slug_field="code", read_only=True)
    last_fiscal_year = serializers.IntegerField(read_only=True)

    class Meta:
        model = SidResolution
        fields = ["id", "district", "number", "adopted_on", "term_years", "first_fiscal_year", "last_fiscal_year",
                  "due_dates", "penalty_pct", "penalty_grace_days", "penalty_terms", "crim_received_on",
                  "project_status", "not_carried_out_on"]


class SidResolutionDetailSerializer(SidResolutionSerializer):
    charges = SidChargeSerializer(many=True, read_only=True)
    notice_rounds = SidNoticeRoundSerializer(many=True, read_only=True)
    batches = SidBatchSerializer(many=True, read_only=True)
    refund = serializers.SerializerMethodField()

    class Meta(SidResolutionSerializer.Meta):
        fields = SidResolutionSerializer.Meta.fields + ["charges", "notice_rounds", "batches", "refund"]

    def get_refund(self, obj) -> dict | None:
        refund = SidRefund.objects.filter(resolution=obj).prefetch_related("lines__parcel").first()
        return SidRefundSerializer(refund).data if refund else None


class TidFindingSerializer(serializers.ModelSerializer):
    text = serializers.CharField(read_only=True)

    class Meta:
        model = TidFactorFinding
        fields = ["factor", "text", "finding", "notes"]


class TidNoticeRoundSerializer(serializers.ModelSerializer):
    class Meta:
        model = TidNoticeRound
        fields = ["id", "sequence", "fiscal_year", "due_on", "moved_from", "mailed_on"]


class TidAccountEntrySerializer(serializers.ModelSerializer):
    class Meta:
        model = TidAccountEntry
        fields = ["id", "kind", "entry_date", "amount", "purpose", "admin_expense"]


class TidAuditSerializer(serializers.ModelSerializer):
    class Meta:
        model = TidAudit
        fields = ["id", "fiscal_year", "cpa_name", "received_on"]


class TidOrdinanceSerializer(serializers.ModelSerializer):
    district = serializers.SlugRelatedField(source="petition.district", slug_field="code", read_only=True)
    notice_rounds = TidNoticeRoundSerializer(many=True, read_only=True)

    class Meta:
        model = TidOrdinance
        fields = ["id", "petition", "district", "number", "name", "issued_on", "issued_late", "expected_amount",
                  "term_years", "first_fiscal_year", "formula", "due_dates", "association_authorized",
                  "mayor_received_on", "mayor_due_on", "mayor_decision", "decided_on", "decided_late",
                  "publication_due_on", "newspaper", "published_on", "collector", "copy_sent_to_crim_on",
                  "association", "association_received_on", "notice_rounds"]


class TidOrdinanceDetailSerializer(TidOrdinanceSerializer):
    account_entries = TidAccountEntrySerializer(many=True, read_only=True)
    audits = TidAuditSerializer(many=True, read_only=True)

    class Meta(TidOrdinanceSerializer.Meta):
        fields = TidOrdinanceSerializer.Meta.fields + ["account_entries", "audits"]


class TidPetitionSerializer(serializers.ModelSerializer):
    district = serializers.SlugRelatedField(slug_field="code", read_only=True)
    municipality = serializers.StringRelatedField()
    findings = TidFindingSerializer(many=True, read_only=True)
    ordinance = serializers.SerializerMethodField()

    class Meta:
        model = TidPetition
        fields = ["id", "district", "municipality", "petition_text", "legislature_received_on", "ordinance_due_on",
                  "status", "denied_on", "findings", "ordinance"]

    def get_ordinance(self, obj) -> int | None:
        ordinance = TidOrdinance.objects.filter(petition=obj).values_list("pk", flat=True).first()
        return ordinance
