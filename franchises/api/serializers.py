"""Output serializers of the franchise API (reads). Inputs live with their views."""
from rest_framework import serializers

from franchises import rules
from franchises.models import Application, Franchise, Hearing, MeterReading


class PartyRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(source="display_name")


class FranchiseSerializer(serializers.ModelSerializer):
    holder = PartyRefSerializer()
    property_owner = PartyRefSerializer(allow_null=True)
    property_parcel = serializers.SlugRelatedField(slug_field="cadastre", read_only=True, allow_null=True)
    tariff_class_label = serializers.CharField(source="get_tariff_class_display")
    exemption_citation = serializers.SerializerMethodField()
    predecessor = serializers.SlugRelatedField(slug_field="number", read_only=True, allow_null=True)
    office = serializers.StringRelatedField()
    max_expiry = serializers.DateField()

    class Meta:
        model = Franchise
        fields = ["id", "number", "holder", "holder_type", "property_parcel", "property_owner", "source", "use",
                  "tariff_class", "tariff_class_label", "authorized_gallons", "original_issue_date", "issue_date",
                  "expiry_date", "max_expiry", "renewal_deadline", "last_use_on", "prescription_on", "payment_plan",
                  "special_conditions", "exemption", "exemption_basis", "exemption_resolution", "exemption_citation",
                  "acquired_right", "status", "predecessor", "office"]

    def get_exemption_citation(self, obj) -> str:
        return rules.EXEMPTIONS.get(obj.exemption, "")


class MeterReadingSerializer(serializers.ModelSerializer):
    class Meta:
        model = MeterReading
        fields = ["month", "gallons", "origin"]


class HearingSerializer(serializers.ModelSerializer):
    requested_by = PartyRefSerializer(allow_null=True)

    class Meta:
        model = Hearing
        fields = ["id", "origin", "requested_on", "requested_by", "notified_on", "due_on", "accepted",
                  "refused_reason", "scheduled_for", "held_on"]


class ApplicationSerializer(serializers.ModelSerializer):
    franchise = serializers.SlugRelatedField(slug_field="number", read_only=True)
    franchise_id = serializers.IntegerField()
    tariff_class = serializers.CharField(source="franchise.tariff_class")
    applicant = PartyRefSerializer()
    recipient = PartyRefSerializer(allow_null=True)
    checklist = serializers.ListField(child=serializers.DictField())
    missing_documents = serializers.ListField(child=serializers.CharField())
    resulting_franchise = serializers.SlugRelatedField(slug_field="number", read_only=True, allow_null=True)
    hearings = HearingSerializer(many=True)

    class Meta:
        model = Application
        fields = ["id", "franchise", "franchise_id", "tariff_class", "kind", "received_on", "status", "applicant",
                  "recipient", "recipient_type", "reasons", "requested_gallons", "requested_expiry_date",
                  "requested_conditions", "permanent_closure", "fee", "fee_paid", "checklist", "missing_documents",
                  "controversy", "changes_conditions", "expiry_at_filing", "filing_deadline", "filed_late",
                  "decision_due", "outstanding_debt", "debt_source", "determination_date", "determination",
                  "applied_changes", "resulting_franchise", "notified_on", "notification_method", "tracking_number",
                  "recipient_notified_on", "recipient_notification_method", "recipient_tracking_number",
                  "hearing_request_due", "hearings"]


class FranchiseDetailSerializer(FranchiseSerializer):
    meter_readings = serializers.SerializerMethodField()
    applications = serializers.SerializerMethodField()

    class Meta(FranchiseSerializer.Meta):
        fields = FranchiseSerializer.Meta.fields + ["meter_readings", "applications"]

    def get_meter_readings(self, obj) -> list[dict]:
        return MeterReadingSerializer(obj.meter_readings.order_by("-month")[:24], many=True).data

    def get_applications(self, obj) -> list[dict]:
        return [{"id": a.id, "kind": a.kind, "received_on": a.received_on, "status": a.status}
                for a in obj.applications.all()]
