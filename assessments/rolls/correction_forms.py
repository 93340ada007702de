"""Staff forms of the roll's supplements: a parcel included mid-year, a parcel segregated."""
from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import forms
from django.utils.translation import gettext_lazy as _

from core.forms import AmountField, DateInput
from districts.models import Membership, Parcel

DATE = DateInput()
AREA = {"max_digits": 14, "decimal_places": 4, "min_value": Decimal("0")}


def _parcel(cadastre: str, field: str = "parcel") -> Parcel:
    found = Parcel.objects.filter(cadastre=cadastre.strip()).first()
    if found is None:
        raise forms.ValidationError(_("No existe la parcela «%(c)s» en el registro.") % {"c": cadastre},
                                    code=field)
    return found


class IncludeMidyearForm(forms.Form):
    cadastre = forms.CharField(label=_("Catastro de la parcela"), max_length=20)
    included_on = forms.DateField(label=_("Fecha de inclusión"), widget=DATE)
    status = forms.ChoiceField(label=_("Inclusión"), choices=Membership.Status.choices,
                               initial=Membership.Status.PERMANENT)
    gravity_acres = AmountField(label=_("Acres por gravedad"), initial=Decimal("0"), **AREA)
    pumped_acres = AmountField(label=_("Acres por bombeo"), initial=Decimal("0"), **AREA)
    first_water_on = forms.DateField(label=_("Primera agua recibida u ofrecida"), required=False, widget=DATE)
    free_period_end = forms.DateField(label=_("Fin del período libre (IRR-4)"), required=False, widget=DATE)
    twelve_months_on = forms.DateField(label=_("Doce meses de agua cumplidos (LAJ-5)"), required=False, widget=DATE)
    credit_pct = AmountField(label=_("Crédito por derecho de agua (%) (LAJ-4)"), initial=Decimal("0"),
                                    max_digits=7, decimal_places=4, min_value=Decimal("0"),
                                    max_value=Decimal("100"))

    def clean_cadastre(self) -> Parcel:
        return _parcel(self.cleaned_data["cadastre"])


class SplitForm(forms.Form):
    parent = forms.CharField(label=_("Catastro de la parcela madre"), max_length=20)
    on = forms.DateField(label=_("Fecha de la segregación"), widget=DATE)
    children = forms.CharField(
        label=_("Parcelas segregadas"), widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Una por línea: catastro, acres por gravedad, acres por bombeo. "
                    "Las parcelas deben existir en el registro."))

    def clean_parent(self) -> Parcel:
        return _parcel(self.cleaned_data["parent"], "parent")

    def clean_children(self) -> list[tuple[Parcel, Decimal, Decimal]]:
        out = []
        for n, raw in enumerate(self.cleaned_data["children"].splitlines(), start=1):
            if not raw.strip():
                continue
            cells = [c.strip() for c in raw.split(",")]
            if len(cells) not in (2, 3):
                raise forms.ValidationError(_("Línea %(n)s: escriba catastro, gravedad y bombeo («%(v)s»).")
                                            % {"n": n, "v": raw})
            try:
                gravity = Decimal(cells[1])
                pumped = Decimal(cells[2]) if len(cells) == 3 and cells[2] else Decimal("0")
            except InvalidOperation:
                raise forms.ValidationError(_("Línea %(n)s: acres inválidos («%(v)s»).") % {"n": n, "v": raw}) from None
            if not (gravity.is_finite() and pumped.is_finite()):     # Decimal accepts "NaN" and "inf"
                raise forms.ValidationError(_("Línea %(n)s: acres inválidos («%(v)s»).") % {"n": n, "v": raw})
            if gravity < 0 or pumped < 0:
                raise forms.ValidationError(_("Línea %(n)s: los acres no pueden ser negativos («%(v)s»).")
                                            % {"n": n, "v": raw})
            out.append((_parcel(cells[0], "children"), gravity, pumped))
        return out
