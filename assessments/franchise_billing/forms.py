"""Forms of the franchise billing pages."""
from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from assessments.franchise_billing import rules
from assessments.franchise_billing.models import AaaTransfer
from core.fiscal import fiscal_year_of
from core.forms import DateInput
from core.uploads import bounded_file_field

DATE = DateInput()


def fy_choices() -> list[tuple[int, str]]:
    current = fiscal_year_of(timezone.localdate())
    return [(fy, f"FY{fy} ({fy - 1}-07-01 … {fy}-06-30)") for fy in range(current + 1, current - 6, -1)]


class InvoiceRunForm(forms.Form):
    fiscal_year = forms.TypedChoiceField(label=_("Año fiscal"), coerce=int, choices=())
    issued_on = forms.DateField(label=_("Fecha de emisión"), widget=DATE, required=False,
                                help_text=_("En blanco: hoy."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fiscal_year"].choices = fy_choices()


class BillReadingsForm(forms.Form):
    billed_on = forms.DateField(label=_("Fecha de las facturas"), widget=DATE, required=False,
                                help_text=_("En blanco: hoy. Vencen 30 días después (FRA-3)."))


class ReadingImportForm(forms.Form):
    file = bounded_file_field(label=_("Archivo CSV de la AAA"),
                           help_text=_("Columnas: franchise_number (o franquicia), month (o mes, AAAA-MM), "
                                       "gallons (o galones). Se importa completo o nada."))
    billed_on = forms.DateField(label=_("Fecha de las facturas"), widget=DATE, required=False,
                                help_text=_("En blanco: hoy. Vencen 30 días después (FRA-3)."))


class PeriodForm(forms.Form):
    """FRA-4 period: a calendar month, a fiscal quarter or a fiscal year."""

    kind = forms.ChoiceField(label=_("Período"), choices=AaaTransfer.PeriodKind.choices)
    month = forms.CharField(label=_("Mes"), required=False, widget=forms.TextInput(attrs={"type": "month"}))
    fiscal_year = forms.TypedChoiceField(label=_("Año fiscal"), coerce=int, choices=(), required=False)
    quarter = forms.TypedChoiceField(label=_("Trimestre"), coerce=int, required=False,
                                     choices=[(1, _("Q1 jul–sep")), (2, _("Q2 oct–dic")), (3, _("Q3 ene–mar")),
                                              (4, _("Q4 abr–jun"))])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fiscal_year"].choices = fy_choices()

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if kind == AaaTransfer.PeriodKind.MONTH:
            label = (data.get("month") or "").strip()
        elif kind == AaaTransfer.PeriodKind.QUARTER:
            label = f"FY{data.get('fiscal_year')}-Q{data.get('quarter')}"
        else:
            label = f"FY{data.get('fiscal_year')}"
        try:
            data["period"] = rules.period_from_label(label)
        except ValueError:
            raise forms.ValidationError(_("Indique un mes (AAAA-MM), un trimestre fiscal o un año fiscal.")) from None
        return data

    @classmethod
    def initial_for(cls, period: rules.Period) -> dict:
        initial = {"kind": period.kind}
        if period.kind == "MONTH":
            initial["month"] = period.label
        else:
            initial["fiscal_year"] = int(period.label[2:6])
            if period.kind == "QUARTER":
                initial["quarter"] = int(period.label[-1])
        return initial


class TransferForm(forms.Form):
    period = forms.CharField(widget=forms.HiddenInput)
    transferred_on = forms.DateField(label=_("Transferido el"), widget=DATE)
    reference = forms.CharField(label=_("Referencia (transferencia o cheque)"), max_length=60, required=False)
    notes = forms.CharField(label=_("Notas"), widget=forms.Textarea(attrs={"rows": 2}), required=False)
