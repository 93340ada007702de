"""Forms of the cashier and collections pages (validation of shape only; rules live in services)."""
from __future__ import annotations

import uuid
from decimal import Decimal

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from assessments.models import Adjustment, Payment
from core.forms import AmountField, DateInput
from core.uploads import bounded_file_field

MONEY_FIELD = {"max_digits": 14, "decimal_places": 2}


class AsOfForm(forms.Form):
    as_of = forms.DateField(label=_("Estado al"), required=False, widget=DateInput())


class PeriodForm(forms.Form):
    start = forms.DateField(label=_("Desde"), widget=DateInput())
    end = forms.DateField(label=_("Hasta"), widget=DateInput())

    def clean(self):
        data = super().clean()
        if data.get("start") and data.get("end") and data["end"] < data["start"]:
            raise forms.ValidationError(_("La fecha final es anterior a la inicial."))
        return data


class PaymentForm(forms.Form):
    method = forms.ChoiceField(label=_("Forma de pago"), choices=Payment.Method.choices, initial=Payment.Method.CASH)
    amount = AmountField(label=_("Importe"), min_value=Decimal("0.01"), **MONEY_FIELD)
    paid_on = forms.DateField(label=_("Fecha de pago"), widget=DateInput())
    payer_name = forms.CharField(label=_("Pagador"), max_length=200, required=False)
    check_number = forms.CharField(label=_("Número de cheque o giro"), max_length=40, required=False)
    idempotency_key = forms.CharField(widget=forms.HiddenInput(), max_length=100)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            # A new key per rendered form: submitting the same form twice posts one payment.
            self.initial.setdefault("idempotency_key", f"form:{uuid.uuid4()}")
            self.initial.setdefault("paid_on", timezone.localdate())


class ReturnForm(forms.Form):
    on = forms.DateField(label=_("Fecha de la devolución"), widget=DateInput())
    reason = forms.CharField(label=_("Motivo"), max_length=250)


class BatchCloseForm(forms.Form):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for value, label in Payment.Method.choices:
            self.fields[f"counted_{value}"] = AmountField(
                label=label, required=False, min_value=Decimal("0"), **MONEY_FIELD)

    def counted(self) -> dict[str, Decimal]:
        return {value: self.cleaned_data.get(f"counted_{value}") or Decimal("0")
                for value in Payment.Method.values}


class BankFileForm(forms.Form):
    file = bounded_file_field(label=_("Archivo del banco (CSV: reference, amount, date, bank_ref)"))


class OpeningBalancesForm(forms.Form):
    file = bounded_file_field(label=_("Archivo CSV de saldos de apertura"))
    issued_on = forms.DateField(label=_("Fecha de apertura"), widget=DateInput())


class AdjustmentRequestForm(forms.Form):
    kind = forms.ChoiceField(label=_("Tipo"), choices=Adjustment.Kind.choices)
    installment = forms.ChoiceField(label=_("Plazo"), required=False)
    amount = AmountField(label=_("Importe"), **MONEY_FIELD,
                                help_text=_("Ajuste: negativo reduce la deuda. Baja y reembolso: positivo."))
    effective_date = forms.DateField(label=_("Fecha efectiva"), widget=DateInput())
    payee = forms.ChoiceField(label=_("Beneficiario"), required=False,
                              help_text=_("Reembolso, o reducción de la cuenta: de quién es el crédito (de quien "
                                          "pagó)."))
    reason = forms.CharField(label=_("Motivo"), widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, installments=(), payers=(), **kwargs):
        super().__init__(*args, **kwargs)
        # payers: credit_rules.PayerCredit of the account; the value says who (party id or the name given).
        self.fields["payee"].choices = [("", "—")] + [
            (f"party:{c.party_id}" if c.party_id else f"name:{c.name}",
             f"{c.name or _('crédito de la cuenta')} · ${c.amount:,.2f}") for c in payers]
        self.fields["installment"].choices = [("", _("— la cuenta (sin plazo) —"))] + [
            (str(i.pk), f"{i.receivable.payment_reference} · {i.receivable.description} · "
                        f"{_('plazo')} {i.seq} ({i.due_date:%d/%m/%Y})") for i in installments]
        if not self.is_bound:
            self.initial.setdefault("effective_date", timezone.localdate())


    def payee_value(self):
        """The payee for the service: a party id (int), a name, or None."""
        value = self.cleaned_data.get("payee") or ""
        if value.startswith("party:"):
            return int(value.removeprefix("party:"))
        return value.removeprefix("name:") or None


class DecisionForm(forms.Form):
    note = forms.CharField(label=_("Nota"), max_length=300, required=False)
