"""Small forms for core's pages (verification code, flag assignment)."""
from django import forms
from django.utils.translation import gettext_lazy as _

from core.selectors import assignable_users


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
