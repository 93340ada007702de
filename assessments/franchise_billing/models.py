"""Franchise billing (FRA-3, FRA-4): which receivable bills which franchise and period, the
invoice runs, the AAA's monthly-readings files and the transfers of FRA-4 to the AAA.

The money itself lives in the money core (assessments.Receivable and its ledger); these rows
link each charge to its franchise with the facts FRA-4 classifies by (the tariff class when
billed), and carry the natural keys that make every run idempotent.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from core.daycount import days_inclusive
from franchises.models import TariffClass

MONEY = {"max_digits": 14, "decimal_places": 2}
USER = settings.AUTH_USER_MODEL


class FranchiseCharge(models.Model):
    """One charge of a franchise: a fiscal year's tariff invoice (FRA-1, FRA-3), a month's metered
    bill (GROUND_INDUSTRIAL, FRA-3 sec. 8.14 b), or a supplementary invoice or credit that an
    amendment or renewal makes for days of a year already invoiced (FRA-3 Decision). Issued
    charges are never edited: a correction is a new charge (and new ledger entries)."""

    class Kind(models.TextChoices):
        TARIFF = "TARIFF", _("Tarifa anual o semestral")
        METERED = "METERED", _("Factura mensual por contador")
        SUPPLEMENT = "SUPPLEMENT", _("Factura suplementaria")
        CREDIT = "CREDIT", _("Nota de crédito")

    class Cause(models.TextChoices):
        VOLUME = "VOLUME", _("Enmienda del volumen autorizado")
        TERM_EXTENDED = "TERM_EXTENDED", _("Vigencia extendida (renovación o enmienda)")
        TERM_SHORTENED = "TERM_SHORTENED", _("Vigencia acortada (enmienda)")

    franchise = models.ForeignKey("franchises.Franchise", on_delete=models.PROTECT, related_name="charges",
                                  verbose_name=_("franquicia"))
    kind = models.CharField(_("tipo"), max_length=10, choices=Kind.choices)
    fiscal_year = models.PositiveSmallIntegerField(_("año fiscal"))
    month = models.DateField(_("mes facturado"), null=True, blank=True, help_text=_("Solo facturas por contador."))
    reading = models.OneToOneField("franchises.MeterReading", on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="bill", verbose_name=_("lectura"))
    gallons = models.PositiveBigIntegerField(_("galones facturados"), null=True, blank=True)
    tariff_class = models.CharField(_("clase tarifaria"), max_length=20, choices=TariffClass.choices,
                                    help_text=_("La clase al facturar: FRA-4 clasifica los recaudos por ella."))
    payment_plan = models.CharField(_("forma de pago"), max_length=10, blank=True)
    prorated = models.BooleanField(_("prorrateada (primer año)"), default=False)
    receivable = models.OneToOneField("assessments.Receivable", on_delete=models.PROTECT, null=True, blank=True,
                                      related_name="franchise_charge", verbose_name=_("cargo"),
                                      help_text=_("Vacío en una nota de crédito: su asiento es el crédito."))
    credit_entry = models.OneToOneField("assessments.LedgerEntry", on_delete=models.PROTECT, null=True, blank=True,
                                        related_name="franchise_credit", verbose_name=_("asiento del crédito"))
    period_start = models.DateField(_("facturado desde"), null=True, blank=True)
    period_end = models.DateField(_("facturado hasta"), null=True, blank=True)
    amount = models.DecimalField(_("importe"), default=0, help_text=_("Negativo en una nota de crédito."), **MONEY)
    authorized_gallons = models.PositiveBigIntegerField(_("galones autorizados facturados"), null=True, blank=True)
    annual_tariff = models.DecimalField(_("tarifa anual aplicada"), null=True, blank=True, **MONEY)
    adjusts = models.ForeignKey("self", on_delete=models.PROTECT, null=True, blank=True, related_name="corrections",
                                verbose_name=_("factura que corrige"))
    cause = models.CharField(_("causa"), max_length=14, choices=Cause.choices, blank=True)
    application = models.ForeignKey("franchises.Application", on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="charges", verbose_name=_("solicitud"))
    parameters = models.CharField(_("parámetros"), max_length=120, blank=True)
    created_at = models.DateTimeField(_("creado"), auto_now_add=True)
    created_by = models.ForeignKey(USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                                   verbose_name=_("creado por"))

    class Meta:
        ordering = ["franchise", "fiscal_year", "kind", "month", "id"]
        verbose_name = _("factura de franquicia")
        verbose_name_plural = _("facturas de franquicias")
        constraints = [
            models.UniqueConstraint(fields=["franchise", "fiscal_year"], condition=Q(kind="TARIFF"),
                                    name="uniq_franchise_tariff_fy"),
            models.UniqueConstraint(fields=["franchise", "month"], condition=Q(kind="METERED"),
                                    name="uniq_franchise_metered_month"),
            models.CheckConstraint(condition=Q(kind__in=["TARIFF", "SUPPLEMENT"], month__isnull=True,
                                                 receivable__isnull=False)
                                   | Q(kind="METERED", month__isnull=False, gallons__isnull=False,
                                       receivable__isnull=False)
                                   | Q(kind="CREDIT", month__isnull=True, receivable__isnull=True,
                                       credit_entry__isnull=False),
                                   name="franchise_charge_kind_fields"),
            models.CheckConstraint(condition=Q(period_start__isnull=True) | Q(period_end__gte=models.F("period_start")),
                                   name="franchise_charge_period_order"),
            # One correction per cause, year and application: deciding twice cannot bill twice.
            models.UniqueConstraint(fields=["application", "fiscal_year", "cause"],
                                    condition=Q(application__isnull=False), name="uniq_franchise_correction"),
        ]

    def get_absolute_url(self) -> str:
        return reverse("franchise_billing:franchise", args=[self.franchise_id])

    @property
    def days(self) -> int | None:
        return days_inclusive(self.period_start, self.period_end) if self.period_start and self.period_end else None

    def __str__(self) -> str:
        if self.kind == self.Kind.METERED:
            return f"{self.franchise} {self.month:%Y-%m}"
        if self.kind in (self.Kind.SUPPLEMENT, self.Kind.CREDIT):
            return f"{self.franchise} FY{self.fiscal_year} {self.get_kind_display()} {self.amount}"
        return f"{self.franchise} FY{self.fiscal_year}"


class InvoiceRun(models.Model):
    """One run of the fiscal year's tariff invoices, with its report (created, skipped, exempt,
    metered, errors, totals by class)."""

    class Trigger(models.TextChoices):
        PAGE = "PAGE", _("Página")
        API = "API", _("API")
        TASK = "TASK", _("Tarea programada")
        COMMAND = "COMMAND", _("Comando")

    fiscal_year = models.PositiveSmallIntegerField(_("año fiscal"), db_index=True)
    issued_on = models.DateField(_("fecha de emisión"))
    trigger = models.CharField(_("origen"), max_length=8, choices=Trigger.choices, default=Trigger.PAGE)
    run_at = models.DateTimeField(_("ejecutada"), auto_now_add=True)
    run_by = models.ForeignKey(USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                               verbose_name=_("ejecutada por"))
    created_count = models.PositiveIntegerField(_("facturas creadas"), default=0)
    created_total = models.DecimalField(_("importe creado"), default=0, **MONEY)
    report = models.JSONField(_("informe"), default=dict)

    class Meta:
        ordering = ["-run_at", "-id"]
        verbose_name = _("corrida de facturación")
        verbose_name_plural = _("corridas de facturación")

    def get_absolute_url(self) -> str:
        return reverse("franchise_billing:run") + f"?fiscal_year={self.fiscal_year}&run={self.pk}"

    def __str__(self) -> str:
        return f"FY{self.fiscal_year} · {self.run_at:%d/%m/%Y %H:%M}"


class ReadingImport(models.Model):
    """An AAA monthly-readings file imported whole (all or nothing)."""

    filename = models.CharField(_("archivo"), max_length=200)
    sha256 = models.CharField(max_length=64, db_index=True)
    billed_on = models.DateField(_("fecha de las facturas"))
    uploaded_at = models.DateTimeField(_("importado"), auto_now_add=True)
    uploaded_by = models.ForeignKey(USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                                    verbose_name=_("importado por"))
    report = models.JSONField(_("resultado"), default=dict)

    class Meta:
        ordering = ["-uploaded_at", "-id"]
        verbose_name = _("archivo de lecturas de la AAA")
        verbose_name_plural = _("archivos de lecturas de la AAA")

    def __str__(self) -> str:
        return f"{self.filename} ({self.uploaded_at:%Y-%m-%d})"


class AaaTransfer(models.Model):
    """FRA-4 (sec. 8.15): the AAA's 90 % of a period's GROUND_INDUSTRIAL collections, computed on
    the period's total and rounded half-up once; the rest stays in the special fund."""

    class PeriodKind(models.TextChoices):
        MONTH = "MONTH", _("Mes")
        QUARTER = "QUARTER", _("Trimestre fiscal")
        FISCAL_YEAR = "FISCAL_YEAR", _("Año fiscal")

    period_kind = models.CharField(_("tipo de período"), max_length=12, choices=PeriodKind.choices)
    period_label = models.CharField(_("período"), max_length=12, unique=True)
    period_start = models.DateField(_("desde"))
    period_end = models.DateField(_("hasta"))
    collected = models.DecimalField(_("recaudado (GROUND_INDUSTRIAL)"), **MONEY)
    transferred = models.DecimalField(_("transferido a la AAA"), **MONEY)
    retained = models.DecimalField(_("retenido en el fondo especial"), **MONEY)
    transfer_pct = models.DecimalField(_("porcentaje"), max_digits=6, decimal_places=2)
    parameters = models.CharField(_("parámetros"), max_length=120, blank=True)
    transferred_on = models.DateField(_("transferido el"))
    reference = models.CharField(_("referencia de la transferencia"), max_length=60, blank=True)
    notes = models.TextField(_("notas"), blank=True)
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                                    verbose_name=_("registrado por"))
    recorded_at = models.DateTimeField(_("registrado"), auto_now_add=True)

    class Meta:
        ordering = ["-period_start", "-id"]
        verbose_name = _("transferencia a la AAA")
        verbose_name_plural = _("transferencias a la AAA")
        constraints = [
            models.CheckConstraint(condition=Q(period_end__gte=models.F("period_start")),
                                   name="aaa_transfer_period_order"),
        ]

    def get_absolute_url(self) -> str:
        return reverse("franchise_billing:transfers") + f"?period={self.period_label}"

    def __str__(self) -> str:
        return f"{_('Transferencia a la AAA')} {self.period_label}: {self.transferred}"
