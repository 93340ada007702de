"""The owners' portal forms (shape only; the rules are in services)."""
from django import forms
from django.utils.translation import gettext_lazy as _


class ActivationForm(forms.Form):
    code = forms.CharField(label=_("Código de activación"), max_length=30, help_text=_(
        "Impreso en su aviso de cobro, en la sección «Portal de dueños»."),
        widget=forms.TextInput(attrs={"placeholder": "XXXX-XXXX-XXXX", "autocomplete": "off",
                                      "autocapitalize": "characters", "spellcheck": "false"}))
    cadastre = forms.CharField(label=_("Número de catastro"), max_length=30, help_text=_(
        "De la propiedad del aviso (000-000-000-00). Si el aviso es de una franquicia, escriba el número del aviso."))
    username = forms.CharField(label=_("Nombre de usuario"), max_length=150,
                               widget=forms.TextInput(attrs={"autocomplete": "username"}))
    password1 = forms.CharField(label=_("Contraseña"), strip=False,
                                widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    password2 = forms.CharField(label=_("Repita la contraseña"), strip=False,
                                widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    def clean(self):
        data = super().clean()
        if data.get("password1") and data.get("password2") and data["password1"] != data["password2"]:
            self.add_error("password2", _("Las contraseñas no coinciden."))
        return data


class InviteForm(forms.Form):
    """Staff: the username of the owner's new portal account (the e-mail comes from the party)."""

    username = forms.CharField(label=_("Nombre de usuario"), max_length=150, help_text=_(
        "El dueño lo usará para entrar; la contraseña la escoge él con el enlace que recibe por correo."))
