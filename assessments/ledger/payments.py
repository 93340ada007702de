"""Payments and returned payments (docs/rules/README.md#payments)."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from assessments.ledger.allocation import allocate, refresh_receivables
from assessments.ledger.common import CREDIT, credit_pool, lock_account, post, take_numbers, user_or_none
from assessments.ledger.surcharges import TermsCache
from assessments.models import Account, CashierBatch, LedgerEntry, Payment
from core.audit import audit
from core.money import CENT, ZERO, sum_cents, to_decimal

NEEDS_DOCUMENT_NUMBER = {Payment.Method.CHECK, Payment.Method.MONEY_ORDER}


def _clean_amount(amount) -> Decimal:
    try:
        value = to_decimal(amount)
    except (TypeError, ValueError):
        raise ValidationError({"amount": _("Importe inválido.")}) from None
    if not value.is_finite() or value <= 0:
        raise ValidationError({"amount": _("El importe debe ser mayor que cero.")})
    if value != value.quantize(CENT):
        raise ValidationError({"amount": _("El importe tiene más de dos decimales.")})
    return value.quantize(CENT)


def _payer(payer) -> tuple[str, object]:
    from districts.models import Party

    if isinstance(payer, Party):
        return payer.display_name[:200], payer
    return str(payer or "")[:200], None


def payment_record(**kwargs) -> Payment:
    """The payment recorded (or already recorded under the same key): see `payment_record_outcome`."""
    return payment_record_outcome(**kwargs)[0]


@transaction.atomic
def payment_record_outcome(*, account: Account, amount, method: str, paid_on: date, payer, idempotency_key: str,
                           batch: CashierBatch | None, actor, check_number: str = "", reference: str = "",
                           source: str = Payment.Source.CASHIER, params=None, memo: str = "") -> tuple[Payment, bool]:
    """Record money received and apply it: oldest due first, surcharge accrued to `paid_on` first
    (posted now as SURCHARGE entries), then principal; what is left is a CREDIT.

    Idempotent on `idempotency_key`: the same key returns the payment already recorded, and
    `created` (the second value) is False. Whether it was recorded is decided under the account's
    row lock, so fifty requests at once with one key give one True. Payments on one account
    serialize on that lock; the receipt number is gapless per year.
    """
    amount = _clean_amount(amount)
    errors = {}
    if method not in Payment.Method.values:
        errors["method"] = _("Forma de pago desconocida.")
    if method in NEEDS_DOCUMENT_NUMBER and not check_number.strip():
        errors["check_number"] = _("Indique el número del cheque o giro.")
    if not idempotency_key or len(idempotency_key) > 100:
        errors["idempotency_key"] = _("Falta la clave de idempotencia.")
    today = timezone.localdate()
    if paid_on > today:
        errors["paid_on"] = _("La fecha de pago no puede ser futura.")
    if source == Payment.Source.CASHIER and batch is None:
        errors["batch"] = _("Abra un lote de caja para registrar pagos.")
    if errors:
        raise ValidationError(errors)

    account = lock_account(account)
    existing = Payment.objects.filter(idempotency_key=idempotency_key).first()
    if existing is not None:
        if existing.account_id != account.pk or existing.amount != amount:
            raise ValidationError({"idempotency_key": _("Esta clave ya se usó para otro pago.")})
        return existing, False
    if batch is not None:
        batch = CashierBatch.objects.select_for_update().get(pk=batch.pk)
        if batch.status != CashierBatch.Status.OPEN:
            raise ValidationError({"batch": _("El lote %(b)s está cerrado; no admite pagos.") % {"b": batch.pk}})
        if batch.cashier_id != getattr(actor, "pk", None):
            raise ValidationError({"batch": _("El lote pertenece a otro cajero.")})

    year = today.year
    seq = take_numbers(f"receipt:{year}")
    payer_name, payer_party = _payer(payer)
    payment = Payment.objects.create(
        receipt_number=f"{year}-{seq:06d}", receipt_year=year, receipt_seq=seq, account=account, paid_on=paid_on,
        method=method, amount=amount, payer_name=payer_name, payer_party=payer_party,
        check_number=check_number.strip(), reference=reference, source=source, idempotency_key=idempotency_key,
        batch=batch, recorded_by=user_or_none(actor))
    result = allocate(account=account, funds=amount, on=paid_on, kind=LedgerEntry.Kind.PAYMENT, actor=actor,
                      terms=TermsCache(params), payment=payment, memo=memo or _("Recibo %(n)s") % {
                          "n": payment.receipt_number})
    if result.leftover > 0:
        # The overpayment is the payer's credit, not the parcel's (issue #16).
        result.entries.append(LedgerEntry(account=account, kind=LedgerEntry.Kind.CREDIT, component=CREDIT,
                                          amount=-result.leftover, effective_date=paid_on, payment=payment,
                                          actor=user_or_none(actor), credit_party=payer_party,
                                          credit_payer="" if payer_party else payer_name,
                                          memo=_("Pago en exceso: crédito a favor (recibo %(n)s)") % {
                                              "n": payment.receipt_number}))
    post(result.entries)
    refresh_receivables(result.receivable_ids, on=paid_on, actor=actor)
    surcharge = sum((e.amount for e in result.entries if e.kind == LedgerEntry.Kind.SURCHARGE), ZERO)
    audit(actor=actor, action="payment.record", target=payment,
          summary=f"{payment.receipt_number} {amount} {payment.get_method_display()} {account.number}",
          data={"account": account.pk, "amount": str(amount), "method": method, "paid_on": paid_on.isoformat(),
                "surcharge_posted": str(surcharge), "credit": str(result.leftover), "source": source})
    return payment, True


@transaction.atomic
def payment_return(*, payment: Payment, on: date, reason: str, actor) -> Payment:
    """A returned check (or a bounced transfer): REVERSAL entries restore the balance and the
    surcharge as if the payment had never been made (the surcharge posted with it is reversed and
    the reopened principal accrues again from its grace end). A credit the payment left that was
    already used on a later charge is taken back from that charge."""
    if not reason.strip():
        raise ValidationError({"reason": _("Indique el motivo de la devolución.")})
    account = lock_account(payment.account_id)
    payment = Payment.objects.select_for_update().get(pk=payment.pk)
    if payment.status == Payment.Status.RETURNED:
        return payment
    if on < payment.paid_on:
        raise ValidationError({"on": _("La devolución no puede ser anterior al pago.")})
    user = user_or_none(actor)
    originals = list(payment.entries.exclude(kind=LedgerEntry.Kind.REVERSAL).order_by("id"))
    memo = (_("Devolución del recibo %(n)s: %(r)s") % {"n": payment.receipt_number, "r": reason})[:300]
    entries = [LedgerEntry(account=account, receivable_id=e.receivable_id, installment_id=e.installment_id,
                           kind=LedgerEntry.Kind.REVERSAL, component=e.component, amount=-e.amount,
                           effective_date=on, payment=payment, reverses=e, actor=user, memo=memo[:300],
                           credit_party_id=e.credit_party_id, credit_payer=e.credit_payer)
               for e in originals]
    post(entries)
    touched = {e.receivable_id for e in originals if e.receivable_id}
    # The credit this payment left may have been applied since: take it back from those charges —
    # from the charges that payer's credit paid (credits belong to the payer).
    tag = {"credit_party_id": payment.payer_party_id, "credit_payer": "" if payment.payer_party_id
           else payment.payer_name}
    shortfall = _payer_shortfall(account, tag)
    if shortfall > 0:
        touched |= _unapply_credit(account=account, amount=shortfall, on=on, actor=actor, memo=memo, tag=tag)
    shortfall = -credit_pool(account)
    if shortfall > 0:  # credits recorded before they were tied to their payer: never another payer's
        touched |= _unapply_credit(account=account, amount=shortfall, on=on, actor=actor, memo=memo,
                                   tag={"credit_party_id": None, "credit_payer": ""})
    payment.status = Payment.Status.RETURNED
    payment.returned_on = on
    payment.return_reason = reason[:300]
    payment.save(update_fields=["status", "returned_on", "return_reason", "updated_at"])
    refresh_receivables(touched, on=on, actor=actor, reason=memo)
    audit(actor=actor, action="payment.return", target=payment,
          summary=f"{payment.receipt_number} devuelto: {reason}"[:300],
          data={"on": on.isoformat(), "reason": reason, "entries": len(entries)})
    return payment


def _payer_shortfall(account: Account, tag: dict) -> Decimal:
    """How far the payer's own credit went below zero (their credit was used, then their money returned)."""
    total = (LedgerEntry.objects.filter(account=account, installment__isnull=True, **tag)
             .aggregate(t=Sum("amount"))["t"])
    return max(sum_cents(total), ZERO)


def _unapply_credit(*, account: Account, amount: Decimal, on: date, actor, memo: str,
                    tag: dict | None = None) -> set[int]:
    """Reverse the most recent credit applications on installments (only those of `tag`'s payer when
    given), up to `amount`; the credit goes back to that payer."""
    user = user_or_none(actor)
    applied = LedgerEntry.objects.filter(account=account, kind=LedgerEntry.Kind.CREDIT_APPLIED,
                                         installment__isnull=False)
    if tag is not None:
        applied = applied.filter(**tag)
    applied = (applied
               .annotate(reversed_total=Sum("reversals__amount")).order_by("-effective_date", "-id"))
    entries, touched, left = [], set(), amount
    for e in applied:
        if left <= 0:
            break
        still = -(e.amount + (e.reversed_total or ZERO))      # e.amount is negative
        take = min(still, left)
        if take <= 0:
            continue
        entries.append(LedgerEntry(account=account, receivable_id=e.receivable_id, installment_id=e.installment_id,
                                   kind=LedgerEntry.Kind.REVERSAL, component=e.component, amount=take,
                                   effective_date=on, reverses=e, actor=user, memo=memo[:300],
                                   credit_party_id=e.credit_party_id, credit_payer=e.credit_payer))
        entries.append(LedgerEntry(account=account, kind=LedgerEntry.Kind.REVERSAL, component=CREDIT, amount=-take,
                                   effective_date=on, actor=user, memo=memo[:300],
                                   credit_party_id=e.credit_party_id, credit_payer=e.credit_payer))
        touched.add(e.receivable_id)
        left -= take
    post(entries)
    return touched
