from django import forms
from django.utils.translation import gettext_lazy as _

from core.forms import DateInput, PRModelForm
from districts.models import District, Membership, Office, Ownership, Parcel, Party, WaterDelivery
from districts.reference import normalize_cadastre

DATE = DateInput()


class CadastreField(forms.CharField):
    """Typed without dashes (37100111134) is accepted and kept as the register writes it (371-001-111-34)."""

    def to_python(self, value):
        return normalize_cadastre(super().to_python(value))


class PartyForm(PRModelForm):
    class Meta:
        model = Party
        fields = ["kind", "given_names", "first_surname", "second_surname", "organization_name", "representative",
                  "representative_title", "email", "phone", "notice_language", "address_urbanization", "address_barrio",
                  "address_sector", "address_street", "address_number", "address_po_box",
                  "address_municipality", "address_zip"]


class OfficeForm(PRModelForm):
    class Meta:
        model = Office
        fields = ["name", "kind", "phone", "email", "letterhead", "issues", "collects", "address_urbanization",
                  "address_street", "address_number", "address_po_box", "address_municipality", "address_zip"]


class ParcelForm(PRModelForm):
    class Meta:
        model = Parcel
        fields = ["cadastre", "municipality", "barrio", "location", "area_value", "area_unit", "assessed_value",
                  "use_class", "frontage_m", "is_public_land"]
        field_classes = {"cadastre": CadastreField}


class OwnershipForm(PRModelForm):
    class Meta:
        model = Ownership
        fields = ["parcel", "party", "share_pct", "start_date", "end_date", "deed"]
        widgets = {"start_date": DATE, "end_date": DATE}


class DistrictForm(PRModelForm):
    class Meta:
        model = District
        fields = ["kind", "code", "name", "municipalities", "region", "office", "collecting_office",
                  "completion_certified_on"]
        widgets = {"completion_certified_on": DATE}


class MembershipForm(PRModelForm):
    class Meta:
        model = Membership
        fields = ["district", "parcel", "included_on", "status", "excluded_on", "gravity_acres", "pumped_acres",
                  "first_water_on", "free_period_end", "twelve_months_on", "credit_pct"]
        widgets = dict.fromkeys(
            ["included_on", "excluded_on", "first_water_on", "free_period_end", "twelve_months_on"], DATE)


class WaterDeliveryForm(PRModelForm):
    class Meta:
        model = WaterDelivery
        fields = ["parcel", "fiscal_year", "semester", "af_per_acre", "offered_only"]


class SearchForm(forms.Form):
    q = forms.CharField(label=_("Buscar"), required=False)
