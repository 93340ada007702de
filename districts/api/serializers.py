from rest_framework import serializers

from districts.models import District, Membership, Office, Ownership, Parcel, Party, WaterDelivery


class PartySerializer(serializers.ModelSerializer):
    display_name = serializers.CharField(read_only=True)
    address_lines = serializers.ListField(child=serializers.CharField(), read_only=True)
    address_municipality = serializers.StringRelatedField()

    class Meta:
        model = Party
        fields = ["id", "kind", "display_name", "given_names", "first_surname", "second_surname",
                  "organization_name", "representative", "representative_title", "email", "phone", "notice_language",
                  "address_urbanization", "address_barrio", "address_sector", "address_street", "address_number",
                  "address_po_box", "address_municipality", "address_zip", "address_lines"]


class OfficeSerializer(serializers.ModelSerializer):
    address_lines = serializers.ListField(child=serializers.CharField(), read_only=True)

    class Meta:
        model = Office
        fields = ["id", "name", "kind", "phone", "email", "issues", "collects", "address_lines"]


class OwnershipSerializer(serializers.ModelSerializer):
    party_name = serializers.CharField(source="party.display_name", read_only=True)

    class Meta:
        model = Ownership
        fields = ["id", "party", "party_name", "share_pct", "start_date", "end_date", "deed"]


class ParcelSerializer(serializers.ModelSerializer):
    municipality = serializers.StringRelatedField()
    area_m2 = serializers.DecimalField(max_digits=20, decimal_places=4, read_only=True)
    area_cuerdas = serializers.DecimalField(max_digits=20, decimal_places=4, read_only=True)
    area_acres = serializers.DecimalField(max_digits=20, decimal_places=4, read_only=True)

    class Meta:
        model = Parcel
        fields = ["id", "cadastre", "municipality", "barrio", "location", "area_value", "area_unit", "area_m2",
                  "area_cuerdas", "area_acres", "assessed_value", "use_class", "frontage_m", "is_public_land"]


class ParcelDetailSerializer(ParcelSerializer):
    ownerships = OwnershipSerializer(many=True, read_only=True)

    class Meta(ParcelSerializer.Meta):
        fields = ParcelSerializer.Meta.fields + ["ownerships"]


class DistrictSerializer(serializers.ModelSerializer):
    municipalities = serializers.StringRelatedField(many=True)

    class Meta:
        model = District
        fields = ["id", "kind", "code", "name", "municipalities", "region", "office", "collecting_office",
                  "completion_certified_on"]


class MembershipSerializer(serializers.ModelSerializer):
    district = serializers.SlugRelatedField(slug_field="code", read_only=True)
    parcel = serializers.SlugRelatedField(slug_field="cadastre", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "district", "parcel", "included_on", "status", "excluded_on", "gravity_acres",
                  "pumped_acres", "first_water_on", "free_period_end", "twelve_months_on", "credit_pct"]


class WaterDeliverySerializer(serializers.ModelSerializer):
    parcel = serializers.SlugRelatedField(slug_field="cadastre", read_only=True)

    class Meta:
        model = WaterDelivery
        fields = ["id", "parcel", "fiscal_year", "semester", "period", "af_per_acre", "offered_only"]
