"""Improvement districts (docs/rules/improvement-districts.md): SID resolutions, collections and refunds; TID
petitions, findings, ordinances, associations and their accounts.

The models live in the `districts` app (districts/models.py imports them). Charges are NOT
receivables here: the billing step reads `selectors.improvement_charges_for_year`. Statutory
due dates (DEADLINES) are stored on the records they concern and computed by the services.
"""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core.models import TimeStampedModel
from districts.improvement import rules
from districts.models import District, Municipality, Parcel, Party

__all__ = [
    "SidResolution", "SidResolutionCharge", "SidNoticeRound", "SidCollectionBatch", "SidRefund", "SidRefundLine",
    "TidPetition", "TidFactorFinding", "TidOrdinance", "TidNoticeRound", "TidAccountEntry", "TidAudit",
]

MONEY = {"max_digits": 14, "decimal_places": 2}
POSITIVE = [MinValueValidator(Decimal("0"))]
PCT = {"max_digits": 13, "decimal_places": 10, "validators": [MinValueValidator(Decimal("0")),
                                                         MaxValueValidator(Decimal("100"))]}


def _month_days_errors(values) -> str | None:
    if not isinstance(values, list):
        return str(_("Indique una lista de fechas MM-DD."))
    try:
        rules.normalize_month_days(values)
    except ValueError as exc:
        return str(exc)
    return None


# === SID — special improvement districts law ===================================================

class SidResolution(TimeStampedModel):
    """SID-1: the Authority's resolution fixing each property's annual benefit charge and the term."""

    class ProjectStatus(models.TextChoices):
        ACTIVE = "ACTIVE", _("Activo")
        NOT_CARRIED_OUT = "NOT_CARRIED_OUT", _("No se llevó a cabo (SID-5)")

    district = models.ForeignKey(District, on_delete=models.PROTECT, related_name="sid_resolutions",
                                 limit_choices_to={"kind": District.Kind.SID}, verbose_name=_("distrito"))
    number = models.CharField(_("número de resolución"), max_length=40)
    adopted_on = models.DateField(_("adoptada el"))
    term_years = models.PositiveSmallIntegerField(_("término (años)"), validators=[MinValueValidator(1),
                                                                                    MaxValueValidator(60)])
    first_fiscal_year = models.PositiveSmallIntegerField(_("primer año fiscal"), validators=[
        MinValueValidator(1950), MaxValueValidator(2200)])
    certified_copy = models.FileField(_("copia certificada"), upload_to="improvement/sid/", blank=True)
    crim_received_on = models.DateField(_("recibida por el CRIM"), null=True, blank=True,
                                        help_text=_("Inicia el plazo de 180 días de la primera notificación (SID-2)."))
    due_dates = models.JSONField(_("fechas de vencimiento (MM-DD)"), default=list,
                                 help_text=_("Fechas de pago que fija la resolución, cada año fiscal (SID-1)."))
    penalty_pct = models.DecimalField(_("penalidad por pago tardío (%)"), default=Decimal("0"), **PCT)
    penalty_grace_days = models.PositiveSmallIntegerField(_("días de gracia"), default=0)
    penalty_terms = models.TextField(_("consecuencias de no pagar a tiempo"), blank=True,
                                     help_text=_("Texto que se imprime en cada notificación (SID-2)."))
    project_status = models.CharField(_("estado del proyecto"), max_length=16, choices=ProjectStatus.choices,
                                      default=ProjectStatus.ACTIVE)
    not_carried_out_on = models.DateField(_("declarado no realizado el"), null=True, blank=True)
    not_carried_out_reason = models.TextField(_("motivo"), blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["district", "-adopted_on", "number"]
        verbose_name = _("resolución SID")
        verbose_name_plural = _("resoluciones SID")
        constraints = [models.UniqueConstraint(fields=["district", "number"], name="uniq_sid_resolution_number")]

    def clean(self):
        errors = {}
        if self.district_id and self.district.kind != District.Kind.SID:
            errors["district"] = _("La resolución debe ser de un distrito especial de mejoramiento (SID).")
        problem = _month_days_errors(self.due_dates)
        if problem:
            errors["due_dates"] = problem
        elif not self.due_dates:
            errors["due_dates"] = _("SID-1: la resolución fija al menos una fecha de pago.")
        if self.crim_received_on and self.adopted_on and self.crim_received_on < self.adopted_on:
            errors["crim_received_on"] = _("El CRIM no puede recibirla antes de adoptarse.")
        if errors:
            raise ValidationError(errors)

    @property
    def fiscal_years(self) -> range:
        return rules.term_fiscal_years(self.first_fiscal_year, self.term_years)

    @property
    def last_fiscal_year(self) -> int:
        return self.first_fiscal_year + self.term_years - 1

    def due_dates_for(self, fiscal_year: int) -> list[date]:
        return rules.due_dates_in_fiscal_year(self.due_dates, fiscal_year)

    def get_absolute_url(self) -> str:
        return reverse("improvement:sid_detail", args=[self.pk])

    def __str__(self) -> str:
        return f"{self.district.name} — {_('Resolución')} {self.number}"


class SidResolutionCharge(TimeStampedModel):
    """SID-1: one property's annual benefit charge (cargo por beneficio). No exemption, exoneration
    or discount can be recorded: the model has no such field and the services refuse them."""

    resolution = models.ForeignKey(SidResolution, on_delete=models.CASCADE, related_name="charges",
                                   verbose_name=_("resolución"))
    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="sid_charges",
                               verbose_name=_("parcela"))
    annual_charge = models.DecimalField(_("cargo anual"), validators=POSITIVE, **MONEY)
    history = HistoricalRecords()

    class Meta:
        ordering = ["resolution", "parcel__cadastre"]
        verbose_name = _("cargo por beneficio SID")
        verbose_name_plural = _("cargos por beneficio SID")
        constraints = [
            models.UniqueConstraint(fields=["resolution", "parcel"], name="uniq_sid_charge_parcel"),
            models.CheckConstraint(condition=models.Q(annual_charge__gte=0), name="sid_charge_not_negative"),
        ]

    def get_absolute_url(self) -> str:
        return self.resolution.get_absolute_url()

    def __str__(self) -> str:
        return f"{self.parcel} {self.annual_charge}"


class SidNoticeRound(TimeStampedModel):
    """SID-2: CRIM's regular-mail notice to every owner — the first within 180 days of receiving
    the resolution, then every year until the term ends."""

    resolution = models.ForeignKey(SidResolution, on_delete=models.CASCADE, related_name="notice_rounds",
                                   verbose_name=_("resolución"))
    sequence = models.PositiveSmallIntegerField(_("año del término"))
    fiscal_year = models.PositiveSmallIntegerField(_("año fiscal"))
    due_on = models.DateField(_("notificar a más tardar"))
    moved_from = models.DateField(_("fecha sin mover"), null=True, blank=True)
    mailed_on = models.DateField(_("enviada el"), null=True, blank=True)

    class Meta:
        ordering = ["resolution", "sequence"]
        verbose_name = _("notificación anual SID")
        verbose_name_plural = _("notificaciones anuales SID")
        constraints = [models.UniqueConstraint(fields=["resolution", "sequence"], name="uniq_sid_notice_round")]

    def is_late(self, today: date) -> bool:
        return rules.is_late(self.due_on, self.mailed_on, today)

    def get_absolute_url(self) -> str:
        return self.resolution.get_absolute_url() + "#notificaciones"

    def __str__(self) -> str:
        return f"SID-2 {self.resolution.number} #{self.sequence} ≤ {self.due_on.isoformat()}"


class SidCollectionBatch(TimeStampedModel):
    """SID-3: a batch of collections CRIM received; 5 % retained, the rest remitted within 90 days."""

    resolution = models.ForeignKey(SidResolution, on_delete=models.PROTECT, related_name="batches",
                                   verbose_name=_("resolución"))
    reference = models.CharField(_("referencia del CRIM"), max_length=60, blank=True)
    received_on = models.DateField(_("recibido el"))
    collected = models.DecimalField(_("recaudado"), validators=POSITIVE, **MONEY)
    retention_pct = models.DecimalField(_("retención del CRIM (%)"), editable=False, **PCT)
    retained = models.DecimalField(_("retenido por el CRIM"), editable=False, **MONEY)
    remitted = models.DecimalField(_("a remitir a la Autoridad"), editable=False, **MONEY)
    parameters_label = models.CharField(_("parámetros"), max_length=80, editable=False)
    remittance_due_on = models.DateField(_("remitir a más tardar"), editable=False)
    remittance_moved_from = models.DateField(_("fecha sin mover"), null=True, blank=True, editable=False)
    remitted_on = models.DateField(_("remitido el"), null=True, blank=True)
    remitted_late = models.BooleanField(_("remitido tarde"), default=False, editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["resolution", "received_on", "id"]
        verbose_name = _("lote de recaudos SID")
        verbose_name_plural = _("lotes de recaudos SID")
        constraints = [
            models.UniqueConstraint(fields=["resolution", "received_on", "reference"], name="uniq_sid_batch"),
            models.CheckConstraint(condition=models.Q(retained__gte=0) & models.Q(remitted__gte=0),
                                   name="sid_batch_amounts_not_negative"),
        ]

    def is_late(self, today: date) -> bool:
        return rules.is_late(self.remittance_due_on, self.remitted_on, today)

    def get_absolute_url(self) -> str:
        return self.resolution.get_absolute_url() + "#lotes"

    def __str__(self) -> str:
        return f"{self.resolution.number} {self.received_on.isoformat()} {self.collected}"


class SidRefund(TimeStampedModel):
    """SID-5: the refund of everything owners paid when the project was not carried out, with its
    sources recorded separately; CRIM's retention is flagged for recovery from CRIM."""

    resolution = models.OneToOneField(SidResolution, on_delete=models.PROTECT, related_name="refund",
                                      verbose_name=_("resolución"))
    decided_on = models.DateField(_("decidido el"))
    total = models.DecimalField(_("total a devolver"), **MONEY)
    from_authority = models.DecimalField(_("de lo remitido a la Autoridad (95 %)"), **MONEY)
    from_fund = models.DecimalField(_("del balance no distribuido del fondo"), **MONEY)
    from_crim = models.DecimalField(_("de la retención del CRIM (5 %)"), **MONEY)
    crim_recovery_pending = models.BooleanField(_("recobro pendiente del CRIM"), default=False)
    crim_recovered_on = models.DateField(_("recobrado del CRIM el"), null=True, blank=True)
    notes = models.TextField(_("notas"), blank=True)

    class Meta:
        verbose_name = _("devolución SID")
        verbose_name_plural = _("devoluciones SID")
        # The sources add up to the total (rules.refund_plan); not a CHECK: SQLite sums decimals as floats.

    def get_absolute_url(self) -> str:
        return self.resolution.get_absolute_url() + "#devolucion"

    def __str__(self) -> str:
        return f"SID-5 {self.resolution.number}: {self.total}"


class SidRefundLine(models.Model):
    refund = models.ForeignKey(SidRefund, on_delete=models.CASCADE, related_name="lines",
                               verbose_name=_("devolución"))
    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="+", verbose_name=_("parcela"))
    party = models.ForeignKey(Party, on_delete=models.PROTECT, related_name="+", verbose_name=_("dueño"))
    paid = models.DecimalField(_("pagado"), **MONEY)
    from_authority = models.DecimalField(_("Autoridad"), **MONEY)
    from_fund = models.DecimalField(_("fondo"), **MONEY)
    from_crim = models.DecimalField(_("CRIM"), **MONEY)

    class Meta:
        ordering = ["refund", "parcel__cadastre", "party_id"]
        verbose_name = _("línea de devolución SID")
        verbose_name_plural = _("líneas de devolución SID")
        constraints = [models.UniqueConstraint(fields=["refund", "parcel", "party"], name="uniq_sid_refund_line")]

    def __str__(self) -> str:
        return f"{self.parcel} {self.party}: {self.paid}"


# === TID — tourism improvement districts law ===================================================

class TidPetition(TimeStampedModel):
    """TID-1: the mayor's petition to the Municipal Legislature."""

    class Status(models.TextChoices):
        RECEIVED = "RECEIVED", _("Recibida por la Legislatura")
        DENIED = "DENIED", _("Denegada por la Legislatura")
        ORDINANCE = "ORDINANCE", _("Ordenanza aprobada por la Legislatura")
        APPROVED = "APPROVED", _("Aprobada por el alcalde")
        DISAPPROVED = "DISAPPROVED", _("Desaprobada por el alcalde")
        PUBLISHED = "PUBLISHED", _("Ordenanza publicada")

    district = models.ForeignKey(District, on_delete=models.PROTECT, related_name="tid_petitions",
                                 limit_choices_to={"kind": District.Kind.TID}, verbose_name=_("distrito"))
    municipality = models.ForeignKey(Municipality, on_delete=models.PROTECT, related_name="tid_petitions",
                                     verbose_name=_("municipio"))
    petition_text = models.TextField(_("petición del alcalde"))
    legislature_received_on = models.DateField(
        _("recibida por la Legislatura"), help_text=_("Inicia el plazo de 90 días para la ordenanza (TID-1)."))
    ordinance_due_on = models.DateField(_("ordenanza a más tardar"), editable=False)
    ordinance_due_moved_from = models.DateField(null=True, blank=True, editable=False)
    status = models.CharField(_("estado"), max_length=12, choices=Status.choices, default=Status.RECEIVED,
                              editable=False)
    denied_on = models.DateField(_("denegada el"), null=True, blank=True, editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-legislature_received_on", "-id"]
        verbose_name = _("petición TID")
        verbose_name_plural = _("peticiones TID")

    def clean(self):
        if self.district_id and self.district.kind != District.Kind.TID:
            raise ValidationError({"district": _("La petición debe ser de un distrito de mejoramiento turístico "
                                                 "(TID).")})

    def get_absolute_url(self) -> str:
        return reverse("improvement:tid_detail", args=[self.pk])

    def __str__(self) -> str:
        return f"{self.district.name} — {_('petición de')} {self.municipality}"


class TidFactorFinding(TimeStampedModel):
    """TID-1: the Legislature's finding on one of the five factors (a)–(e)."""

    class Factor(models.TextChoices):
        A = "a", _("(a) Las manifestaciones de la petición se establecieron como verídicas y correctas.")
        B = "b", _("(b) Es consistente con los planes municipales de uso de terreno, infraestructura y servicios.")
        C = "c", _("(c) El área es de suficiente tamaño y suficientemente compacta.")
        D = "d", _("(d) Los proyectos son compatibles con la capacidad y usos de las facilidades y servicios "
                   "municipales existentes.")
        E = "e", _("(e) El distrito es una buena alternativa para proveer servicios y facilidades de desarrollo "
                   "turístico.")

    class Finding(models.TextChoices):
        FAVORABLE = "FAVORABLE", _("Favorable")
        UNFAVORABLE = "UNFAVORABLE", _("Desfavorable")

    petition = models.ForeignKey(TidPetition, on_delete=models.CASCADE, related_name="findings",
                                 verbose_name=_("petición"))
    factor = models.CharField(_("factor"), max_length=1, choices=Factor.choices)
    finding = models.CharField(_("determinación"), max_length=12, choices=Finding.choices)
    notes = models.TextField(_("notas"), blank=True)

    class Meta:
        ordering = ["petition", "factor"]
        verbose_name = _("determinación sobre un factor TID")
        verbose_name_plural = _("determinaciones sobre factores TID")
        constraints = [models.UniqueConstraint(fields=["petition", "factor"], name="uniq_tid_factor")]

    @property
    def text(self) -> str:
        return self.get_factor_display()

    def __str__(self) -> str:
        return f"({self.factor}) {self.get_finding_display()}"


class TidOrdinance(TimeStampedModel):
    """TID-2: the municipal ordinance (name, expected amount, term, formula), then TID-1's mayor's
    decision and publication, TID-3's collector and TID-4's association."""

    class Decision(models.TextChoices):
        PENDING = "PENDING", _("Pendiente")
        APPROVED = "APPROVED", _("Aprobada")
        DISAPPROVED = "DISAPPROVED", _("Desaprobada")

    class Collector(models.TextChoices):
        CRIM = "CRIM", _("CRIM")
        ASSOCIATION = "ASSOCIATION", _("Asociación del distrito")

    petition = models.OneToOneField(TidPetition, on_delete=models.PROTECT, related_name="ordinance",
                                    verbose_name=_("petición"))
    number = models.CharField(_("número de ordenanza"), max_length=40)
    name = models.CharField(_("nombre del distrito"), max_length=200)
    issued_on = models.DateField(_("aprobada por la Legislatura el"))
    issued_late = models.BooleanField(_("emitida fuera de término"), default=False, editable=False)
    expected_amount = models.DecimalField(_("cantidad que se espera recaudar"), validators=POSITIVE, **MONEY)
    term_years = models.PositiveSmallIntegerField(_("término (años)"), validators=[MinValueValidator(1),
                                                                                    MaxValueValidator(60)])
    first_fiscal_year = models.PositiveSmallIntegerField(_("primer año fiscal"), validators=[
        MinValueValidator(1950), MaxValueValidator(2200)])
    formula = models.TextField(_("fórmula del cargo anual"))
    due_dates = models.JSONField(_("fechas de vencimiento (MM-DD)"), default=list, blank=True)
    association_authorized = models.BooleanField(_("autoriza a la asociación a cobrar (TID-3)"), default=False)
    # TID-1: the mayor
    mayor_received_on = models.DateField(_("recibida por el alcalde"), null=True, blank=True)
    mayor_due_on = models.DateField(_("decisión del alcalde a más tardar"), null=True, blank=True, editable=False)
    mayor_decision = models.CharField(_("decisión del alcalde"), max_length=12, choices=Decision.choices,
                                      default=Decision.PENDING, editable=False)
    decided_on = models.DateField(_("decidida el"), null=True, blank=True, editable=False)
    decided_late = models.BooleanField(_("decidida fuera de término"), default=False, editable=False)
    # TID-1: publication, once, in the week after approval
    publication_due_on = models.DateField(_("publicar a más tardar"), null=True, blank=True, editable=False)
    newspaper = models.CharField(_("periódico"), max_length=120, blank=True, editable=False)
    published_on = models.DateField(_("publicada el"), null=True, blank=True, editable=False)
    # TID-3 / TID-4
    collector = models.CharField(_("cobrador"), max_length=12, choices=Collector.choices, default=Collector.CRIM,
                                 editable=False)
    copy_sent_to_crim_on = models.DateField(_("copia enviada al CRIM el"), null=True, blank=True, editable=False)
    association = models.ForeignKey(Party, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="tid_ordinances", limit_choices_to={"kind": Party.Kind.ORGANIZATION},
                                    verbose_name=_("asociación"), editable=False)
    association_received_on = models.DateField(_("recibida por la asociación"), null=True, blank=True,
                                               editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-issued_on", "-id"]
        verbose_name = _("ordenanza TID")
        verbose_name_plural = _("ordenanzas TID")

    @property
    def district(self) -> District:
        return self.petition.district

    @property
    def fiscal_years(self) -> range:
        return rules.term_fiscal_years(self.first_fiscal_year, self.term_years)

    @property
    def last_fiscal_year(self) -> int:
        return self.first_fiscal_year + self.term_years - 1

    @property
    def in_force(self) -> bool:
        """Approved by the mayor and published: its charges may be imposed."""
        return self.mayor_decision == self.Decision.APPROVED and self.published_on is not None

    @property
    def published_late(self) -> bool:
        """TID-1: published after the week following the mayor's approval (flagged, still in force)."""
        return bool(self.published_on and self.publication_due_on and self.published_on > self.publication_due_on)

    def due_dates_for(self, fiscal_year: int) -> list[date]:
        return rules.due_dates_in_fiscal_year(self.due_dates or [], fiscal_year)

    def clean(self):
        problem = _month_days_errors(self.due_dates or [])
        if problem:
            raise ValidationError({"due_dates": problem})

    def get_absolute_url(self) -> str:
        return self.petition.get_absolute_url() + "#ordenanza"

    def __str__(self) -> str:
        return f"{_('Ordenanza')} {self.number} — {self.name}"


class TidNoticeRound(TimeStampedModel):
    """TID-4: the association's certified-mail notice to every owner — the first within 30 days of
    receiving the ordinance, then at least yearly until the term ends."""

    ordinance = models.ForeignKey(TidOrdinance, on_delete=models.CASCADE, related_name="notice_rounds",
                                  verbose_name=_("ordenanza"))
    sequence = models.PositiveSmallIntegerField(_("año del término"))
    fiscal_year = models.PositiveSmallIntegerField(_("año fiscal"))
    due_on = models.DateField(_("notificar a más tardar"))
    moved_from = models.DateField(_("fecha sin mover"), null=True, blank=True)
    mailed_on = models.DateField(_("enviada por correo certificado el"), null=True, blank=True)

    class Meta:
        ordering = ["ordinance", "sequence"]
        verbose_name = _("notificación anual TID")
        verbose_name_plural = _("notificaciones anuales TID")
        constraints = [models.UniqueConstraint(fields=["ordinance", "sequence"], name="uniq_tid_notice_round")]

    def is_late(self, today: date) -> bool:
        return rules.is_late(self.due_on, self.mailed_on, today)

    def get_absolute_url(self) -> str:
        return self.ordinance.petition.get_absolute_url() + "#cobrador"

    def __str__(self) -> str:
        return f"TID-4 {self.ordinance.number} #{self.sequence} ≤ {self.due_on.isoformat()}"


class TidAccountEntry(TimeStampedModel):
    """TID-5: a movement of the association's special bank account."""

    class Kind(models.TextChoices):
        DEPOSIT = "DEPOSIT", _("Depósito de recaudos")
        EXPENSE = "EXPENSE", _("Gasto")

    ordinance = models.ForeignKey(TidOrdinance, on_delete=models.PROTECT, related_name="account_entries",
                                  verbose_name=_("ordenanza"))
    kind = models.CharField(_("tipo"), max_length=8, choices=Kind.choices)
    entry_date = models.DateField(_("fecha"))
    amount = models.DecimalField(_("monto"), validators=[MinValueValidator(Decimal("0.01"))], **MONEY)
    purpose = models.CharField(_("propósito"), max_length=240)
    admin_expense = models.BooleanField(_("gasto administrativo (tope 5 %)"), default=False)
    supporting_document = models.FileField(_("documento de apoyo"), upload_to="improvement/tid/", blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["ordinance", "entry_date", "id"]
        verbose_name = _("movimiento de la cuenta TID")
        verbose_name_plural = _("movimientos de la cuenta TID")
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="tid_entry_amount_positive"),
            models.CheckConstraint(condition=models.Q(kind="EXPENSE") | models.Q(admin_expense=False),
                                   name="tid_entry_admin_is_expense"),
        ]

    def get_absolute_url(self) -> str:
        return self.ordinance.petition.get_absolute_url() + "#cuenta"

    def __str__(self) -> str:
        return f"{self.entry_date.isoformat()} {self.get_kind_display()} {self.amount}"


class TidAudit(TimeStampedModel):
    """TID-5: the yearly CPA audit of the special account."""

    ordinance = models.ForeignKey(TidOrdinance, on_delete=models.PROTECT, related_name="audits",
                                  verbose_name=_("ordenanza"))
    fiscal_year = models.PositiveSmallIntegerField(_("año fiscal auditado"))
    cpa_name = models.CharField(_("contador público autorizado"), max_length=160)
    report = models.FileField(_("informe"), upload_to="improvement/tid-audits/", blank=True)
    received_on = models.DateField(_("recibido el"))

    class Meta:
        ordering = ["ordinance", "fiscal_year"]
        verbose_name = _("auditoría anual TID")
        verbose_name_plural = _("auditorías anuales TID")
        constraints = [models.UniqueConstraint(fields=["ordinance", "fiscal_year"], name="uniq_tid_audit_year")]

    def get_absolute_url(self) -> str:
        return self.ordinance.petition.get_absolute_url() + "#cuenta"

    def __str__(self) -> str:
        return f"FY{self.fiscal_year} — {self.cpa_name}"
