"""Cross-cutting records: the audit trail, staff-entered holidays, parameter versions, issued documents
and the work queue (statutory clocks and flags)."""
from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


class TimeStampedModel(models.Model):
    created_at = models.DateTimeField(_("creado"), auto_now_add=True)
    updated_at = models.DateTimeField(_("actualizado"), auto_now=True)

    class Meta:
        abstract = True


class AuditEntry(models.Model):
    """One state change made by a service, with the acting user, in the same transaction."""

    at = models.DateTimeField(_("fecha y hora"), auto_now_add=True, db_index=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                              related_name="+", verbose_name=_("usuario"))
    action = models.CharField(_("acción"), max_length=80, db_index=True)
    target_type = models.ForeignKey(ContentType, null=True, blank=True, on_delete=models.PROTECT)
    target_id = models.CharField(max_length=64, blank=True)
    summary = models.CharField(_("resumen"), max_length=300, blank=True)
    data = models.JSONField(_("datos"), default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("entrada de auditoría")
        verbose_name_plural = _("auditoría")
        indexes = [models.Index(fields=["target_type", "target_id"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.summary}"


class Holiday(models.Model):
    """A date staff add to (or remove from) the Puerto Rico holiday list the library gives.

    Governors move and proclaim holidays; the library cannot know, so staff record them here.
    """

    date = models.DateField(_("fecha"), unique=True)
    name = models.CharField(_("nombre"), max_length=120)
    is_working_day = models.BooleanField(
        _("es día laborable"), default=False,
        help_text=_("Marque si un feriado de la lista oficial se trabaja este año (p. ej., trasladado)."))
    history = HistoricalRecords()

    class Meta:
        ordering = ["date"]
        verbose_name = _("feriado")
        verbose_name_plural = _("feriados")

    def __str__(self) -> str:
        return f"{self.date:%Y-%m-%d} {self.name}"


class ParameterVersion(models.Model):
    """A newer version of a parameter family entered by an administrator (overrides shipped files)."""

    family = models.CharField(_("familia"), max_length=60, db_index=True)
    version = models.CharField(_("versión"), max_length=40)
    effective_from = models.DateField(_("vigente desde"))
    citation = models.CharField(_("cita legal"), max_length=300)
    values = models.JSONField(_("valores"), help_text=_("Los valores numéricos se escriben como texto: \"0.05\"."))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    history = HistoricalRecords()

    class Meta:
        ordering = ["family", "-effective_from"]
        verbose_name = _("versión de parámetros")
        verbose_name_plural = _("versiones de parámetros")
        constraints = [
            models.UniqueConstraint(fields=["family", "version"], name="uniq_parameter_family_version"),
            models.UniqueConstraint(fields=["family", "effective_from"], name="uniq_parameter_family_date"),
        ]

    def __str__(self) -> str:
        return f"{self.family}@{self.version} ({self.effective_from})"


# ---------------------------------------------------------------------------------------------
# Documents: every PDF the offices issue, with its public verification code (core.documents).
# ---------------------------------------------------------------------------------------------


class Document(models.Model):
    """An issued PDF. Immutable once written: a correction is a new document.

    The verification page shows only `kind`, `title`, `created_at`, `office_name` and `sha256`,
    so a title never carries personal data (names, amounts): those belong in the PDF's body.
    """

    class Kind(models.TextChoices):
        NOTICE = "NOTICE", _("Aviso de cobro")
        RECEIPT = "RECEIPT", _("Recibo de pago")
        INVOICE = "INVOICE", _("Factura")
        STATEMENT = "STATEMENT", _("Estado de cuenta")
        LIEN_CERTIFICATE = "LIEN_CERTIFICATE", _("Certificación de gravámenes")
        CERTIFICATE = "CERTIFICATE", _("Certificación")
        RESOLUTION = "RESOLUTION", _("Resolución")
        LETTER = "LETTER", _("Comunicación oficial")
        REPORT = "REPORT", _("Informe")
        OTHER = "OTHER", _("Otro documento")

    kind = models.CharField(_("tipo"), max_length=30, choices=Kind.choices, db_index=True)
    title = models.CharField(_("título"), max_length=200)
    verification_code = models.CharField(_("código de verificación"), max_length=14, unique=True)
    file = models.FileField(_("archivo"), upload_to="documents/", max_length=200)
    sha256 = models.CharField(_("SHA-256"), max_length=64)
    size_bytes = models.PositiveIntegerField(_("tamaño (bytes)"))
    page_count = models.PositiveSmallIntegerField(_("páginas"))
    language = models.CharField(_("idioma"), max_length=8, default="es")
    template_name = models.CharField(_("plantilla"), max_length=200)
    office_name = models.CharField(_("oficina emisora"), max_length=200, blank=True)
    content_type = models.ForeignKey(ContentType, null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="+", verbose_name=_("tipo de registro"))
    object_id = models.PositiveBigIntegerField(_("id del registro"), null=True, blank=True)
    related = GenericForeignKey("content_type", "object_id")
    created_at = models.DateTimeField(_("emitido"), default=timezone.now, editable=False, db_index=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+", verbose_name=_("emitido por"))
    # What the document was issued from (e.g. a report, its filters and figures), when the issuer reuses
    # the document for the same content instead of issuing another; blank for everything else.
    fingerprint = models.CharField(_("huella del contenido"), max_length=64, blank=True, default="", editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("documento")
        verbose_name_plural = _("documentos")
        indexes = [models.Index(fields=["content_type", "object_id"], name="core_document_related_idx"),
                   models.Index(fields=["fingerprint"], name="core_document_fingerprint_idx",
                                condition=~models.Q(fingerprint=""))]

    def __str__(self) -> str:
        return f"{self.verification_code} {self.title}"

    @property
    def owner_party_ids(self) -> list[int]:
        return sorted(o.party_id for o in self.owners.all())

    def get_absolute_url(self) -> str:
        return reverse("core:document_pdf", args=[self.pk])


class DocumentOwner(models.Model):
    """A party (districts.Party id) who may download the document from the owners' portal.

    A plain integer, not a foreign key: core sits below districts (docs/architecture.md).
    """

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="owners")
    party_id = models.PositiveBigIntegerField(_("persona o entidad (id)"), db_index=True)

    class Meta:
        verbose_name = _("destinatario del documento")
        verbose_name_plural = _("destinatarios del documento")
        constraints = [models.UniqueConstraint(fields=["document", "party_id"], name="uniq_document_owner")]

    def __str__(self) -> str:
        return f"{self.document.verification_code} → {self.party_id}"


class DocumentDownloadLog(models.Model):
    """One download of a document's PDF, by whom, when and from where (append-only)."""

    document = models.ForeignKey(Document, on_delete=models.PROTECT, related_name="downloads",
                                 verbose_name=_("documento"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                             related_name="+", verbose_name=_("usuario"))
    at = models.DateTimeField(_("fecha y hora"), default=timezone.now, editable=False, db_index=True)
    ip = models.GenericIPAddressField(_("dirección IP"), null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("descarga de documento")
        verbose_name_plural = _("descargas de documentos")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.document.verification_code} {self.user or '—'}"


# ---------------------------------------------------------------------------------------------
# Work queue: statutory clocks (docs/rules/deadlines.md) and flags, each linked to the record it concerns.
# Offices are kept as a plain id + name: core sits below districts (docs/architecture.md).
# ---------------------------------------------------------------------------------------------


class Clock(TimeStampedModel):
    """A statutory term running against a record: start event, due date, who answers for it."""

    class Status(models.TextChoices):
        OPEN = "OPEN", _("Abierto")
        MET = "MET", _("Cumplido")
        MISSED = "MISSED", _("Vencido")

    rule = models.CharField(_("regla"), max_length=30, db_index=True, help_text=_("Código DEADLINES, p. ej. SID-3."))
    label = models.CharField(_("descripción"), max_length=200)
    start_event = models.CharField(_("evento de inicio"), max_length=200, blank=True)
    start_date = models.DateField(_("fecha de inicio"))
    due_date = models.DateField(_("vence"), db_index=True)
    moves_past_holidays = models.BooleanField(
        _("se mueve por feriados"), default=True,
        help_text=_("Término administrativo (se mueve al día laborable); los términos de pago no se mueven."))
    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+",
                                     verbose_name=_("tipo de registro"))
    object_id = models.PositiveBigIntegerField(_("id del registro"))
    target = GenericForeignKey("content_type", "object_id")
    record_label = models.CharField(_("registro"), max_length=200, blank=True)
    record_url = models.CharField(_("enlace al registro"), max_length=300, blank=True)
    office_id = models.PositiveBigIntegerField(_("oficina responsable (id)"), null=True, blank=True)
    office_name = models.CharField(_("oficina responsable"), max_length=200, blank=True)
    responsible_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                         related_name="+", verbose_name=_("responsable"))
    status = models.CharField(_("estado"), max_length=8, choices=Status.choices, default=Status.OPEN, db_index=True)
    met_on = models.DateField(_("cumplido el"), null=True, blank=True)
    notes = models.TextField(_("notas"), blank=True)

    class Meta:
        ordering = ["due_date", "id"]
        verbose_name = _("plazo")
        verbose_name_plural = _("plazos")
        indexes = [models.Index(fields=["content_type", "object_id"], name="core_clock_target_idx"),
                   models.Index(fields=["status", "due_date"], name="core_clock_status_due_idx")]
        constraints = [
            models.UniqueConstraint(fields=["rule", "content_type", "object_id", "start_date"],
                                    name="uniq_clock_rule_target_start"),
        ]

    def __str__(self) -> str:
        return f"{self.rule} {self.record_label} → {self.due_date:%Y-%m-%d}"


class Flag(TimeStampedModel):
    """A matter staff must look at (arrears, a lien conflict, non-use, …) on one record.

    At most one open flag of a kind per record: raising it again finds the open one.
    """

    class Kind(models.TextChoices):
        ARREARS = "ARREARS", _("Atraso en pagos")
        LIEN_CONFLICT = "LIEN_CONFLICT", _("Conflicto de gravámenes")
        NON_USE = "NON_USE", _("Desuso del caudal")
        RENEWAL_NOT_FILED = "RENEWAL_NOT_FILED", _("Renovación no solicitada")
        SEIZURE_LIMIT = "SEIZURE_LIMIT", _("Límite de embargo")
        LATE_PUBLICATION = "LATE_PUBLICATION", _("Publicación tardía")
        OTHER = "OTHER", _("Otro asunto")

    class Severity(models.IntegerChoices):
        LOW = 1, _("Baja")
        MEDIUM = 2, _("Media")
        HIGH = 3, _("Alta")

    kind = models.CharField(_("tipo"), max_length=20, choices=Kind.choices, db_index=True)
    severity = models.PositiveSmallIntegerField(_("prioridad"), choices=Severity.choices, default=Severity.MEDIUM)
    rule = models.CharField(_("regla"), max_length=30, blank=True, help_text=_("Código de la regla, p. ej. FRA-10."))
    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+",
                                     verbose_name=_("tipo de registro"))
    object_id = models.PositiveBigIntegerField(_("id del registro"))
    target = GenericForeignKey("content_type", "object_id")
    record_label = models.CharField(_("registro"), max_length=200, blank=True)
    record_url = models.CharField(_("enlace al registro"), max_length=300, blank=True)
    description = models.TextField(_("descripción"))
    opened_on = models.DateField(_("abierto el"))
    resolved_on = models.DateField(_("resuelto el"), null=True, blank=True)
    resolution = models.TextField(_("resolución"), blank=True)
    assigned_to = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+", verbose_name=_("asignado a"))

    class Meta:
        ordering = ["-severity", "opened_on", "id"]
        verbose_name = _("asunto")
        verbose_name_plural = _("asuntos")
        indexes = [models.Index(fields=["content_type", "object_id"], name="core_flag_target_idx")]
        constraints = [
            models.UniqueConstraint(fields=["kind", "content_type", "object_id"],
                                    condition=models.Q(resolved_on__isnull=True), name="uniq_open_flag_kind_target"),
        ]

    @property
    def is_open(self) -> bool:
        return self.resolved_on is None

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.record_label}"


# ---------------------------------------------------------------------------------------------
# Staff dashboard (core.dashboard): who took which item, per-user calendar feeds, daily digests.
# ---------------------------------------------------------------------------------------------


class Assignment(models.Model):
    """Who answers for one dashboard item, named by its stable key ("clock:12", "flag:3",
    "roll:7:certify", …). Clocks and flags also carry the assignee on their own row
    (Clock.responsible_user, Flag.assigned_to); this row says who assigned it and when.
    """

    item_key = models.CharField(_("asunto del tablero"), max_length=80, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                             verbose_name=_("asignado a"))
    assigned_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+", verbose_name=_("asignado por"))
    at = models.DateTimeField(_("fecha y hora"), default=timezone.now)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("asignación")
        verbose_name_plural = _("asignaciones")

    def __str__(self) -> str:
        return f"{self.item_key} → {self.user}"


class StaffCalendar(models.Model):
    """A staff member's private iCal feed. The token in the URL is the only secret: revoking it
    (or making a new one) makes the old URL answer 404."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff_calendar",
                                verbose_name=_("usuario"))
    token = models.CharField(_("clave del enlace"), max_length=64, unique=True, null=True, blank=True)
    created_at = models.DateTimeField(_("creado"), default=timezone.now)
    revoked_at = models.DateTimeField(_("revocado"), null=True, blank=True)

    class Meta:
        verbose_name = _("calendario personal")
        verbose_name_plural = _("calendarios personales")

    def __str__(self) -> str:
        return f"{self.user} ({'activo' if self.token else 'revocado'})"


class DigestSent(models.Model):
    """One daily digest e-mail sent to a user: a second delivery of the task sends nothing."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("usuario"))
    date = models.DateField(_("fecha"))
    sent_at = models.DateTimeField(_("enviado"), default=timezone.now)
    item_count = models.PositiveIntegerField(_("asuntos"), default=0)

    class Meta:
        ordering = ["-date", "user_id"]
        verbose_name = _("resumen diario enviado")
        verbose_name_plural = _("resúmenes diarios enviados")
        constraints = [models.UniqueConstraint(fields=["user", "date"], name="uniq_digest_user_date")]

    def __str__(self) -> str:
        return f"{self.user} {self.date:%Y-%m-%d}"


class ApiToken(models.Model):
    """A key an integration (a bank, the AAA's meter system, a municipality) uses instead of a
    password. It acts as its user, within its scope; only its SHA-256 is stored, so the key is shown
    once when it is made; revoking it is immediate; its last use is kept for the administrators."""

    class Scope(models.TextChoices):
        READ = "READ", _("Solo lectura")
        WRITE = "WRITE", _("Lectura y escritura")

    name = models.CharField(_("integración"), max_length=100)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="api_tokens",
                             verbose_name=_("actúa como"))
    scope = models.CharField(_("alcance"), max_length=5, choices=Scope.choices, default=Scope.READ)
    prefix = models.CharField(_("prefijo"), max_length=12, unique=True, editable=False)
    key_hash = models.CharField(_("huella de la clave"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("creado"), default=timezone.now, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+", verbose_name=_("creado por"), editable=False)
    expires_at = models.DateTimeField(_("vence"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("último uso"), null=True, blank=True, editable=False)
    last_used_ip = models.GenericIPAddressField(_("última dirección"), null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(_("revocado"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("token de la API")
        verbose_name_plural = _("tokens de la API")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"
