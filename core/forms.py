"""Form building blocks every app uses (amounts and dates the Puerto Rico way) and core's small forms."""
from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from core.money import AmbiguousNumber, parse_amount
from core.selectors import assignable_users

DATE_PLACEHOLDER = _("dd/mm/aaaa")
DATETIME_PLACEHOLDER = _("dd/mm/aaaa hh:mm")


def parse_date_input(text: str | None):
    """A date typed in a plain box outside a Django form: dd/mm/aaaa, or ISO yyyy-mm-dd (links, scripts).

    Raises ValueError for anything else; callers decide the default.
    """
    from datetime import datetime

    value = (text or "").strip()
    for fmt in ("%d/%m/%Y", "%Y-%m-%d"):
        try:
            return datetime.strptime(value, fmt).date()
        except ValueError:
            continue
    raise ValueError(f"not a date: {text!r}")


class DateInput(forms.DateInput):
    """A text box typed and shown dd/mm/aaaa in both languages.

    Not `type="date"`: the browser would show its own locale's mm/dd/yyyy. The field also accepts
    ISO yyyy-mm-dd (config/formats DATE_INPUT_FORMATS) for scripts and links.
    """

    input_type = "text"

    def __init__(self, attrs=None, format=None):  # noqa: A002 - Django's argument name
        base = {"placeholder": DATE_PLACEHOLDER, "inputmode": "numeric", "autocomplete": "off",
                "size": "10", "maxlength": "10", "class": "input-date"}
        super().__init__(attrs={**base, **(attrs or {})}, format=format or "%d/%m/%Y")


def date_refusal(text: str | None):
    """Why a date typed in a plain box is refused (to show next to it), or None when it reads."""
    if not (text or "").strip():
        return None
    try:
        parse_date_input(text)
    except ValueError:
        return _("«%(value)s» no es una fecha: escriba dd/mm/aaaa, por ejemplo 06/12/2026.") % {"value": text.strip()}
    return None


class DateTimeInput(forms.DateTimeInput):
    """A text box for a date and hour, dd/mm/aaaa hh:mm (not the browser's own datetime picker)."""

    input_type = "text"

    def __init__(self, attrs=None, format=None):  # noqa: A002 - Django's argument name
        base = {"placeholder": DATETIME_PLACEHOLDER, "autocomplete": "off", "size": "16", "maxlength": "16"}
        super().__init__(attrs={**base, **(attrs or {})}, format=format or "%d/%m/%Y %H:%M")


class AmountInput(forms.TextInput):
    """Amounts in a text box: a number box would refuse "1,234.56" and show the browser's locale."""

    def __init__(self, attrs=None):
        super().__init__(attrs={"inputmode": "decimal", "autocomplete": "off", **(attrs or {})})

    def format_value(self, value):
        if isinstance(value, Decimal):
            return f"{value:f}"
        return super().format_value(value)


class AmountField(forms.DecimalField):
    """Every amount or figure typed in a form: "1,234.56" and "1234.56" mean the same.

    A comma that does not group thousands ("500,00") is refused with the reason, next to the field,
    instead of being guessed; so is anything that is not a number ("abc").
    """

    widget = AmountInput
    default_error_messages = {
        "invalid": _("«%(value)s» no es un número. Escriba, por ejemplo, 1,234.56 o 1234.56."),
        "ambiguous": _("«%(value)s» es ambiguo: use punto para los centavos y coma solo para los miles "
                       "(por ejemplo, 1,234.56 o 500.00)."),
    }

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, Decimal):
            return value
        try:
            return parse_amount(value)
        except AmbiguousNumber:
            raise forms.ValidationError(self.error_messages["ambiguous"], code="ambiguous",
                                        params={"value": str(value).strip()}) from None
        except (ValueError, TypeError):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid",
                                        params={"value": str(value).strip()}) from None

    def widget_attrs(self, widget):
        # DecimalField would add step/min/max for a number box; a text box takes none of them.
        return forms.Field.widget_attrs(self, widget)


def pr_formfield(db_field, **kwargs):
    """Model fields as the Puerto Rico forms want them: decimals through AmountField, dates dd/mm/aaaa."""
    from django.db import models

    if isinstance(db_field, models.DecimalField):
        kwargs.setdefault("form_class", AmountField)
    elif isinstance(db_field, models.DateField) and not isinstance(db_field, models.DateTimeField):
        kwargs.setdefault("widget", DateInput)
    return db_field.formfield(**kwargs)


class PRModelForm(forms.ModelForm):
    """Base of the app's model forms: amounts and dates typed the Puerto Rico way (pr_formfield).

    Django reads `formfield_callback` from each form's own Meta, which a subclass does not inherit,
    so it is set on every subclass's Meta here.
    """

    def __init_subclass__(cls, **kwargs):
        meta = getattr(cls, "Meta", None)
        if meta is not None and not hasattr(meta, "formfield_callback"):
            meta.formfield_callback = staticmethod(pr_formfield)
        super().__init_subclass__(**kwargs)


class VerifyForm(forms.Form):
    code = forms.CharField(label=_("Código de verificación"), max_length=30,
                           widget=forms.TextInput(attrs={"placeholder": "XXXX-XXXX-XXXX", "autocomplete": "off",
                                                         "autocapitalize": "characters", "spellcheck": "false"}))


class FlagAssignForm(forms.Form):
    user = forms.ModelChoiceField(label=_("Asignar a"), queryset=None, required=False,
                                  empty_label=_("— Sin asignar —"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["user"].queryset = assignable_users()
        self.fields["user"].label_from_instance = lambda u: u.get_full_name() or u.username
