"""Staff forms of the lien pages. They validate input; services decide."""
from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.forms import AmountField, DateInput
from districts.models import Office
from liens.models import Lien
from liens.selectors import RECORDABLE_KINDS, lien_label

DATE = DateInput()
TEXT = forms.Textarea(attrs={"rows": 3})
MONEY = {"max_digits": 14, "decimal_places": 2}

PURPOSE_CHOICES = [
    ("IMPROVEMENTS", _("(a) Mejoras permanentes de la finca")),
    ("SUPPLIES", _("(b) Abono, semilla, ganado o implementos agrícolas")),
    ("DEBT_REFINANCE", _("(c) Cancelación de hipotecas o pago de deudas agrícolas")),
    ("OTHER", _("Otro fin")),
]


class LienRecordForm(forms.Form):
    """LIEN-1: other encumbrances, recorded with their date and terms."""

    kind = forms.ChoiceField(label=_("Tipo"), choices=[(k, v) for k, v in Lien.Kind.choices if k in RECORDABLE_KINDS])
    amount = AmountField(label=_("Cuantía"), min_value=Decimal("0"), **MONEY)
    constituted_on = forms.DateField(label=_("Fecha de constitución"), widget=DATE)
    origin_label = forms.CharField(label=_("Acreedor o referencia"), max_length=200, required=False,
                                   help_text=_("P. ej., «Banco Cooperativo, escritura 123» o «CRIM 2026»."))
    presented_seq = forms.IntegerField(label=_("Orden de presentación en el Registro"), min_value=1, required=False,
                                       help_text=_("Decide entre gravámenes de la misma fecha (REGISTRY)."))
    finances_public_infrastructure = forms.BooleanField(
        label=_("Gravamen legal tácito que financia infraestructura pública (TID-6 d)"), required=False)
    # Mortgage (IRR-11)
    term_years = forms.IntegerField(label=_("Hipoteca: término (años)"), min_value=0, required=False)
    fixed_annual_installments = forms.BooleanField(label=_("Hipoteca: pagadera a plazos anuales fijos"),
                                                   required=False)
    rate_pct = AmountField(label=_("Hipoteca: tipo de interés anual (%)"), min_value=Decimal("0"),
                                  max_digits=7, decimal_places=4, required=False)
    purpose = forms.ChoiceField(label=_("Hipoteca: fin"), choices=[("", "—")] + PURPOSE_CHOICES, required=False)
    principal_per_cuerda = AmountField(
        label=_("Hipoteca: principal por cuerda"), min_value=Decimal("0"), required=False, **MONEY,
        help_text=_("En blanco: la cuantía entre las cuerdas de la parcela."))
    irrigation_benefit = forms.BooleanField(
        label=_("Hipoteca: certifico que su objeto es permitir al dueño aprovechar el sistema de riego (IRR-11)"),
        required=False)
    # Refaccionario
    district_cooperative = forms.BooleanField(
        label=_("Crédito refaccionario de una asociación o cooperativa organizada en el distrito (IRR-10)"),
        required=False)
    notes = forms.CharField(label=_("Notas"), widget=TEXT, required=False)

    MORTGAGE_FIELDS = ("term_years", "fixed_annual_installments", "rate_pct", "purpose", "principal_per_cuerda",
                       "irrigation_benefit")

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if kind == Lien.Kind.MORTGAGE:
            for name in ("term_years", "rate_pct", "purpose"):
                if data.get(name) in (None, ""):
                    self.add_error(name, _("Requerido para clasificar la hipoteca (IRR-11)."))
        if data.get("district_cooperative") and kind != Lien.Kind.REFACCIONARIO:
            self.add_error("district_cooperative", _("Solo un crédito refaccionario."))
        return data

    def service_kwargs(self) -> dict:
        d = self.cleaned_data
        terms = None
        if d["kind"] == Lien.Kind.MORTGAGE:
            terms = {"term_years": d["term_years"], "fixed_annual_installments": d["fixed_annual_installments"],
                     "rate_pct": str(d["rate_pct"]), "purpose": d["purpose"],
                     "principal_per_cuerda": str(d["principal_per_cuerda"]) if d["principal_per_cuerda"] is not None
                     else None, "irrigation_benefit": d["irrigation_benefit"]}
        return {"kind": d["kind"], "amount": d["amount"], "constituted_on": d["constituted_on"],
                "origin_label": d["origin_label"], "presented_seq": d["presented_seq"],
                "finances_public_infrastructure": d["finances_public_infrastructure"],
                "district_cooperative": d["district_cooperative"] and d["kind"] == Lien.Kind.REFACCIONARIO,
                "mortgage_terms": terms, "notes": d["notes"]}


class LienStatusForm(forms.Form):
    status = forms.ChoiceField(label=_("Nuevo estado"), choices=Lien.Status.choices)
    on = forms.DateField(label=_("Fecha"), widget=DATE)
    reason = forms.CharField(label=_("Motivo"), max_length=300, required=False)


class LienChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return f"{lien_label(obj)} · {obj.constituted_on:%d/%m/%Y} · ${obj.amount:,.2f}"


class RulingForm(forms.Form):
    higher = LienChoiceField(label=_("Gravamen de rango superior"), queryset=Lien.objects.none())
    lower = LienChoiceField(label=_("Gravamen de rango inferior"), queryset=Lien.objects.none())
    reference = forms.CharField(label=_("Referencia"), max_length=120,
                                help_text=_("Número de la sentencia, resolución u opinión legal."))
    note = forms.CharField(label=_("Fundamento"), widget=TEXT, required=False)

    def __init__(self, *args, liens=None, **kwargs):
        super().__init__(*args, **kwargs)
        queryset = liens if liens is not None else Lien.objects.none()
        self.fields["higher"].queryset = queryset
        self.fields["lower"].queryset = queryset

    def clean(self):
        data = super().clean()
        if data.get("higher") and data.get("higher") == data.get("lower"):
            self.add_error("lower", _("Elija dos gravámenes distintos."))
        return data


class RulingRevokeForm(forms.Form):
    reason = forms.CharField(label=_("Motivo de la revocación"), max_length=300)


class DistributionForm(forms.Form):
    proceeds = AmountField(label=_("Producto de la venta"), min_value=Decimal("0"), **MONEY)


class SeizureForm(forms.Form):
    amount_owed = AmountField(
        label=_("Cantidad adeudada"), min_value=Decimal("0.01"), **MONEY,
        help_text=_("Cuotas de riego morosas con sus recargos e intereses, según el estado de cuenta."))
    proposed_value = AmountField(
        label=_("Valor del embargo propuesto"), min_value=Decimal("0"), **MONEY,
        help_text=_("Valor tasado de la propiedad o de la parte que se propone embargar."))
    note = forms.CharField(label=_("Nota"), widget=TEXT, required=False)


class CertificateForm(forms.Form):
    on = forms.DateField(label=_("Gravámenes vigentes al"), widget=DATE)
    office = forms.ModelChoiceField(label=_("Oficina que certifica"), queryset=Office.objects.none(), required=False,
                                    empty_label=_("— La del distrito de la parcela —"))
    language = forms.ChoiceField(label=_("Idioma"), choices=[("es", "Español"), ("en", "English")], initial="es")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["office"].queryset = Office.objects.order_by("name")
        self.fields["on"].initial = timezone.localdate()

    def clean_on(self):
        on = self.cleaned_data["on"]
        if on > timezone.localdate():
            raise forms.ValidationError(_("La certificación no puede tener fecha futura."))
        return on
