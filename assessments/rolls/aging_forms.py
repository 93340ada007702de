"""The delinquency page's filter: district, fund and the day the ages are counted to."""
from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from assessments.models import Fund
from core.forms import DateInput
from districts.models import District

DATE = DateInput()


class AgingFilterForm(forms.Form):
    district = forms.ModelChoiceField(label=_("Distrito"), required=False, to_field_name="code",
                                      queryset=District.objects.none(), empty_label=_("— Todos —"))
    fund = forms.ModelChoiceField(label=_("Fondo"), required=False, to_field_name="code",
                                  queryset=Fund.objects.none(), empty_label=_("— Todos —"))
    as_of = forms.DateField(label=_("Al día"), required=False, widget=DATE,
                            help_text=_("Los días de atraso se cuentan desde el vencimiento de cada plazo."))

    def __init__(self, data=None, **kwargs):
        super().__init__(data, **kwargs)
        # Every kind bills charges tied to its district: rolls (IRR, LAJ) and improvement billing runs
        # (SID, TID) — assessments.ledger.sources.
        self.fields["district"].queryset = District.objects.order_by("kind", "name")
        self.fields["fund"].queryset = Fund.objects.order_by("name")

    def clean_as_of(self):
        as_of = self.cleaned_data.get("as_of") or timezone.localdate()
        if as_of.year < 1900:  # the buckets count back from it: year 1 has no days before it
            raise forms.ValidationError(_("Elija una fecha desde 1900: %(date)s está fuera de rango.") % {
                "date": as_of.isoformat()})
        return as_of
