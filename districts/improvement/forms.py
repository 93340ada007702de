"""Forms of the improvement pages: they only collect input; the services validate the law."""
from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from core.forms import AmountField, DateInput, PRModelForm
from core.uploads import bounded_file_field
from districts.improvement import rules
from districts.improvement.models import SidResolution, TidAccountEntry, TidFactorFinding, TidOrdinance
from districts.models import District, Municipality, Parcel, Party

DATE = DateInput()


def date_field(label, required=True, **extra):
    return forms.DateField(label=label, required=required, widget=DATE, **extra)


class MonthDaysField(forms.CharField):
    """Due dates as "MM-DD" separated by commas or spaces (every fiscal year)."""

    def to_python(self, value):
        text = super().to_python(value)
        parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p.strip()]
        try:
            return rules.normalize_month_days(parts)
        except ValueError as exc:
            raise ValidationError(str(exc)) from None

    def prepare_value(self, value):
        if isinstance(value, list):
            return ", ".join(value)
        return value


class Sid1RefusalMixin:
    """SID-1: a submission carrying any exemption, exoneration or discount field is refused whole."""

    def clean(self):
        data = super().clean()
        forbidden = rules.sid1_forbidden_fields(self.data.keys())
        if forbidden:
            raise ValidationError(rules.SID1_MESSAGE.format(fields=", ".join(forbidden)))
        return data


class SidResolutionForm(Sid1RefusalMixin, PRModelForm):
    due_dates = MonthDaysField(label=_("Fechas de vencimiento (MM-DD)"),
                               help_text=_("Fechas de pago que fija la resolución, p. ej. «07-01, 01-01» (SID-1)."))

    class Meta:
        model = SidResolution
        fields = ["district", "number", "adopted_on", "term_years", "first_fiscal_year", "due_dates",
                  "penalty_pct", "penalty_grace_days", "penalty_terms", "certified_copy"]
        widgets = {"adopted_on": DATE, "penalty_terms": forms.Textarea(attrs={"rows": 3})}
        help_texts = {"penalty_pct": _("La penalidad que fija la resolución, no la de la contribución sobre la "
                                       "propiedad (SID-1).")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["district"].queryset = District.objects.filter(kind=District.Kind.SID).order_by("name")
        if self.instance.pk:
            self.fields["district"].disabled = True

    def _update_errors(self, errors):
        """The model's check on a date this form does not show (crim_received_on, recorded with the CRIM
        receipt) is shown on the adoption date it conflicts with, instead of failing with a ValueError."""
        if hasattr(errors, "error_dict") and "crim_received_on" in errors.error_dict:
            errors.error_dict.setdefault("adopted_on", []).extend(errors.error_dict.pop("crim_received_on"))
        super()._update_errors(errors)


class SidChargeForm(Sid1RefusalMixin, forms.Form):
    parcel = forms.ModelChoiceField(label=_("Parcela"), queryset=Parcel.objects.none())
    annual_charge = AmountField(label=_("Cargo anual"), max_digits=14, decimal_places=2, min_value=0)

    def __init__(self, *args, resolution=None, **kwargs):
        super().__init__(*args, **kwargs)
        if resolution is not None:
            self.fields["parcel"].queryset = Parcel.objects.filter(
                memberships__district=resolution.district_id).order_by("cadastre")


class CrimReceiptForm(forms.Form):
    received_on = date_field(_("Recibida por el CRIM el"))


class MailedForm(forms.Form):
    round_id = forms.IntegerField(widget=forms.HiddenInput)
    mailed_on = date_field(_("Enviada el"))


class BatchForm(forms.Form):
    reference = forms.CharField(label=_("Referencia del CRIM"), max_length=60, required=False)
    received_on = date_field(_("Recibido el"))
    collected = AmountField(label=_("Recaudado"), max_digits=14, decimal_places=2, min_value=0)


class RemitForm(forms.Form):
    batch_id = forms.IntegerField(widget=forms.HiddenInput)
    remitted_on = date_field(_("Remitido el"))


class NotCarriedOutForm(forms.Form):
    on = date_field(_("Fecha"))
    reason = forms.CharField(label=_("Motivo"), widget=forms.Textarea(attrs={"rows": 2}))


class RefundForm(forms.Form):
    """SID-5: the owners' payments, one per line: `catastro; persona (id o referencia); monto pagado`."""

    decided_on = date_field(_("Fecha de la decisión"))
    payments = forms.CharField(
        label=_("Pagos de los dueños"),
        widget=forms.Textarea(attrs={"rows": 6, "placeholder": "371-045-123-07; 12; 1500.00"}),
        help_text=_("Una línea por pago: catastro; persona (id o referencia); monto pagado. Los pagos están en el "
                    "registro de cobros."))
    notes = forms.CharField(label=_("Notas"), required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def clean_payments(self):
        rows = []
        for n, line in enumerate(self.cleaned_data["payments"].splitlines(), start=1):
            if not line.strip():
                continue
            parts = [p.strip() for p in line.replace("\t", ";").split(";")]
            if len(parts) != 3:
                raise ValidationError(_("Línea %(n)s: use «catastro; persona; monto».") % {"n": n})
            cadastre, who, amount = parts
            parcel = Parcel.objects.filter(cadastre=cadastre).first()
            if parcel is None:
                raise ValidationError(_("Línea %(n)s: no existe la parcela %(c)s.") % {"n": n, "c": cadastre})
            party = Party.objects.filter(ref=who).first() or (
                Party.objects.filter(pk=int(who)).first() if who.isdigit() else None)
            if party is None:
                raise ValidationError(_("Línea %(n)s: no existe la persona %(p)s.") % {"n": n, "p": who})
            try:
                paid = Decimal(amount.replace(",", "").replace("$", ""))
            except InvalidOperation:
                raise ValidationError(_("Línea %(n)s: monto inválido.") % {"n": n}) from None
            rows.append((parcel, party, paid))
        if not rows:
            raise ValidationError(_("Indique al menos un pago."))
        return rows


class CrimRecoveredForm(forms.Form):
    on = date_field(_("Recobrado del CRIM el"))


# --- TID -----------------------------------------------------------------------------------------

class TidPetitionForm(forms.Form):
    district = forms.ModelChoiceField(label=_("Distrito"), queryset=District.objects.none())
    municipality = forms.ModelChoiceField(label=_("Municipio"), queryset=Municipality.objects.all())
    petition_text = forms.CharField(label=_("Petición del alcalde"), widget=forms.Textarea(attrs={"rows": 5}))
    legislature_received_on = date_field(_("Recibida por la Legislatura el"),
                                         help_text=_("Inicia el plazo de 90 días para la ordenanza (TID-1)."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["district"].queryset = District.objects.filter(kind=District.Kind.TID).order_by("name")


class FindingForm(forms.Form):
    factor = forms.ChoiceField(label=_("Factor"), choices=TidFactorFinding.Factor.choices)
    finding = forms.ChoiceField(label=_("Determinación"), choices=TidFactorFinding.Finding.choices)
    notes = forms.CharField(label=_("Notas"), required=False)


class DenyForm(forms.Form):
    on = date_field(_("Denegada el"))


class OrdinanceForm(forms.Form):
    number = forms.CharField(label=_("Número de ordenanza"), max_length=40)
    name = forms.CharField(label=_("Nombre del distrito"), max_length=200)
    issued_on = date_field(_("Aprobada por la Legislatura el"))
    expected_amount = AmountField(label=_("Cantidad que se espera recaudar"), max_digits=14,
                                         decimal_places=2, min_value=0)
    term_years = forms.IntegerField(label=_("Término (años)"), min_value=1, max_value=60)
    first_fiscal_year = forms.IntegerField(label=_("Primer año fiscal"), min_value=1950, max_value=2200)
    formula = forms.CharField(
        label=_("Fórmula del cargo anual"), widget=forms.Textarea(attrs={"rows": 3, "class": "formula",
                                                                         "spellcheck": "false"}),
        help_text=_("Variables: area_m2, area_cuerdas, area_acres, assessed_value, frontage_m, use_class. "
                    "Funciones: min, max, if(condición, entonces, si no); and, or, not."))
    due_dates = MonthDaysField(label=_("Fechas de vencimiento (MM-DD)"), required=False)
    association_authorized = forms.BooleanField(label=_("Autoriza a la asociación a cobrar (TID-3)"),
                                                required=False)


class FormulaForm(forms.Form):
    """TID-2: correct the formula or the expected amount before the mayor decides."""

    formula = OrdinanceForm.base_fields["formula"]
    expected_amount = OrdinanceForm.base_fields["expected_amount"]


class MayorReceiptForm(forms.Form):
    received_on = date_field(_("Recibida por el alcalde el"))


class MayorDecisionForm(forms.Form):
    decision = forms.ChoiceField(label=_("Decisión"), choices=[
        (TidOrdinance.Decision.APPROVED, _("Aprobada")), (TidOrdinance.Decision.DISAPPROVED, _("Desaprobada"))])
    decided_on = date_field(_("Fecha"))


class PublicationForm(forms.Form):
    newspaper = forms.CharField(label=_("Periódico de circulación general"), max_length=120)
    published_on = date_field(_("Publicada el"))


class CollectorForm(forms.Form):
    collector = forms.ChoiceField(label=_("Cobrador"), choices=TidOrdinance.Collector.choices)
    association = forms.ModelChoiceField(label=_("Asociación"), required=False, queryset=Party.objects.filter(
        kind=Party.Kind.ORGANIZATION).order_by("organization_name"))
    copy_sent_to_crim_on = date_field(_("Copia enviada al CRIM el"), required=False)


class AssociationReceiptForm(forms.Form):
    received_on = date_field(_("Recibida por la asociación el"))


class AccountEntryForm(forms.Form):
    kind = forms.ChoiceField(label=_("Tipo"), choices=TidAccountEntry.Kind.choices)
    entry_date = date_field(_("Fecha"))
    amount = AmountField(label=_("Monto"), max_digits=14, decimal_places=2, min_value=Decimal("0.01"))
    purpose = forms.CharField(label=_("Propósito"), max_length=240)
    admin_expense = forms.BooleanField(label=_("Gasto administrativo (tope 5 %)"), required=False)
    supporting_document = bounded_file_field(label=_("Documento de apoyo"), required=False)


class AuditForm(forms.Form):
    fiscal_year = forms.IntegerField(label=_("Año fiscal auditado"), min_value=1950, max_value=2200)
    cpa_name = forms.CharField(label=_("Contador público autorizado"), max_length=160)
    received_on = date_field(_("Recibido el"))
    report = bounded_file_field(label=_("Informe"), required=False)
