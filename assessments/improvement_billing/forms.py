"""The "Facturar año" form of the staff pages."""
from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.fiscal import fiscal_year_of
from core.forms import DateInput


class BillYearForm(forms.Form):
    fiscal_year = forms.IntegerField(label=_("Año fiscal"), min_value=1950, max_value=2200)
    issued_on = forms.DateField(label=_("Fecha de emisión"), required=False,
                                widget=DateInput(),
                                help_text=_("Hoy si se deja en blanco."))

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("initial", {"fiscal_year": fiscal_year_of(timezone.localdate())})
        super().__init__(*args, **kwargs)
