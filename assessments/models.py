"""The money core: funds, accounts, receivables and installments, the append-only ledger,
payments and receipts, cashier batches, adjustments and bank files.

Sign convention of the ledger: a positive amount is owed by the account (charge, surcharge,
refund of a credit), a negative amount reduces what it owes (payment, credit, write-off). An
account's balance is the sum of its entries; a negative balance is a credit in its favour.
Each entry carries a `component`: PRINCIPAL or SURCHARGE of an installment, or CREDIT for the
account's unapplied money (entries with no installment).
"""
from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.models import TimeStampedModel
from liens.models import Lien

MONEY = {"max_digits": 14, "decimal_places": 2}
USER = settings.AUTH_USER_MODEL


class Fund(TimeStampedModel):
    """Where collections go: the irrigation fund, the Lajas *Fondo de Explotación*, the franchise
    special fund (FRA-4), the *Fondo de Distritos Especiales de Mejoramiento* (SID-3), a TID
    association's account (TID-5)."""

    code = models.SlugField(_("código"), max_length=40, unique=True)
    name = models.CharField(_("nombre"), max_length=200)
    lien_kind = models.CharField(_("gravamen que crean sus cargos"), max_length=22, choices=Lien.Kind.choices,
                                 blank=True, help_text=_("Tipo de gravamen (LIEN-1) que registran sus cargos."))
    finances_public_infrastructure = models.BooleanField(_("financia infraestructura pública (TID-6 d)"),
                                                         default=False)
    citation = models.CharField(_("base legal"), max_length=300, blank=True)
    is_active = models.BooleanField(_("activo"), default=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("fondo")
        verbose_name_plural = _("fondos")

    def __str__(self) -> str:
        return self.name


class Account(TimeStampedModel):
    """Who owes: a parcel (charges follow the land, so a sale keeps its open charges here) or a
    franchise holder. One account per parcel and per party."""

    parcel = models.OneToOneField("districts.Parcel", on_delete=models.PROTECT, null=True, blank=True,
                                  related_name="account", verbose_name=_("parcela"))
    party = models.OneToOneField("districts.Party", on_delete=models.PROTECT, null=True, blank=True,
                                 related_name="account", verbose_name=_("concesionario"))
    # Cached sum of the ledger, updated under the account's row lock with every posting.
    balance = models.DecimalField(_("saldo"), default=Decimal("0.00"), **MONEY)

    class Meta:
        ordering = ["id"]
        verbose_name = _("cuenta")
        verbose_name_plural = _("cuentas")
        constraints = [
            models.CheckConstraint(condition=(Q(parcel__isnull=False) & Q(party__isnull=True))
                                   | (Q(parcel__isnull=True) & Q(party__isnull=False)),
                                   name="account_parcel_xor_party"),
        ]

    @property
    def number(self) -> str:
        return f"C-{self.pk:07d}"

    @property
    def holder_label(self) -> str:
        if self.parcel_id:
            return str(self.parcel)
        return str(self.party)

    def get_absolute_url(self) -> str:
        return reverse("assessments:account", args=[self.pk])

    def __str__(self) -> str:
        kind = _("Parcela") if self.parcel_id else _("Concesionario")
        return f"{self.number} · {kind} {self.holder_label}"


class Receivable(TimeStampedModel):
    """A charge document: a roll line, an invoice, a benefit charge, a water sale."""

    class Kind(models.TextChoices):
        ROLL_LINE = "ROLL_LINE", _("Línea de padrón")
        INVOICE = "INVOICE", _("Factura")
        BENEFIT_CHARGE = "BENEFIT_CHARGE", _("Cargo por beneficio")
        WATER_SALE = "WATER_SALE", _("Venta de agua")
        OTHER = "OTHER", _("Otro")

    class SurchargeRule(models.TextChoices):
        NONE = "NONE", _("Sin recargo")
        LAJ7 = "LAJ-7", _("LAJ-7 (½ % por mes o fracción tras 60 días)")
        IRR9 = "IRR-9", _("IRR-9 (morosidad de la contribución sobre la propiedad)")
        RESOLUTION = "RESOLUTION", _("Términos de la resolución (SID-1)")

    class Status(models.TextChoices):
        OPEN = "OPEN", _("Pendiente")
        PAID = "PAID", _("Pagado")
        WRITTEN_OFF = "WRITTEN_OFF", _("Dado de baja")

    kind = models.CharField(_("tipo"), max_length=16, choices=Kind.choices)
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="receivables",
                                verbose_name=_("cuenta"))
    fund = models.ForeignKey(Fund, on_delete=models.PROTECT, related_name="receivables", verbose_name=_("fondo"))
    office = models.ForeignKey("districts.Office", on_delete=models.PROTECT, related_name="receivables",
                               verbose_name=_("oficina que cobra"))
    source_type = models.CharField(_("tipo de origen"), max_length=60)
    source_id = models.CharField(_("identificador de origen"), max_length=100)
    description = models.CharField(_("descripción"), max_length=300)
    breakdown = models.JSONField(_("desglose y citas"), default=dict, blank=True)
    surcharge_rule = models.CharField(_("recargo"), max_length=10, choices=SurchargeRule.choices,
                                      default=SurchargeRule.NONE)
    surcharge_terms = models.JSONField(
        _("términos del recargo (resolución)"), default=dict, blank=True,
        help_text=_("Para RESOLUTION: grace_days, surcharge_pct, interest_pct_per_month, citation."))
    payment_reference = models.CharField(_("referencia de pago"), max_length=16, unique=True)
    creates_lien = models.BooleanField(_("crea gravamen"), default=False)
    issued_on = models.DateField(_("fecha de emisión"))
    amount = models.DecimalField(_("importe"), **MONEY)
    status = models.CharField(_("estado"), max_length=12, choices=Status.choices, default=Status.OPEN,
                              db_index=True)
    created_by = models.ForeignKey(USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["issued_on", "id"]
        verbose_name = _("cargo")
        verbose_name_plural = _("cargos")
        constraints = [models.UniqueConstraint(fields=["source_type", "source_id"], name="uniq_receivable_source")]
        indexes = [models.Index(fields=["account", "status"])]

    LIEN_ORIGIN = "assessments.receivable"

    def __str__(self) -> str:
        return f"{self.payment_reference} · {self.description}"


class Installment(models.Model):
    receivable = models.ForeignKey(Receivable, on_delete=models.PROTECT, related_name="installments",
                                   verbose_name=_("cargo"))
    seq = models.PositiveSmallIntegerField(_("plazo"))
    due_date = models.DateField(_("vence"), db_index=True)
    amount = models.DecimalField(_("importe"), validators=[MinValueValidator(Decimal("0"))], **MONEY)

    class Meta:
        ordering = ["due_date", "receivable_id", "seq"]
        verbose_name = _("plazo")
        verbose_name_plural = _("plazos")
        constraints = [
            models.UniqueConstraint(fields=["receivable", "seq"], name="uniq_installment_seq"),
            models.CheckConstraint(condition=Q(amount__gte=0), name="installment_amount_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.receivable.payment_reference}/{self.seq} {self.due_date} {self.amount}"


class Counter(models.Model):
    """A gapless number series (receipts per year, payment references), taken under a row lock."""

    key = models.CharField(max_length=40, primary_key=True)
    value = models.BigIntegerField(default=0)

    class Meta:
        verbose_name = _("contador")
        verbose_name_plural = _("contadores")

    def __str__(self) -> str:
        return f"{self.key}={self.value}"


class CashierBatch(TimeStampedModel):
    """A cashier's drawer for one business day (*lote de caja*). A closed batch is read-only."""

    class Status(models.TextChoices):
        OPEN = "OPEN", _("Abierto")
        CLOSED = "CLOSED", _("Cerrado")

    cashier = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="cashier_batches",
                                verbose_name=_("cajero"))
    business_date = models.DateField(_("fecha de operaciones"))
    status = models.CharField(_("estado"), max_length=6, choices=Status.choices, default=Status.OPEN)
    counted = models.JSONField(_("contado por método"), default=dict, blank=True)
    recorded = models.JSONField(_("registrado por método"), default=dict, blank=True)
    closed_at = models.DateTimeField(_("cerrado"), null=True, blank=True)

    class Meta:
        ordering = ["-business_date", "-id"]
        verbose_name = _("lote de caja")
        verbose_name_plural = _("lotes de caja")
        constraints = [models.UniqueConstraint(fields=["cashier", "business_date"], condition=Q(status="OPEN"),
                                               name="uniq_open_batch_per_cashier_day")]

    def get_absolute_url(self) -> str:
        return reverse("assessments:batch", args=[self.pk])

    def __str__(self) -> str:
        return f"{_('Lote')} {self.pk} · {self.cashier} · {self.business_date}"


class Payment(TimeStampedModel):
    """Money received, with its receipt number (gapless per year)."""

    class Method(models.TextChoices):
        CASH = "CASH", _("Efectivo")
        CHECK = "CHECK", _("Cheque")
        MONEY_ORDER = "MONEY_ORDER", _("Giro postal")
        CARD = "CARD", _("Tarjeta")
        TRANSFER = "TRANSFER", _("Transferencia")

    class Status(models.TextChoices):
        POSTED = "POSTED", _("Registrado")
        RETURNED = "RETURNED", _("Devuelto")

    class Source(models.TextChoices):
        CASHIER = "CASHIER", _("Caja")
        BANK = "BANK", _("Archivo bancario")
        API = "API", _("API")

    receipt_number = models.CharField(_("número de recibo"), max_length=20, unique=True)
    receipt_year = models.PositiveSmallIntegerField(_("año del recibo"))
    receipt_seq = models.PositiveIntegerField(_("secuencia del recibo"))
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="payments", verbose_name=_("cuenta"))
    paid_on = models.DateField(_("fecha de pago"))
    method = models.CharField(_("forma de pago"), max_length=12, choices=Method.choices)
    amount = models.DecimalField(_("importe"), validators=[MinValueValidator(Decimal("0.01"))], **MONEY)
    payer_name = models.CharField(_("pagador"), max_length=200, blank=True)
    payer_party = models.ForeignKey("districts.Party", on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="payments", verbose_name=_("pagador (registro)"))
    check_number = models.CharField(_("número de cheque o giro"), max_length=40, blank=True)
    reference = models.CharField(_("referencia"), max_length=40, blank=True)
    source = models.CharField(_("origen"), max_length=8, choices=Source.choices, default=Source.CASHIER)
    idempotency_key = models.CharField(_("clave de idempotencia"), max_length=100, unique=True)
    batch = models.ForeignKey(CashierBatch, on_delete=models.PROTECT, null=True, blank=True, related_name="payments",
                              verbose_name=_("lote"))
    status = models.CharField(_("estado"), max_length=8, choices=Status.choices, default=Status.POSTED)
    returned_on = models.DateField(_("devuelto el"), null=True, blank=True)
    return_reason = models.CharField(_("motivo de la devolución"), max_length=300, blank=True)
    recorded_by = models.ForeignKey(USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                                    verbose_name=_("registrado por"))

    class Meta:
        ordering = ["-paid_on", "-id"]
        verbose_name = _("pago")
        verbose_name_plural = _("pagos")
        constraints = [
            models.UniqueConstraint(fields=["receipt_year", "receipt_seq"], name="uniq_receipt_year_seq"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="payment_amount_positive"),
        ]

    def get_absolute_url(self) -> str:
        return reverse("assessments:payment", args=[self.pk])

    def __str__(self) -> str:
        return f"{_('Recibo')} {self.receipt_number} · {self.amount}"


class Adjustment(TimeStampedModel):
    """A request to adjust, write off or refund, decided by someone other than the requester."""

    class Kind(models.TextChoices):
        ADJUSTMENT = "ADJUSTMENT", _("Ajuste")
        WRITE_OFF = "WRITE_OFF", _("Baja de deuda")
        REFUND = "REFUND", _("Reembolso de crédito")

    class Status(models.TextChoices):
        PENDING = "PENDING", _("Pendiente")
        APPROVED = "APPROVED", _("Aprobado")
        REJECTED = "REJECTED", _("Rechazado")

    kind = models.CharField(_("tipo"), max_length=10, choices=Kind.choices)
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="adjustments",
                                verbose_name=_("cuenta"))
    receivable = models.ForeignKey(Receivable, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="adjustments", verbose_name=_("cargo"))
    installment = models.ForeignKey(Installment, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="adjustments", verbose_name=_("plazo"))
    amount = models.DecimalField(_("importe"), **MONEY,
                                 help_text=_("Ajuste: positivo aumenta la deuda, negativo la reduce. "
                                             "Baja y reembolso: importe positivo."))
    effective_date = models.DateField(_("fecha efectiva"))
    reason = models.TextField(_("motivo"))
    status = models.CharField(_("estado"), max_length=8, choices=Status.choices, default=Status.PENDING,
                              db_index=True)
    requested_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("solicitado por"))
    decided_by = models.ForeignKey(USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                                   verbose_name=_("decidido por"))
    decided_at = models.DateTimeField(_("decidido"), null=True, blank=True)
    decision_note = models.CharField(_("nota de la decisión"), max_length=300, blank=True)
    # Whose credit (a refund's payee, or whom an account-level decrease credits): credits belong to the payer.
    payee_party = models.ForeignKey("districts.Party", on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="+", verbose_name=_("beneficiario"))
    payee_name = models.CharField(_("beneficiario (nombre)"), max_length=200, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("ajuste")
        verbose_name_plural = _("ajustes")
        constraints = [
            # Four eyes: whoever requested cannot decide.
            models.CheckConstraint(condition=~Q(decided_by=F("requested_by")), name="adjustment_decider_not_requester"),
            models.CheckConstraint(condition=~Q(amount=0), name="adjustment_amount_not_zero"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.amount} · {self.account}"


class LedgerEntry(models.Model):
    """One line of the append-only ledger. The database refuses UPDATE and DELETE (migration 0002);
    corrections are new entries (REVERSAL, ADJUSTMENT)."""

    class Kind(models.TextChoices):
        CHARGE = "CHARGE", _("Cargo")
        PAYMENT = "PAYMENT", _("Pago")
        SURCHARGE = "SURCHARGE", _("Recargo")
        ADJUSTMENT = "ADJUSTMENT", _("Ajuste")
        WRITE_OFF = "WRITE_OFF", _("Baja")
        REFUND = "REFUND", _("Reembolso")
        REVERSAL = "REVERSAL", _("Reversión")
        CREDIT_APPLIED = "CREDIT_APPLIED", _("Crédito aplicado")
        CREDIT = "CREDIT", _("Crédito")

    class Component(models.TextChoices):
        PRINCIPAL = "PRINCIPAL", _("Principal")
        SURCHARGE = "SURCHARGE", _("Recargo")
        CREDIT = "CREDIT", _("Crédito no aplicado")

    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries", verbose_name=_("cuenta"))
    receivable = models.ForeignKey(Receivable, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="entries", verbose_name=_("cargo"))
    installment = models.ForeignKey(Installment, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="entries", verbose_name=_("plazo"))
    kind = models.CharField(_("tipo"), max_length=14, choices=Kind.choices)
    component = models.CharField(_("componente"), max_length=9, choices=Component.choices)
    amount = models.DecimalField(_("importe"), **MONEY)
    effective_date = models.DateField(_("fecha efectiva"))
    posted_at = models.DateTimeField(_("asentado"), default=timezone.now)
    payment = models.ForeignKey(Payment, on_delete=models.PROTECT, null=True, blank=True, related_name="entries",
                                verbose_name=_("pago"))
    adjustment = models.ForeignKey(Adjustment, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="entries", verbose_name=_("ajuste"))
    reverses = models.ForeignKey("self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversals",
                                 verbose_name=_("revierte"))
    memo = models.CharField(_("nota"), max_length=300, blank=True)
    rule = models.CharField(_("regla"), max_length=12, blank=True)
    actor = models.ForeignKey(USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                              verbose_name=_("usuario"))
    # On CREDIT-component entries: whose credit it is (the payer of the overpayment, or of the payment a
    # decrease gives back). Credits belong to the payer, not to the parcel (issue #16). Blank: the account's.
    credit_party = models.ForeignKey("districts.Party", on_delete=models.PROTECT, null=True, blank=True,
                                     related_name="+", verbose_name=_("crédito de (persona)"))
    credit_payer = models.CharField(_("crédito de"), max_length=200, blank=True, default="", db_default="")

    class Meta:
        ordering = ["effective_date", "id"]
        verbose_name = _("asiento")
        verbose_name_plural = _("libro mayor")
        indexes = [models.Index(fields=["account", "effective_date"]),
                   models.Index(fields=["kind", "effective_date"])]
        constraints = [
            models.CheckConstraint(condition=Q(installment__isnull=True, component="CREDIT")
                                   | Q(installment__isnull=False, receivable__isnull=False)
                                   & ~Q(component="CREDIT"),
                                   name="ledger_component_matches_installment"),
        ]

    def __str__(self) -> str:
        return f"{self.effective_date} {self.kind} {self.amount}"


class BankFile(models.Model):
    """A bank's payment file; the same content (sha256) is imported once."""

    sha256 = models.CharField(max_length=64, unique=True)
    filename = models.CharField(_("archivo"), max_length=200)
    uploaded_by = models.ForeignKey(USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                                    verbose_name=_("importado por"))
    uploaded_at = models.DateTimeField(_("importado"), default=timezone.now)
    report = models.JSONField(_("conciliación"), default=dict, blank=True)

    class Meta:
        ordering = ["-uploaded_at", "-id"]
        verbose_name = _("archivo bancario")
        verbose_name_plural = _("archivos bancarios")

    def get_absolute_url(self) -> str:
        return reverse("assessments:bankfile", args=[self.pk])

    def __str__(self) -> str:
        return f"{self.filename} ({self.uploaded_at:%Y-%m-%d})"


class BankFileLine(models.Model):
    class Status(models.TextChoices):
        MATCHED = "MATCHED", _("Conciliada")
        UNMATCHED = "UNMATCHED", _("Sin conciliar")
        DUPLICATE = "DUPLICATE", _("Duplicada")

    bank_file = models.ForeignKey(BankFile, on_delete=models.PROTECT, related_name="lines")
    line_no = models.PositiveIntegerField(_("línea"))
    reference = models.CharField(_("referencia"), max_length=40, blank=True)
    amount = models.DecimalField(_("importe"), null=True, blank=True, **MONEY)
    paid_on = models.DateField(_("fecha"), null=True, blank=True)
    bank_ref = models.CharField(_("referencia del banco"), max_length=60, blank=True)
    status = models.CharField(_("estado"), max_length=9, choices=Status.choices)
    payment = models.ForeignKey(Payment, on_delete=models.PROTECT, null=True, blank=True, related_name="bank_lines")
    message = models.CharField(_("nota"), max_length=300, blank=True)

    class Meta:
        ordering = ["bank_file", "line_no"]
        verbose_name = _("línea de archivo bancario")
        verbose_name_plural = _("líneas de archivo bancario")
        constraints = [models.UniqueConstraint(fields=["bank_file", "line_no"], name="uniq_bankfile_line")]

    def __str__(self) -> str:
        return f"{self.bank_file_id}:{self.line_no} {self.reference} {self.amount} {self.status}"
