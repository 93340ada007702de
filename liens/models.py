"""The lien register (LIEN-1): every lien and encumbrance on a parcel, with its origin and status.

`liens` sits below `assessments` in the layering: a lien created by a charge records its origin
as text (`origin_type`, `origin_id`, e.g. "assessments.receivable", "1234") and the assessments
services call `liens.services` to register, satisfy, release or reinstate it.
"""
from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models.functions import Greatest, Least
from django.utils.translation import gettext_lazy as _

from core.models import TimeStampedModel

MONEY = {"max_digits": 14, "decimal_places": 2}


class Lien(TimeStampedModel):
    """A lien (*gravamen*) on a parcel: statutory charge liens, taxes, mortgages, crop credits."""

    class Kind(models.TextChoices):
        # Same codes as liens.rules.KINDS (LIEN-2).
        PROPERTY_TAX = "PROPERTY_TAX", _("Contribución sobre la propiedad")
        TRANSFERRED_TAX_DEBT = "TRANSFERRED_TAX_DEBT", _("Deuda contributiva transferida (21 LPRA § 5924)")
        IRRIGATION = "IRRIGATION", _("Cuota de riego (IRR-10)")
        LAJAS = "LAJAS", _("Contribución del Valle de Lajas (LAJ-6)")
        SID = "SID", _("Cargo por beneficio, distrito especial de mejoramiento (SID-4)")
        TID = "TID", _("Cargo de distrito de mejoramiento turístico (TID-6)")
        MORTGAGE = "MORTGAGE", _("Hipoteca")
        REFACCIONARIO = "REFACCIONARIO", _("Crédito refaccionario")
        OTHER = "OTHER", _("Otro gravamen")

    class Status(models.TextChoices):
        ACTIVE = "ACTIVE", _("Vigente")
        SATISFIED = "SATISFIED", _("Satisfecho")
        RELEASED = "RELEASED", _("Cancelado")

    parcel = models.ForeignKey("districts.Parcel", on_delete=models.PROTECT, related_name="liens",
                               verbose_name=_("parcela"))
    kind = models.CharField(_("tipo"), max_length=22, choices=Kind.choices)
    amount = models.DecimalField(_("cuantía"), validators=[MinValueValidator(Decimal("0"))], **MONEY)
    constituted_on = models.DateField(_("fecha de constitución"))
    status = models.CharField(_("estado"), max_length=10, choices=Status.choices, default=Status.ACTIVE,
                              db_index=True)
    status_on = models.DateField(_("fecha del estado"), null=True, blank=True)
    status_reason = models.CharField(_("motivo del estado"), max_length=300, blank=True)
    # Origin as text: liens never import the apps above them (e.g. "assessments.receivable", "1234").
    origin_type = models.CharField(_("tipo de origen"), max_length=60, blank=True)
    origin_id = models.CharField(_("identificador de origen"), max_length=64, blank=True)
    origin_label = models.CharField(_("origen"), max_length=200, blank=True)
    mortgage_terms = models.JSONField(
        _("términos de la hipoteca (IRR-11)"), null=True, blank=True,
        help_text=_("term_years, fixed_annual_installments, rate_pct, purpose, principal_per_cuerda, "
                    "irrigation_benefit; números como texto."))
    district_cooperative = models.BooleanField(
        _("refaccionario de asociación o cooperativa del distrito"), default=False)
    finances_public_infrastructure = models.BooleanField(_("financia infraestructura pública (TID-6 d)"),
                                                         default=False)
    presented_seq = models.PositiveIntegerField(_("orden de presentación en el Registro"), null=True, blank=True)
    notes = models.TextField(_("notas"), blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+", verbose_name=_("registrado por"))

    class Meta:
        ordering = ["parcel", "constituted_on", "id"]
        verbose_name = _("gravamen")
        verbose_name_plural = _("gravámenes")
        constraints = [
            # LIEN-1: one lien per origin, so registering the same charge twice changes nothing.
            models.UniqueConstraint(fields=["origin_type", "origin_id"], condition=~models.Q(origin_id=""),
                                    name="uniq_lien_origin"),
            models.CheckConstraint(condition=models.Q(amount__gte=0), name="lien_amount_not_negative"),
        ]
        indexes = [models.Index(fields=["parcel", "status"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.parcel} ({self.amount})"


class LienRuling(TimeStampedModel):
    """A legal ruling (*resolución*) that decides one pair of liens on a parcel (LIEN-2 step 1, `RULING`).

    Recorded only by a legal reviewer; it outranks every statutory vote, so it resolves a
    conflict between two statutes or breaks a cycle. One ruling per unordered pair of liens.
    """

    parcel = models.ForeignKey("districts.Parcel", on_delete=models.PROTECT, related_name="lien_rulings",
                               verbose_name=_("parcela"))
    higher = models.ForeignKey(Lien, on_delete=models.PROTECT, related_name="rulings_as_higher",
                               verbose_name=_("gravamen de rango superior"))
    lower = models.ForeignKey(Lien, on_delete=models.PROTECT, related_name="rulings_as_lower",
                              verbose_name=_("gravamen de rango inferior"))
    reference = models.CharField(_("referencia"), max_length=120,
                                 help_text=_("Número de la sentencia, resolución u opinión legal."))
    note = models.TextField(_("fundamento"), blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                   verbose_name=_("decidida por"))
    decided_at = models.DateTimeField(_("fecha de la decisión"))

    class Meta:
        ordering = ["parcel", "decided_at", "id"]
        verbose_name = _("resolución sobre rango de gravámenes")
        verbose_name_plural = _("resoluciones sobre rango de gravámenes")
        constraints = [
            models.CheckConstraint(condition=~models.Q(higher=models.F("lower")), name="lien_ruling_two_liens"),
            # One ruling per unordered pair: (a, b) and (b, a) are the same pair.
            models.UniqueConstraint(Least("higher", "lower"), Greatest("higher", "lower"),
                                    name="uniq_lien_ruling_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.reference}: #{self.higher_id} > #{self.lower_id}"


class LienEvent(models.Model):
    """A dated change of a lien's standing (LIEN-4): released when what it secures reaches zero
    (paid, credited, written off), revived when a reversal (a returned check) reopens the charge,
    or a release/reinstatement by staff. Append-only: one new row per event, never edited; the
    lien's `status` is the latest event's outcome, kept for fast filtering."""

    class Kind(models.TextChoices):
        SATISFIED = "SATISFIED", _("Liberado: nada pendiente")
        RELEASED = "RELEASED", _("Cancelado")
        REVIVED = "REVIVED", _("Revivido")

    lien = models.ForeignKey(Lien, on_delete=models.PROTECT, related_name="events", verbose_name=_("gravamen"))
    kind = models.CharField(_("tipo"), max_length=10, choices=Kind.choices)
    on = models.DateField(_("fecha"))
    reason = models.CharField(_("motivo"), max_length=300, blank=True)
    secured = models.DecimalField(_("garantizaba"), help_text=_("Lo que el gravamen garantizaba ese día."),
                                  **MONEY)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                              related_name="+", verbose_name=_("usuario"))
    recorded_at = models.DateTimeField(_("registrado"), auto_now_add=True)

    class Meta:
        ordering = ["lien", "on", "id"]
        verbose_name = _("evento del gravamen")
        verbose_name_plural = _("eventos de gravámenes")

    def __str__(self) -> str:
        return f"#{self.lien_id} {self.kind} {self.on}"
