"""Rolls (padrones): certified figures → draft roll → certified → finalized (never edited after)."""
from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

MONEY = {"max_digits": 14, "decimal_places": 2}


class CertifiedFigures(models.Model):
    """A fiscal year's certified inputs of one irrigation district (IRR-1/2, LAJ-1)."""

    district = models.ForeignKey("districts.District", on_delete=models.PROTECT, related_name="certified_figures",
                                 verbose_name=_("distrito"))
    fiscal_year = models.PositiveSmallIntegerField(_("año fiscal"))
    figures = models.JSONField(_("cifras"), help_text=_("Montos como texto, p. ej. \"310000.00\"."))
    certified_by = models.CharField(_("certificado por"), max_length=200)
    certified_on = models.DateField(_("fecha de certificación"))
    document = models.FileField(_("documento de certificación"), upload_to="certifications/", blank=True)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                   null=True, blank=True)
    entered_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("cifras certificadas")
        verbose_name_plural = _("cifras certificadas")
        constraints = [models.UniqueConstraint(fields=["district", "fiscal_year"], name="uniq_figures_district_fy")]

    def __str__(self) -> str:
        return f"{self.district.code} FY{self.fiscal_year}"


class Roll(models.Model):
    class Status(models.TextChoices):
        DRAFT = "DRAFT", _("Borrador")
        CERTIFIED = "CERTIFIED", _("Certificado")
        FINALIZED = "FINALIZED", _("Finalizado")

    district = models.ForeignKey("districts.District", on_delete=models.PROTECT, related_name="rolls",
                                 verbose_name=_("distrito"))
    fiscal_year = models.PositiveSmallIntegerField(_("año fiscal"))
    status = models.CharField(_("estado"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    figures = models.ForeignKey(CertifiedFigures, on_delete=models.PROTECT, related_name="rolls")
    totals = models.JSONField(_("totales"), default=dict)
    parameters = models.JSONField(_("parámetros usados"), default=list)
    line_count = models.PositiveIntegerField(default=0)
    generated_at = models.DateTimeField(null=True, blank=True)
    generated_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                     null=True, blank=True)
    certified_at = models.DateTimeField(null=True, blank=True)
    certified_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                     null=True, blank=True)
    finalized_at = models.DateTimeField(null=True, blank=True)
    billed_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords(excluded_fields=["totals", "parameters"])

    class Meta:
        ordering = ["-fiscal_year", "district__name"]
        verbose_name = _("padrón")
        verbose_name_plural = _("padrones")
        constraints = [models.UniqueConstraint(fields=["district", "fiscal_year"], name="uniq_roll_district_fy")]

    def __str__(self) -> str:
        return f"{self.district.name} — FY{self.fiscal_year}"

    def get_absolute_url(self) -> str:
        return reverse("rolls:detail", args=[self.pk])

    @property
    def is_irrigation(self) -> bool:
        return self.district.kind == "IRRIGATION"


class RollLine(models.Model):
    """A parcel's entry on a roll. Written in bulk (COPY on PostgreSQL); never edited once finalized."""

    roll = models.ForeignKey(Roll, on_delete=models.CASCADE, related_name="lines")
    parcel = models.ForeignKey("districts.Parcel", on_delete=models.PROTECT, related_name="roll_lines")
    cadastre = models.CharField(max_length=20)
    weight = models.DecimalField(_("acres o peso"), max_digits=16, decimal_places=4)
    share = models.DecimalField(_("parte (IRR-5) o bruto (LAJ-3)"), **MONEY)
    credit = models.DecimalField(_("crédito (LAJ-4)"), default=0, **MONEY)
    total = models.DecimalField(_("a cobrar"), **MONEY)
    exempt_reason = models.CharField(max_length=24, blank=True)
    detail = models.JSONField(_("detalle por semestre o plazo"))

    class Meta:
        ordering = ["roll", "cadastre"]
        verbose_name = _("línea de padrón")
        verbose_name_plural = _("líneas de padrón")
        constraints = [models.UniqueConstraint(fields=["roll", "parcel"], name="uniq_rollline_roll_parcel")]

    def __str__(self) -> str:
        return f"{self.cadastre}: {self.total}"


class RollOverride(models.Model):
    """A single line's amount changed by staff, with a reason and a second person's approval."""

    class Status(models.TextChoices):
        PENDING = "PENDING", _("Pendiente")
        APPROVED = "APPROVED", _("Aprobado")
        REJECTED = "REJECTED", _("Rechazado")

    line = models.ForeignKey(RollLine, on_delete=models.CASCADE, related_name="overrides")
    new_total = models.DecimalField(_("nuevo monto"), **MONEY)
    previous_total = models.DecimalField(_("monto anterior"), **MONEY)
    reason = models.TextField(_("razón"))
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField(auto_now_add=True)
    approved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                    null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)

    class Meta:
        ordering = ["-requested_at"]
        verbose_name = _("cambio de línea de padrón")
        verbose_name_plural = _("cambios de líneas de padrón")

    def __str__(self) -> str:
        return f"{self.line.cadastre}: {self.previous_total} → {self.new_total} ({self.get_status_display()})"


class RollJob(models.Model):
    """A long roll operation's record; the task updates it so pages and commands show progress."""

    class Status(models.TextChoices):
        QUEUED = "QUEUED", _("En cola")
        RUNNING = "RUNNING", _("En proceso")
        DONE = "DONE", _("Terminado")
        FAILED = "FAILED", _("Falló")

    district = models.ForeignKey("districts.District", on_delete=models.CASCADE, related_name="+",
                                 verbose_name=_("distrito"))
    fiscal_year = models.PositiveSmallIntegerField(_("año fiscal"))
    operation = models.CharField(_("operación"), max_length=12, default="generate")
    status = models.CharField(_("estado"), max_length=8, choices=Status.choices, default=Status.QUEUED)
    total = models.PositiveIntegerField(_("total"), default=0)
    done = models.PositiveIntegerField(_("hechas"), default=0)
    message = models.TextField(_("mensaje"), blank=True)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                     null=True, blank=True, verbose_name=_("pedido por"))
    created_at = models.DateTimeField(_("creado el"), auto_now_add=True)
    finished_at = models.DateTimeField(_("terminado el"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("trabajo de padrón")
        verbose_name_plural = _("trabajos de padrón")

    def __str__(self) -> str:
        return f"{self.operation} {self.district_id} FY{self.fiscal_year}: {self.status}"


class RollCorrection(models.Model):
    """A new entry against a certified or finalized roll: its lines are never edited (IRR-8, LIEN-1).

    A late water record re-evaluates IRR-8 for one parcel; a parcel included mid-year or a
    parcel split into children gets a supplementary entry. `amount` is the change to what the
    parcel owes for the roll's year (negative = credit). `key` is the natural key of the event,
    so a redelivered task finds its correction already written and changes nothing.
    """

    class Kind(models.TextChoices):
        WATER_REEVALUATION = "WATER_REEVALUATION", _("Reevaluación por registro de agua (IRR-8)")
        INCLUSION = "INCLUSION", _("Inclusión a mitad de año")
        SPLIT = "SPLIT", _("Segregación")

    roll = models.ForeignKey(Roll, on_delete=models.PROTECT, related_name="corrections", verbose_name=_("padrón"))
    parcel = models.ForeignKey("districts.Parcel", on_delete=models.PROTECT, related_name="roll_corrections",
                               verbose_name=_("parcela"))
    source_parcel = models.ForeignKey("districts.Parcel", on_delete=models.PROTECT, related_name="+", null=True,
                                      blank=True, verbose_name=_("parcela de origen (segregación)"))
    kind = models.CharField(_("tipo"), max_length=20, choices=Kind.choices)
    key = models.CharField(_("clave del evento"), max_length=120)
    rule = models.CharField(_("regla"), max_length=40)
    amount = models.DecimalField(_("cambio en el monto"), **MONEY)
    breakdown = models.JSONField(_("desglose y reglas"), default=dict)
    reason = models.TextField(_("razón"))
    receivable = models.ForeignKey("assessments.Receivable", on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="roll_corrections", verbose_name=_("cargo suplementario"))
    # A decrease is posted as ledger ADJUSTMENT entries on the charge (or a credit on the account).
    entries = models.ManyToManyField("assessments.LedgerEntry", related_name="roll_corrections", blank=True,
                                     verbose_name=_("asientos"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                   null=True, blank=True, verbose_name=_("registrado por"))
    created_at = models.DateTimeField(_("registrado"), auto_now_add=True)

    class Meta:
        ordering = ["roll", "created_at", "id"]
        verbose_name = _("corrección de padrón")
        verbose_name_plural = _("correcciones de padrón")
        constraints = [models.UniqueConstraint(fields=["roll", "parcel", "key"], name="uniq_rollcorrection_event")]
        indexes = [models.Index(fields=["roll", "parcel"])]

    def __str__(self) -> str:
        return f"{self.roll} · {self.get_kind_display()} · {self.amount}"
