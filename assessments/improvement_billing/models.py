"""Improvement-district billing (SID-1 to SID-4, TID-2 to TID-6): which receivable bills which
parcel for which resolution or ordinance and fiscal year, the billing run of each district and
year, and which ledger entries were fed to SID-3 batches or TID-5 deposits.

The money lives in the money core (assessments.Receivable and its ledger); these rows carry the
natural keys that make billing and the collections feed idempotent.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

MONEY = {"max_digits": 14, "decimal_places": 2}
USER = settings.AUTH_USER_MODEL


class Program(models.TextChoices):
    SID = "SID", _("Distrito especial de mejoramiento (SID)")
    TID = "TID", _("Distrito de mejoramiento turístico (TID)")


class BillingRun(models.Model):
    """The billing of one district for one fiscal year (*facturación anual*). Billing again finds
    it and adds only what is missing; a refused attempt keeps the reason here, flagged for staff."""

    class Status(models.TextChoices):
        BILLED = "BILLED", _("Facturado")
        REFUSED = "REFUSED", _("Rechazado")

    class Trigger(models.TextChoices):
        PAGE = "PAGE", _("Página")
        API = "API", _("API")
        TASK = "TASK", _("Tarea programada")
        COMMAND = "COMMAND", _("Comando")

    district = models.ForeignKey("districts.District", on_delete=models.PROTECT, related_name="improvement_runs",
                                 verbose_name=_("distrito"))
    fiscal_year = models.PositiveSmallIntegerField(_("año fiscal"))
    program = models.CharField(_("programa"), max_length=3, choices=Program.choices)
    status = models.CharField(_("estado"), max_length=8, choices=Status.choices)
    reason = models.CharField(_("motivo del rechazo"), max_length=20, blank=True)
    message = models.TextField(_("explicación"), blank=True)
    issued_on = models.DateField(_("fecha de emisión"), null=True, blank=True)
    trigger = models.CharField(_("origen"), max_length=8, choices=Trigger.choices, default=Trigger.PAGE)
    charges_count = models.PositiveIntegerField(_("cargos"), default=0)
    charges_total = models.DecimalField(_("importe facturado"), default=0, **MONEY)
    last_run_at = models.DateTimeField(_("última ejecución"), auto_now=True)
    created_at = models.DateTimeField(_("creada"), auto_now_add=True)
    run_by = models.ForeignKey(USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                               verbose_name=_("ejecutada por"))
    report = models.JSONField(_("informe"), default=dict, blank=True)

    class Meta:
        ordering = ["district", "-fiscal_year"]
        verbose_name = _("facturación de distrito de mejoramiento")
        verbose_name_plural = _("facturaciones de distritos de mejoramiento")
        constraints = [models.UniqueConstraint(fields=["district", "fiscal_year"], name="uniq_improvement_run")]

    @property
    def source_type(self) -> str:
        """The receivables' source (and the notices' billing run): one per district and year."""
        return f"improvement_billing.Run:{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("improvement_billing:run", args=[self.pk])

    def __str__(self) -> str:
        return f"{self.district.name} — FY{self.fiscal_year}"


class ImprovementCharge(models.Model):
    """One benefit charge (*cargo por beneficio*) of one parcel, fiscal year and instrument."""

    run = models.ForeignKey(BillingRun, on_delete=models.PROTECT, related_name="charges",
                            verbose_name=_("facturación"))
    receivable = models.OneToOneField("assessments.Receivable", on_delete=models.PROTECT,
                                      related_name="improvement_charge", verbose_name=_("cargo"))
    parcel = models.ForeignKey("districts.Parcel", on_delete=models.PROTECT, related_name="improvement_charges",
                               verbose_name=_("parcela"))
    program = models.CharField(_("programa"), max_length=3, choices=Program.choices)
    resolution = models.ForeignKey("districts.SidResolution", on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="billed_charges", verbose_name=_("resolución"))
    ordinance = models.ForeignKey("districts.TidOrdinance", on_delete=models.PROTECT, null=True, blank=True,
                                  related_name="billed_charges", verbose_name=_("ordenanza"))
    collector = models.CharField(_("cobrador"), max_length=12)
    fiscal_year = models.PositiveSmallIntegerField(_("año fiscal"))
    created_at = models.DateTimeField(_("creado"), auto_now_add=True)

    class Meta:
        ordering = ["run", "parcel__cadastre"]
        verbose_name = _("cargo por beneficio facturado")
        verbose_name_plural = _("cargos por beneficio facturados")
        constraints = [
            models.CheckConstraint(condition=Q(program="SID", resolution__isnull=False, ordinance__isnull=True)
                                   | Q(program="TID", ordinance__isnull=False, resolution__isnull=True),
                                   name="improvement_charge_instrument"),
        ]

    def __str__(self) -> str:
        return f"{self.program} FY{self.fiscal_year} {self.parcel}"


class CollectionFeed(models.Model):
    """A ledger entry (payment, credit applied, reversal) on a benefit charge, fed once to a SID-3
    batch (collected by CRIM) or a TID-5 deposit (collected by the association)."""

    entry = models.OneToOneField("assessments.LedgerEntry", on_delete=models.PROTECT, related_name="+",
                                 verbose_name=_("asiento"))
    charge = models.ForeignKey(ImprovementCharge, on_delete=models.PROTECT, related_name="feeds",
                               verbose_name=_("cargo"))
    amount = models.DecimalField(_("recaudado"), **MONEY, help_text=_("Positivo: dinero recibido."))
    sid_batch = models.ForeignKey("districts.SidCollectionBatch", on_delete=models.PROTECT, null=True, blank=True,
                                  related_name="+", verbose_name=_("lote SID-3"))
    tid_entry = models.ForeignKey("districts.TidAccountEntry", on_delete=models.PROTECT, null=True, blank=True,
                                  related_name="+", verbose_name=_("depósito TID-5"))
    fed_at = models.DateTimeField(_("registrado"), auto_now_add=True)

    class Meta:
        ordering = ["fed_at", "id"]
        verbose_name = _("recaudo trasladado")
        verbose_name_plural = _("recaudos trasladados")

    def __str__(self) -> str:
        return f"{self.entry_id} → {self.sid_batch_id or self.tid_entry_id}: {self.amount}"
