"""Water extraction franchises (the water regulation, secs. 8.13-8.22; docs/rules/franchises.md):
registry, applications, enforcement."""
from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core.models import TimeStampedModel
from districts.models import Office, Parcel, Party
from franchises import rules

number_validator = RegexValidator(r"^[A-Z0-9]+(-[A-Z0-9]+)+$",
                                  _("Use letras mayúsculas, dígitos y guiones, p. ej. DRNA-FE-2019-0042."))
MONEY = {"max_digits": 14, "decimal_places": 2}


class Source(models.TextChoices):
    SURFACE = "SURFACE", _("Agua superficial")
    GROUNDWATER = "GROUNDWATER", _("Agua subterránea")
    ARTESIAN = "ARTESIAN", _("Acuífero artesiano")
    BRACKISH = "BRACKISH", _("Agua salobre o de mar")


class Use(models.TextChoices):
    DOMESTIC = "DOMESTIC", _("Doméstico")
    INSTITUTIONAL = "INSTITUTIONAL", _("Institucional")
    GOVERNMENTAL = "GOVERNMENTAL", _("Gubernamental")
    RECREATIONAL = "RECREATIONAL", _("Recreativo")
    RECREATION_BUSINESS = "RECREATION_BUSINESS", _("Negocio de recreación")
    INDUSTRIAL_COMMERCIAL = "INDUSTRIAL_COMMERCIAL", _("Industrial o comercial")


class TariffClass(models.TextChoices):
    """FRA-1: derived from source and use, never typed in."""

    GROUND_INDUSTRIAL = "GROUND_INDUSTRIAL", _("Agua dulce subterránea industrial/comercial (8.13 a)")
    BRACKISH = "BRACKISH", _("Agua salobre o de mar (8.13 b)")
    DOMESTIC = "DOMESTIC", _("Doméstico (8.13 c.1)")
    INSTITUTIONAL = "INSTITUTIONAL", _("Institucional (8.13 c.2)")
    GOVERNMENTAL = "GOVERNMENTAL", _("Gubernamental (8.13 c.3)")
    RECREATIONAL = "RECREATIONAL", _("Recreativo (8.13 c.4)")
    SURFACE_INDUSTRIAL = "SURFACE_INDUSTRIAL", _("Superficial industrial/comercial (8.13 c.5)")
    ARTESIAN = "ARTESIAN", _("Acuífero artesiano (8.13 c.6)")


class Exemption(models.TextChoices):
    """FRA-2: the exemption codes of docs/rules/franchises.md (sec. 8.13 d and the opening of 8.13)."""

    AGRICULTURAL = "AGRICULTURAL", _("Uso agrícola")
    LIVESTOCK = "LIVESTOCK", _("Uso pecuario")
    AGROINDUSTRIAL = "AGROINDUSTRIAL", _("Uso agroindustrial")
    PREPA = "PREPA", _("Autoridad de Energía Eléctrica")
    AAA = "AAA", _("Autoridad de Acueductos y Alcantarillados")
    ACQUIRED_RIGHT = "ACQUIRED_RIGHT", _("Derecho adquirido bajo legislación anterior")
    RAINWATER = "RAINWATER", _("Agua de lluvia")
    RECYCLED = "RECYCLED", _("Agua reciclada")
    ARTICLE_12 = "ARTICLE_12", _("Exenta por el Artículo 12 de la Ley de Aguas")
    SECTION_2_12 = "SECTION_2_12", _("Exención caso a caso, sección 2.12 (resolución)")


class HolderType(models.TextChoices):
    """What FRA-5 asks of a party depends on what it is."""

    PERSON = "PERSON", _("Persona natural")
    COMPANY = "COMPANY", _("Compañía (persona jurídica)")
    OTHER_BODY = "OTHER_BODY", _("Sociedad, comunidad de bienes u otra organización")


class Franchise(TimeStampedModel):
    """A franchise to extract water: holder, place, source and use, derived tariff class, term."""

    class PaymentPlan(models.TextChoices):
        ANNUAL = "ANNUAL", _("Anual")
        SEMIANNUAL = "SEMIANNUAL", _("Semestral")

    class Status(models.TextChoices):
        ACTIVE = "ACTIVE", _("Vigente")
        SUSPENDED = "SUSPENDED", _("Suspendida")
        REVOKED = "REVOKED", _("Revocada")
        CANCELLED = "CANCELLED", _("Cancelada")
        EXTINGUISHED = "EXTINGUISHED", _("Extinguida (prescripción)")

    number = models.CharField(_("número de franquicia"), max_length=40, unique=True, validators=[number_validator])
    holder = models.ForeignKey(Party, on_delete=models.PROTECT, related_name="franchises_held",
                               verbose_name=_("tenedor"))
    holder_type = models.CharField(_("tipo de tenedor"), max_length=12, choices=HolderType.choices,
                                   default=HolderType.PERSON)
    property_parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, null=True, blank=True,
                                        related_name="franchises", verbose_name=_("propiedad (parcela)"))
    property_owner = models.ForeignKey(Party, on_delete=models.PROTECT, null=True, blank=True,
                                       related_name="franchise_properties", verbose_name=_("dueño de la propiedad"),
                                       help_text=_("Quien consiente transferencias y recibe copia de los avisos."))
    source = models.CharField(_("fuente"), max_length=12, choices=Source.choices)
    use = models.CharField(_("uso"), max_length=24, choices=Use.choices)
    tariff_class = models.CharField(_("clase tarifaria"), max_length=20, choices=TariffClass.choices, editable=False)
    authorized_gallons = models.PositiveBigIntegerField(_("galones autorizados por año"))
    original_issue_date = models.DateField(
        _("expedición original"), null=True, blank=True,
        help_text=_("Inicio del término de 10 años (franquicias anteriores renovadas). En blanco: la expedición."))
    issue_date = models.DateField(_("fecha de expedición"))
    expiry_date = models.DateField(_("fecha de vencimiento"))
    payment_plan = models.CharField(_("forma de pago"), max_length=10, choices=PaymentPlan.choices,
                                    default=PaymentPlan.ANNUAL)
    special_conditions = models.TextField(_("condiciones especiales"), blank=True)
    exemption = models.CharField(_("exención"), max_length=16, choices=Exemption.choices, blank=True)
    exemption_basis = models.TextField(_("fundamento de la exención"), blank=True)
    exemption_resolution = models.CharField(_("resolución (sec. 2.12)"), max_length=120, blank=True)
    acquired_right = models.BooleanField(_("derecho adquirido"), default=False,
                                         help_text=_("Caudal con derecho de propiedad adquirido bajo la legislación "
                                                     "anterior (sec. 6.14)."))
    status = models.CharField(_("estado"), max_length=12, choices=Status.choices, default=Status.ACTIVE)
    predecessor = models.ForeignKey("self", on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="successors", verbose_name=_("franquicia anterior"))
    office = models.ForeignKey(Office, on_delete=models.PROTECT, related_name="franchises",
                               verbose_name=_("oficina (DRNA)"))
    # FRA-7 and FRA-10 dates shown on the page; the clocks and flags themselves live in core's work queue.
    renewal_deadline = models.DateField(_("último día para solicitar renovación (FRA-7)"), null=True, blank=True,
                                        editable=False)
    last_use_on = models.DateField(_("último día con uso (FRA-10)"), null=True, blank=True, editable=False)
    prescription_on = models.DateField(_("prescripción si no hay uso (FRA-10)"), null=True, blank=True,
                                       editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["number"]
        verbose_name = _("franquicia")
        verbose_name_plural = _("franquicias")
        constraints = [
            models.CheckConstraint(condition=models.Q(expiry_date__gt=models.F("issue_date")),
                                   name="franchise_expiry_after_issue"),
        ]

    @property
    def term_start(self):
        return self.original_issue_date or self.issue_date

    @property
    def max_expiry(self):
        return rules.max_expiry(self.term_start) if self.term_start else None

    @property
    def owner_of_record(self) -> Party:
        return self.property_owner or self.holder

    @property
    def is_exempt(self) -> bool:
        return bool(self.exemption)

    @property
    def is_metered(self) -> bool:
        return self.tariff_class == TariffClass.GROUND_INDUSTRIAL

    def clean(self):
        errors = rules.validity_errors(original_issue_date=self.term_start, issue_date=self.issue_date,
                                       expiry_date=self.expiry_date)
        if self.exemption == Exemption.SECTION_2_12 and not self.exemption_resolution.strip():
            errors["exemption_resolution"] = _("Una exención de la sección 2.12 requiere su resolución.")
        if self.exemption and not self.exemption_basis.strip():
            errors["exemption_basis"] = _("Indique el fundamento de la exención.")
        if self.exemption == Exemption.ACQUIRED_RIGHT and not self.acquired_right:
            errors["acquired_right"] = _("La exención por derecho adquirido requiere marcar el derecho adquirido.")
        if self.predecessor_id and self.pk and self.predecessor_id == self.pk:
            errors["predecessor"] = _("Una franquicia no puede ser su propia anterior.")
        if errors:
            raise ValidationError(errors)

    def derive(self) -> None:
        """FRA-1: the class follows from source and use (the pure rule); the 10-year term starts at
        the original issue date, which is the issue date unless earlier franchises were renewed."""
        if self.source in rules.SOURCES and self.use in rules.USES:
            self.tariff_class = rules.tariff_class(self.source, self.use)
        if self.original_issue_date is None:
            self.original_issue_date = self.issue_date

    def clean_fields(self, exclude=None):
        self.derive()
        exclude = set(exclude or ())
        if not self.tariff_class:
            exclude.add("tariff_class")  # source or use is missing: their own errors say so
        super().clean_fields(exclude=exclude)

    def save(self, *args, **kwargs):
        # FRA-1: derived and stored on every save, never typed in.
        self.derive()
        if "update_fields" in kwargs and kwargs["update_fields"] is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "tariff_class"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("franchises:detail", args=[self.pk])

    def __str__(self) -> str:
        return self.number


class MeterReading(TimeStampedModel):
    """FRA-3, FRA-10: a month's extraction, read by the AAA (8.14 b) or entered by staff."""

    class Origin(models.TextChoices):
        AAA_FILE = "AAA_FILE", _("Archivo de la AAA")
        ENTERED = "ENTERED", _("Entrada manual")

    franchise = models.ForeignKey(Franchise, on_delete=models.PROTECT, related_name="meter_readings",
                                  verbose_name=_("franquicia"))
    month = models.DateField(_("mes"), help_text=_("Primer día del mes leído."))
    gallons = models.PositiveBigIntegerField(_("galones extraídos"))
    origin = models.CharField(_("origen"), max_length=10, choices=Origin.choices, default=Origin.ENTERED)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+", verbose_name=_("registrado por"))
    history = HistoricalRecords()

    class Meta:
        ordering = ["franchise", "month"]
        verbose_name = _("lectura de contador")
        verbose_name_plural = _("lecturas de contador")
        constraints = [
            models.UniqueConstraint(fields=["franchise", "month"], name="uniq_meter_reading_month"),
        ]

    def clean(self):
        if self.month and self.month.day != 1:
            raise ValidationError({"month": _("Indique el primer día del mes.")})

    def get_absolute_url(self) -> str:
        return reverse("franchises:detail", args=[self.franchise_id])

    def __str__(self) -> str:
        return f"{self.franchise} {self.month:%Y-%m}: {self.gallons}"


class UsageReport(TimeStampedModel):
    """FRA-10: the holder's report of use for a period (franchises without a meter), or of a
    justified non-use (which interrupts prescription)."""

    franchise = models.ForeignKey(Franchise, on_delete=models.PROTECT, related_name="usage_reports",
                                  verbose_name=_("franquicia"))
    period_start = models.DateField(_("desde"))
    period_end = models.DateField(_("hasta"))
    gallons_used = models.PositiveBigIntegerField(_("galones usados"))
    received_on = models.DateField(_("recibido"))
    nonuse_justified = models.BooleanField(_("desuso justificado"), default=False)
    justification = models.TextField(_("justificación"), blank=True)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+", verbose_name=_("registrado por"))
    history = HistoricalRecords()

    class Meta:
        ordering = ["franchise", "period_start"]
        verbose_name = _("informe de uso")
        verbose_name_plural = _("informes de uso")
        constraints = [
            models.CheckConstraint(condition=models.Q(period_end__gte=models.F("period_start")),
                                   name="usage_report_period_order"),
        ]

    def clean(self):
        errors = {}
        if self.period_start and self.period_end and self.period_end < self.period_start:
            errors["period_end"] = _("El período termina antes de empezar.")
        if self.nonuse_justified and not self.justification.strip():
            errors["justification"] = _("Explique la causa que justifica el desuso.")
        if errors:
            raise ValidationError(errors)

    def get_absolute_url(self) -> str:
        return reverse("franchises:detail", args=[self.franchise_id])

    def __str__(self) -> str:
        return f"{self.franchise} {self.period_start}–{self.period_end}: {self.gallons_used}"


class Application(TimeStampedModel):
    """A transfer (FRA-5), amendment (FRA-6), renewal (FRA-7) or cancellation (FRA-9)."""

    class Kind(models.TextChoices):
        TRANSFER = "TRANSFER", _("Transferencia")
        AMENDMENT = "AMENDMENT", _("Enmienda")
        RENEWAL = "RENEWAL", _("Renovación")
        CANCELLATION = "CANCELLATION", _("Cancelación")

    class Status(models.TextChoices):
        RECEIVED = "RECEIVED", _("Recibida")
        UNDER_REVIEW = "UNDER_REVIEW", _("En evaluación")
        HEARING = "HEARING", _("En vista administrativa")
        GRANTED = "GRANTED", _("Concedida")
        DENIED = "DENIED", _("Denegada")
        SENT_TO_AMENDMENT = "SENT_TO_AMENDMENT", _("Referida a enmienda")
        PROCESSED_AS_NEW = "PROCESSED_AS_NEW", _("Tramitada como franquicia nueva")

    class NotificationMethod(models.TextChoices):
        CERTIFIED_MAIL = "CERTIFIED_MAIL", _("Correo certificado con acuse de recibo")
        PERSONAL = "PERSONAL", _("Entrega personal")
        OTHER = "OTHER", _("Otro")

    OPEN_STATUSES = (Status.RECEIVED, Status.UNDER_REVIEW, Status.HEARING)

    franchise = models.ForeignKey(Franchise, on_delete=models.PROTECT, related_name="applications",
                                  verbose_name=_("franquicia"))
    kind = models.CharField(_("tipo"), max_length=12, choices=Kind.choices)
    received_on = models.DateField(_("recibida el"))
    status = models.CharField(_("estado"), max_length=18, choices=Status.choices, default=Status.RECEIVED)
    applicant = models.ForeignKey(Party, on_delete=models.PROTECT, related_name="franchise_applications",
                                  verbose_name=_("solicitante"))
    recipient = models.ForeignKey(Party, on_delete=models.PROTECT, null=True, blank=True,
                                  related_name="franchise_transfers_received", verbose_name=_("quien recibe"))
    recipient_type = models.CharField(_("tipo de quien recibe"), max_length=12, choices=HolderType.choices,
                                      blank=True)
    reasons = models.TextField(_("razones"), blank=True)
    requested_gallons = models.PositiveBigIntegerField(_("galones por año solicitados"), null=True, blank=True)
    requested_expiry_date = models.DateField(_("vencimiento solicitado"), null=True, blank=True)
    requested_conditions = models.TextField(_("condiciones especiales solicitadas"), blank=True)
    permanent_closure = models.BooleanField(_("cierre permanente"), default=False)
    fee = models.DecimalField(_("derechos de presentación"), default=Decimal("0.00"), **MONEY)
    fee_paid = models.BooleanField(_("derechos pagados"), default=False)
    documents = models.JSONField(_("documentos presentados"), default=dict, blank=True)
    controversy = models.BooleanField(_("hay controversia u oposición"), default=False)
    changes_conditions = models.BooleanField(_("implica cambio de condiciones"), default=False)
    expiry_at_filing = models.DateField(_("vencimiento de la franquicia al presentarse"), editable=False)
    filing_deadline = models.DateField(_("último día para presentar (FRA-7)"), null=True, blank=True,
                                       editable=False)
    filed_late = models.BooleanField(_("presentada con menos de 90 días (FRA-7)"), default=False, editable=False)
    decision_due = models.DateField(_("fecha límite para decidir (FRA-5)"), null=True, blank=True, editable=False)
    outstanding_debt = models.DecimalField(_("deuda por uso de agua verificada"), null=True, blank=True, **MONEY)
    debt_source = models.CharField(_("fuente de la deuda"), max_length=60, blank=True)
    determination_date = models.DateField(_("fecha de la determinación"), null=True, blank=True)
    determination = models.TextField(_("determinación"), blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+", verbose_name=_("decidida por"))
    applied_changes = models.JSONField(_("cambios aplicados"), default=dict, blank=True, editable=False)
    resulting_franchise = models.ForeignKey(Franchise, on_delete=models.PROTECT, null=True, blank=True,
                                            related_name="originating_applications",
                                            verbose_name=_("franquicia nueva resultante"))
    notified_on = models.DateField(_("notificada el"), null=True, blank=True)
    notification_method = models.CharField(_("medio de notificación"), max_length=16,
                                           choices=NotificationMethod.choices, blank=True)
    tracking_number = models.CharField(_("número de rastreo"), max_length=60, blank=True)
    # FRA-5 (sec. 8.16): a transfer's determination is notified "al solicitante y a la persona que se le
    # transfiere la franquicia": the fields above are the applicant's, these the transferee's.
    recipient_notified_on = models.DateField(_("notificada a quien recibe el"), null=True, blank=True)
    recipient_notification_method = models.CharField(_("medio de notificación a quien recibe"), max_length=16,
                                                     choices=NotificationMethod.choices, blank=True)
    recipient_tracking_number = models.CharField(_("número de rastreo (quien recibe)"), max_length=60, blank=True)
    hearing_request_due = models.DateField(_("último día para pedir vista (FRA-11)"), null=True, blank=True,
                                           editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-received_on", "-id"]
        verbose_name = _("solicitud")
        verbose_name_plural = _("solicitudes")

    @property
    def required_documents(self) -> tuple[str, ...]:
        return rules.required_documents(self.kind, recipient_type=self.recipient_type or None,
                                        acquired_right=self.franchise.acquired_right,
                                        permanent_closure=self.permanent_closure)

    @property
    def checklist(self) -> list[dict]:
        return [{"code": code, "label": rules.DOCUMENTS[code], "provided": bool(self.documents.get(code))}
                for code in self.required_documents]

    @property
    def missing_documents(self) -> tuple[str, ...]:
        return rules.missing_documents(self.required_documents, self.documents)

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN_STATUSES

    @property
    def notification_pending(self) -> list[str]:
        """Who has not been notified of the determination yet (FRA-5: a transfer's goes to both)."""
        if not self.determination_date:
            return []
        pending = [] if self.notified_on else ["APPLICANT"]
        if self.kind == self.Kind.TRANSFER and self.recipient_id and not self.recipient_notified_on:
            pending.append("TRANSFEREE")
        return pending

    def get_absolute_url(self) -> str:
        return reverse("franchises:application_detail", args=[self.pk])

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.franchise} ({self.received_on:%Y-%m-%d})"


class Proceeding(TimeStampedModel):
    """FRA-8 (sec. 8.19) and FRA-10 (8.21): modification, suspension, revocation or extinction."""

    class Cause(models.TextChoices):
        ARREARS = "ARREARS", _("Mora de seis meses o más")
        NON_USE = "NON_USE", _("Desuso por doce meses (prescripción)")
        BREACH = "BREACH", _("Incumplimiento de condiciones")
        OTHER = "OTHER", _("Otra causa (Art. 13 de la Ley de Aguas)")

    class Outcome(models.TextChoices):
        NONE = "NONE", _("Sin acción")
        MODIFIED = "MODIFIED", _("Modificada")
        SUSPENDED = "SUSPENDED", _("Suspendida")
        REVOKED = "REVOKED", _("Revocada")
        EXTINGUISHED = "EXTINGUISHED", _("Extinguida por prescripción")

    franchise = models.ForeignKey(Franchise, on_delete=models.PROTECT, related_name="proceedings",
                                  verbose_name=_("franquicia"))
    cause = models.CharField(_("causa"), max_length=10, choices=Cause.choices)
    detail = models.TextField(_("detalle"), blank=True)
    opened_on = models.DateField(_("iniciado el"))
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                  related_name="+", verbose_name=_("iniciado por"))
    cease_and_desist = models.BooleanField(_("orden de cese y desista"), default=False)
    cease_and_desist_on = models.DateField(_("fecha de la orden de cese y desista"), null=True, blank=True)
    holder_notice_sent_on = models.DateField(_("aviso al tenedor enviado"), null=True, blank=True)
    holder_notice_tracking = models.CharField(_("rastreo del aviso al tenedor"), max_length=60, blank=True)
    holder_notice_delivered_on = models.DateField(_("acuse de recibo del tenedor"), null=True, blank=True)
    owner_notice_sent_on = models.DateField(_("aviso al dueño enviado"), null=True, blank=True)
    owner_notice_tracking = models.CharField(_("rastreo del aviso al dueño"), max_length=60, blank=True)
    owner_notice_delivered_on = models.DateField(_("acuse de recibo del dueño"), null=True, blank=True)
    outcome = models.CharField(_("resultado"), max_length=12, choices=Outcome.choices, blank=True)
    outcome_on = models.DateField(_("fecha del resultado"), null=True, blank=True)
    outcome_text = models.TextField(_("resolución"), blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+", verbose_name=_("resuelto por"))
    history = HistoricalRecords()

    class Meta:
        ordering = ["-opened_on", "-id"]
        verbose_name = _("procedimiento")
        verbose_name_plural = _("procedimientos")

    @property
    def is_open(self) -> bool:
        return not self.outcome

    @property
    def notices_sent(self) -> bool:
        return bool(self.holder_notice_sent_on and self.owner_notice_sent_on)

    def get_absolute_url(self) -> str:
        return reverse("franchises:proceeding_detail", args=[self.pk])

    def __str__(self) -> str:
        return f"{self.get_cause_display()} — {self.franchise} ({self.opened_on:%Y-%m-%d})"


class Hearing(TimeStampedModel):
    """An administrative hearing on an application or a proceeding (FRA-5, FRA-8, FRA-11)."""

    class Origin(models.TextChoices):
        CONTROVERSY = "CONTROVERSY", _("Controversia u oposición (sec. 8.16)")
        ENFORCEMENT = "ENFORCEMENT", _("Previa a modificar, suspender o revocar (sec. 8.19)")
        PARTY_REQUEST = "PARTY_REQUEST", _("Solicitada por parte afectada (sec. 8.22)")

    application = models.ForeignKey(Application, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="hearings", verbose_name=_("solicitud"))
    proceeding = models.ForeignKey(Proceeding, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="hearings", verbose_name=_("procedimiento"))
    origin = models.CharField(_("origen"), max_length=14, choices=Origin.choices, default=Origin.PARTY_REQUEST)
    requested_on = models.DateField(_("solicitada el"))
    requested_by = models.ForeignKey(Party, on_delete=models.PROTECT, null=True, blank=True,
                                     related_name="franchise_hearings", verbose_name=_("solicitada por"))
    notified_on = models.DateField(_("notificación de la determinación"), null=True, blank=True)
    due_on = models.DateField(_("último día para solicitar (FRA-11)"), null=True, blank=True)
    accepted = models.BooleanField(_("aceptada"), default=False)
    refused_reason = models.CharField(_("razón del rechazo"), max_length=300, blank=True)
    scheduled_for = models.DateTimeField(_("señalada para"), null=True, blank=True)
    held_on = models.DateField(_("celebrada el"), null=True, blank=True)
    summary = models.TextField(_("resumen"), blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-requested_on", "-id"]
        verbose_name = _("vista administrativa")
        verbose_name_plural = _("vistas administrativas")
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(application__isnull=False, proceeding__isnull=True)
                           | models.Q(application__isnull=True, proceeding__isnull=False)),
                name="hearing_on_application_or_proceeding"),
        ]

    @property
    def subject(self):
        return self.application or self.proceeding

    @property
    def franchise(self) -> Franchise:
        return self.subject.franchise

    def get_absolute_url(self) -> str:
        return self.subject.get_absolute_url()

    def __str__(self) -> str:
        return f"{_('Vista')} {self.subject} ({self.requested_on:%Y-%m-%d})"
