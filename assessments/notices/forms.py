"""Staff forms of the notice pages (shape only; the rules are in services)."""
from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from assessments.notices.models import Notice
from core.forms import DateInput


class MailingForm(forms.Form):
    tracking_number = forms.CharField(label=_("Número de rastreo"), max_length=40, required=False)
    mailed_on = forms.DateField(label=_("Enviado el"), required=False, widget=DateInput())
    delivered_on = forms.DateField(label=_("Entregado el (acuse de recibo)"), required=False, widget=DateInput())
    returned_on = forms.DateField(label=_("Devuelto por el correo el"), required=False, widget=DateInput())


class CorrectionForm(forms.Form):
    reason = forms.CharField(label=_("Motivo de la corrección"), widget=forms.Textarea(attrs={"rows": 2}),
                             max_length=500)
    language = forms.ChoiceField(label=_("Idioma del aviso"), choices=settings.LANGUAGES, initial="es")


class TrackingImportForm(forms.Form):
    file = forms.FileField(label=_("Lista de envío con rastreo (CSV)"), help_text=_(
        "La lista de envío del lote con las columnas tracking_number, mailed_on, delivered_on (y returned_on) "
        "llenas. Fechas AAAA-MM-DD o DD/MM/AAAA. Si una fila tiene un error no se registra nada."))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > 5 * 1024 * 1024:
            raise forms.ValidationError(_("El archivo es demasiado grande (máximo 5 MB)."))
        raw = upload.read()
        for encoding in ("utf-8-sig", "cp1252"):
            try:
                return raw.decode(encoding)
            except UnicodeDecodeError:
                continue
        raise forms.ValidationError(_("No se pudo leer el archivo como texto CSV."))


class SourceForm(forms.Form):
    source_type = forms.CharField(max_length=60)


class NoticeFilterForm(forms.Form):
    q = forms.CharField(required=False)
    status = forms.ChoiceField(required=False, choices=[("", _("Todos"))] + list(Notice.Status.choices))
