"""Staff forms of the franchise registry. They validate input; services decide."""
from __future__ import annotations

from datetime import date

from django import forms
from django.utils.translation import gettext_lazy as _

from core.forms import AmountField, DateInput, DateTimeInput, PRModelForm
from districts.models import Office, Party
from franchises import rules
from franchises.models import Application, Franchise, HolderType, Proceeding, TariffClass, UsageReport

DATE = DateInput()
TEXT = forms.Textarea(attrs={"rows": 3})


def _parties():
    return Party.objects.order_by("organization_name", "first_surname", "given_names")


class FranchiseSearchForm(forms.Form):
    q = forms.CharField(label=_("Número o tenedor"), required=False)
    tariff_class = forms.ChoiceField(label=_("Clase tarifaria"), required=False,
                                     choices=[("", _("Todas las clases"))] + list(TariffClass.choices))
    status = forms.ChoiceField(label=_("Estado"), required=False,
                               choices=[("", _("Todos los estados"))] + list(Franchise.Status.choices))


class FranchiseForm(PRModelForm):
    class Meta:
        model = Franchise
        fields = ["number", "holder", "holder_type", "property_parcel", "property_owner", "source", "use",
                  "authorized_gallons", "issue_date", "original_issue_date", "expiry_date", "payment_plan",
                  "special_conditions", "exemption", "exemption_basis", "exemption_resolution", "acquired_right",
                  "predecessor", "office"]
        widgets = {"issue_date": DATE, "original_issue_date": DATE, "expiry_date": DATE,
                   "special_conditions": TEXT, "exemption_basis": TEXT}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["holder"].queryset = _parties()
        self.fields["property_owner"].queryset = _parties()
        self.fields["office"].queryset = Office.objects.order_by("-kind", "name")
        if not self.instance.pk:
            drna = Office.objects.filter(kind=Office.Kind.DRNA).order_by("name").first()
            if drna:
                self.fields["office"].initial = drna.pk
        derived = self.instance.get_tariff_class_display() if self.instance.pk else _("Se deriva de la fuente y el uso")
        self.fields["tariff_class_note"] = forms.CharField(
            required=False, disabled=True, label=_("Clase tarifaria"), initial=derived,
            help_text=_("FRA-1: se calcula al guardar; no se escribe a mano."))


class MeterReadingForm(forms.Form):
    month = forms.CharField(label=_("Mes"), widget=forms.TextInput(attrs={"type": "month"}),
                            help_text=_("Mes leído (AAAA-MM)."))
    gallons = forms.IntegerField(label=_("Galones extraídos"), min_value=0)
    origin = forms.ChoiceField(label=_("Origen"), choices=[("ENTERED", _("Entrada manual")),
                                                          ("AAA_FILE", _("Archivo de la AAA"))])

    def clean_month(self) -> date:
        raw = self.cleaned_data["month"].strip()
        try:
            if len(raw) == 7:
                return date.fromisoformat(f"{raw}-01")
            return date.fromisoformat(raw).replace(day=1)
        except ValueError:
            raise forms.ValidationError(_("Indique el mes como AAAA-MM.")) from None


class UsageReportForm(PRModelForm):
    class Meta:
        model = UsageReport
        fields = ["period_start", "period_end", "gallons_used", "received_on", "nonuse_justified", "justification"]
        widgets = {"period_start": DATE, "period_end": DATE, "received_on": DATE, "justification": TEXT}


def _documents_field(codes, initial=None) -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        label=_("Documentos presentados"), required=False, widget=forms.CheckboxSelectMultiple,
        choices=[(c, rules.DOCUMENTS[c]) for c in codes], initial=initial or [])


def filing_document_codes(kind: str, franchise: Franchise) -> list[str]:
    """Every document a filing of `kind` may bring (the service keeps the ones that apply)."""
    if kind == Application.Kind.TRANSFER:
        codes = []
        for recipient_type in rules.PARTY_TYPES:
            for code in rules.required_documents(kind, recipient_type=recipient_type,
                                                 acquired_right=franchise.acquired_right):
                if code not in codes:
                    codes.append(code)
        return codes
    return list(rules.required_documents(kind, permanent_closure=True))


class ApplicationFileForm(forms.Form):
    """Filing of one kind of application; the fields shown depend on the kind."""

    received_on = forms.DateField(label=_("Recibida el"), widget=DATE)
    applicant = forms.ModelChoiceField(label=_("Solicitante"), queryset=Party.objects.none(), required=False,
                                       help_text=_("En blanco: el tenedor."))
    recipient = forms.ModelChoiceField(label=_("Quien recibe la franquicia"), queryset=Party.objects.none(),
                                       required=False)
    recipient_type = forms.ChoiceField(label=_("Tipo de quien recibe"), required=False,
                                       choices=[("", _("Según la persona o entidad"))] + list(HolderType.choices))
    reasons = forms.CharField(label=_("Razones y evidencia"), widget=TEXT, required=False)
    requested_gallons = forms.IntegerField(label=_("Galones por año solicitados"), min_value=0, required=False)
    requested_expiry_date = forms.DateField(label=_("Vencimiento solicitado"), widget=DATE, required=False)
    requested_conditions = forms.CharField(label=_("Condiciones especiales solicitadas"), widget=TEXT,
                                           required=False)
    permanent_closure = forms.BooleanField(label=_("Cierre permanente del sistema de extracción"), required=False)
    fee_paid = forms.BooleanField(label=_("Derechos de $50 pagados"), required=False)
    controversy = forms.BooleanField(label=_("Hay controversia u oposición"), required=False)
    changes_conditions = forms.BooleanField(label=_("Implica cambio en las condiciones de la franquicia"),
                                            required=False)

    FIELDS_BY_KIND = {
        "TRANSFER": ["received_on", "applicant", "recipient", "recipient_type", "reasons", "fee_paid", "controversy",
                     "changes_conditions", "documents"],
        "AMENDMENT": ["received_on", "applicant", "reasons", "requested_gallons", "requested_expiry_date",
                      "requested_conditions", "fee_paid", "controversy", "documents"],
        "RENEWAL": ["received_on", "applicant", "reasons", "requested_expiry_date", "requested_conditions",
                    "documents"],
        "CANCELLATION": ["received_on", "applicant", "reasons", "permanent_closure", "documents"],
    }

    def __init__(self, *args, kind: str, franchise: Franchise, **kwargs):
        super().__init__(*args, **kwargs)
        self.kind, self.franchise = kind, franchise
        self.fields["documents"] = _documents_field(filing_document_codes(kind, franchise))
        for name in ("applicant", "recipient"):
            self.fields[name].queryset = _parties()
        if kind == Application.Kind.TRANSFER:
            self.fields["recipient"].required = True
        if kind == Application.Kind.RENEWAL:
            self.fields["requested_expiry_date"].required = True
        keep = self.FIELDS_BY_KIND[kind]
        for name in list(self.fields):
            if name not in keep:
                del self.fields[name]
        self.order_fields(keep)


class ApplicationReviewForm(forms.Form):
    fee_paid = forms.BooleanField(label=_("Derechos pagados"), required=False)
    controversy = forms.BooleanField(label=_("Hay controversia u oposición"), required=False)
    changes_conditions = forms.BooleanField(label=_("Implica cambio en las condiciones de la franquicia"),
                                            required=False)

    def __init__(self, *args, application: Application, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["documents"] = _documents_field(
            application.required_documents, [c for c, ok in application.documents.items() if ok])
        self.initial.update(fee_paid=application.fee_paid, controversy=application.controversy,
                            changes_conditions=application.changes_conditions)
        if application.fee == 0:
            del self.fields["fee_paid"]
        if application.kind != Application.Kind.TRANSFER:
            del self.fields["changes_conditions"]
            if application.kind != Application.Kind.AMENDMENT:
                del self.fields["controversy"]


class ApplicationDecideForm(forms.Form):
    decided_on = forms.DateField(label=_("Fecha de la determinación"), widget=DATE)
    grant = forms.TypedChoiceField(label=_("Determinación"), widget=forms.RadioSelect, coerce=lambda v: v == "GRANT",
                                   choices=[("GRANT", _("Conceder")), ("DENY", _("Denegar"))])
    determination = forms.CharField(label=_("Fundamentos"), widget=TEXT, required=False)
    outstanding_debt = AmountField(
        label=_("Deuda por uso de agua verificada ($)"), max_digits=14, decimal_places=2, min_value=0, required=False,
        help_text=_("FRA-7: verifique la cuenta de la franquicia; escriba 0.00 si no hay deuda."))
    new_number = forms.CharField(label=_("Número de la franquicia nueva"), required=False, max_length=40,
                                 help_text=_("Si la renovación excede 10 años se tramita como nueva. En blanco: "
                                             "número siguiente."))
    notified_on = forms.DateField(label=_("Notificada el"), widget=DATE, required=False)
    notification_method = forms.ChoiceField(label=_("Medio"), required=False,
                                            choices=[("", "—")] + list(Application.NotificationMethod.choices))
    tracking_number = forms.CharField(label=_("Número de rastreo"), required=False, max_length=60)

    def __init__(self, *args, application: Application, debt_from_billing=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.debt_from_billing = debt_from_billing
        if application.kind != Application.Kind.RENEWAL:
            del self.fields["outstanding_debt"]
            del self.fields["new_number"]
        elif debt_from_billing is not None:
            field = self.fields["outstanding_debt"]
            field.initial, field.disabled = debt_from_billing, True
            field.help_text = _("FRA-7: deuda según la facturación.")


class NotifyForm(forms.Form):
    to = forms.ChoiceField(label=_("Notificada a"), initial="APPLICANT",
                           choices=[("APPLICANT", _("El solicitante")),
                                    ("TRANSFEREE", _("Quien recibe la transferencia (sec. 8.16)"))])
    notified_on = forms.DateField(label=_("Notificada el"), widget=DATE)
    method = forms.ChoiceField(label=_("Medio"), choices=Application.NotificationMethod.choices)
    tracking_number = forms.CharField(label=_("Número de rastreo"), required=False, max_length=60)

    def __init__(self, *args, application: Application | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        # FRA-5: only a transfer's determination goes to a second person, the transferee.
        if application is None or application.kind != Application.Kind.TRANSFER:
            del self.fields["to"]


class HearingRequestForm(forms.Form):
    requested_on = forms.DateField(label=_("Solicitada por escrito el"), widget=DATE)
    notified_on = forms.DateField(label=_("Notificación de la determinación"), widget=DATE,
                                  help_text=_("FRA-11: 30 días desde esta fecha, movidos al próximo día laborable."))
    requested_by = forms.ModelChoiceField(label=_("Parte que la solicita"), queryset=Party.objects.none(),
                                          required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["requested_by"].queryset = _parties()


class HearingUpdateForm(forms.Form):
    scheduled_for = forms.DateTimeField(label=_("Señalada para"), required=False,
                                        widget=DateTimeInput())
    held_on = forms.DateField(label=_("Celebrada el"), widget=DATE, required=False)
    summary = forms.CharField(label=_("Resumen"), widget=TEXT, required=False)


class ProceedingForm(PRModelForm):
    class Meta:
        model = Proceeding
        fields = ["cause", "opened_on", "detail", "cease_and_desist"]
        widgets = {"opened_on": DATE, "detail": TEXT}


class ProceedingNoticeForm(forms.Form):
    recipient = forms.ChoiceField(label=_("Destinatario"), choices=[("HOLDER", _("Tenedor de la franquicia")),
                                                                    ("OWNER", _("Dueño de la propiedad"))])
    sent_on = forms.DateField(label=_("Enviada por correo certificado el"), widget=DATE)
    tracking_number = forms.CharField(label=_("Número de rastreo"), max_length=60)
    delivered_on = forms.DateField(label=_("Acuse de recibo"), widget=DATE, required=False)


class ProceedingDecideForm(forms.Form):
    outcome = forms.ChoiceField(label=_("Resultado"), choices=Proceeding.Outcome.choices)
    decided_on = forms.DateField(label=_("Fecha"), widget=DATE)
    text = forms.CharField(label=_("Resolución"), widget=TEXT)
    hearing_waived = forms.BooleanField(label=_("El tenedor renunció a la vista"), required=False)
