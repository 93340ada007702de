"""Adjustments, write-offs and credit refunds: requested by one person, decided by another."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from assessments.ledger import credit_rules
from assessments.ledger.allocation import refresh_receivables
from assessments.ledger.common import (
    CREDIT,
    PRINCIPAL,
    SURCHARGE,
    credit_pool,
    installment_states,
    lock_account,
    payer_credits,
    post,
    user_or_none,
)
from assessments.models import Account, Adjustment, Installment, LedgerEntry, Receivable
from core.audit import audit
from core.money import CENT, ZERO, to_decimal

Kind = Adjustment.Kind


def _amount(value) -> Decimal:
    try:
        amount = to_decimal(value)
    except (TypeError, ValueError):
        raise ValidationError({"amount": _("Importe inválido.")}) from None
    if amount != amount.quantize(CENT) or amount == 0:
        raise ValidationError({"amount": _("Importe inválido.")})
    return amount.quantize(CENT)


def _payee(payee) -> tuple[int | None, str]:
    """(party id, name) of a payee given as a Party, a party id or a name."""
    from districts.models import Party

    if isinstance(payee, Party):
        return payee.pk, payee.display_name[:200]
    if isinstance(payee, int):
        party = Party.objects.filter(pk=payee).first()
        return (party.pk, party.display_name[:200]) if party else (None, "")
    return None, str(payee or "").strip()[:200]


def payer_credit_of(account: Account, party_id: int | None, name: str, *, exclude: Adjustment | None = None):
    """The payer's credit on the account (credit_rules.PayerCredit or None) and what their pending
    refund requests already claim from it."""
    credit = next((c for c in payer_credits(account)
                   if (party_id and c.party_id == party_id) or (not party_id and not c.party_id and c.name == name)),
                  None)
    pending = Adjustment.objects.filter(account=account, kind=Kind.REFUND, status=Adjustment.Status.PENDING)
    pending = (pending.filter(payee_party_id=party_id) if party_id
               else pending.filter(payee_party__isnull=True, payee_name=name))
    if exclude is not None:
        pending = pending.exclude(pk=exclude.pk)
    claimed = sum((a.amount for a in pending), ZERO)
    return credit, claimed


def _refund_errors(account: Account, amount: Decimal, party_id: int | None, name: str,
                   exclude: Adjustment | None = None) -> dict:
    """The one place a refund is checked (when requested and again when approved): it names its payee
    and does not exceed that payer's credit, less their other pending refund requests."""
    if not party_id and not name and len(payer_credits(account)) > 1:
        return {"payee": _("Indique a quién se reembolsa: el crédito es de quien pagó.")}
    credit, claimed = payer_credit_of(account, party_id, name, exclude=exclude)
    available = (credit.amount if credit else ZERO) - claimed
    if credit_rules.refund_refusal(amount, available) == "EXCEEDS_CREDIT":
        return {"amount": _("El reembolso excede el crédito disponible de %(payee)s (%(c)s).") % {
            "payee": name or _("el pagador"), "c": max(available, ZERO)}}
    return {}


@transaction.atomic
def adjustment_request(*, kind: str, account: Account, amount, reason: str, actor,
                       installment: Installment | None = None, receivable: Receivable | None = None,
                       effective_date: date | None = None, payee=None) -> Adjustment:
    """Ask for an ADJUSTMENT (signed, on an installment or the account), a WRITE_OFF (positive, of
    an installment or a whole receivable) or a REFUND of a payer's credit (positive).

    Credits belong to whoever paid: a REFUND names its `payee` (a Party or a name; when one payer
    holds all the account's credit it is them) and is checked against that payer's credit when it
    is requested, not only when approved. An account-level decrease may name whose credit it is."""
    amount = _amount(amount)
    payee_party_id, payee_name = _payee(payee)
    errors = {}
    if kind not in Kind.values:
        errors["kind"] = _("Tipo desconocido.")
    if not reason.strip():
        errors["reason"] = _("Indique el motivo.")
    if installment is not None:
        receivable = installment.receivable
    if receivable is not None and receivable.account_id != account.pk:
        errors["receivable"] = _("El cargo no es de esta cuenta.")
    if kind in (Kind.WRITE_OFF, Kind.REFUND) and amount < 0:
        errors["amount"] = _("Indique un importe positivo.")
    if kind == Kind.WRITE_OFF and receivable is None:
        errors["receivable"] = _("Indique el cargo o el plazo que se da de baja.")
    if kind == Kind.REFUND and receivable is not None:
        errors["receivable"] = _("Un reembolso sale del crédito de la cuenta, no de un cargo.")
    if kind == Kind.REFUND and not errors:
        account = lock_account(account)   # two requests at once cannot both claim the same credit
        if not payee_party_id and not payee_name and len(credits := payer_credits(account)) == 1:
            payee_party_id, payee_name = credits[0].party_id, credits[0].name
        errors.update(_refund_errors(account, amount, payee_party_id, payee_name))
    if errors:
        raise ValidationError(errors)
    if not (kind == Kind.REFUND or (kind == Kind.ADJUSTMENT and installment is None)):
        payee_party_id, payee_name = None, ""   # only a credit has a payee
    adj = Adjustment.objects.create(kind=kind, account=account, receivable=receivable, installment=installment,
                                    amount=amount, reason=reason, requested_by=actor,
                                    effective_date=effective_date or timezone.localdate(),
                                    payee_party_id=payee_party_id, payee_name=payee_name)
    audit(actor=actor, action="adjustment.request", target=adj, summary=f"{adj.get_kind_display()} {amount}",
          data={"kind": kind, "amount": str(amount), "account": account.pk, "payee": payee_name,
                "payee_party": payee_party_id})
    return adj


def credit_refund_request(*, account: Account, amount, reason: str, actor, payee=None) -> Adjustment:
    """docs/rules/README.md#payments: a credit is refunded on request — the request waits for an
    approver. It names its payee (whose credit it is) and is refused at once when it exceeds that
    payer's credit."""
    return adjustment_request(kind=Kind.REFUND, account=account, amount=amount, reason=reason, actor=actor,
                              payee=payee)


def _lock_pending(adjustment: Adjustment, actor) -> tuple[Adjustment, Account]:
    account = lock_account(adjustment.account_id)
    adj = Adjustment.objects.select_for_update().get(pk=adjustment.pk)
    if adj.status != Adjustment.Status.PENDING:
        raise ValidationError({"status": _("La solicitud ya fue decidida.")})
    if getattr(actor, "pk", None) is None or actor.pk == adj.requested_by_id:
        raise ValidationError({"decided_by": _("Quien solicita no puede aprobar ni rechazar su propia solicitud.")})
    return adj, account


@transaction.atomic
def adjustment_approve(*, adjustment: Adjustment, actor, note: str = "") -> Adjustment:
    """Approve and post: ADJUSTMENT, WRITE_OFF or REFUND entries. The approver differs from the requester."""
    adj, account = _lock_pending(adjustment, actor)
    user = user_or_none(actor)
    memo = f"{adj.get_kind_display()}: {adj.reason}"[:300]
    base = {"account": account, "effective_date": adj.effective_date, "adjustment": adj, "actor": user, "memo": memo}
    entries: list[LedgerEntry] = []
    if adj.kind == Kind.ADJUSTMENT:
        if adj.installment_id is None:   # account-level: a decrease is a credit of the payer it names
            entries.append(LedgerEntry(kind=LedgerEntry.Kind.ADJUSTMENT, component=CREDIT, amount=adj.amount,
                                       credit_party_id=adj.payee_party_id,
                                       credit_payer="" if adj.payee_party_id else adj.payee_name, **base))
        else:
            state = next(s for s in installment_states(account) if s.installment.pk == adj.installment_id)
            if adj.amount < 0 and -adj.amount > state.principal_open:
                raise ValidationError({"amount": _("El ajuste excede lo pendiente del plazo (%(o)s).") % {
                    "o": state.principal_open}})
            entries.append(LedgerEntry(kind=LedgerEntry.Kind.ADJUSTMENT, component=PRINCIPAL, amount=adj.amount,
                                       receivable_id=adj.receivable_id, installment_id=adj.installment_id, **base))
    elif adj.kind == Kind.WRITE_OFF:
        states = installment_states(account, receivable_ids=[adj.receivable_id])
        if adj.installment_id:
            states = [s for s in states if s.installment.pk == adj.installment_id]
        open_total = sum((s.open_total for s in states), ZERO)
        if adj.amount > open_total:
            raise ValidationError({"amount": _("La baja excede lo pendiente (%(o)s).") % {"o": open_total}})
        left = adj.amount
        for s in states:
            for component, open_amount in ((SURCHARGE, s.surcharge_open), (PRINCIPAL, s.principal_open)):
                take = min(open_amount, left)
                if take > 0:
                    entries.append(LedgerEntry(kind=LedgerEntry.Kind.WRITE_OFF, component=component, amount=-take,
                                               receivable_id=s.receivable.pk, installment_id=s.installment.pk, **base))
                    left -= take
    else:  # REFUND of the payee's credit, posted in the ledger under their name
        pool = credit_pool(account)
        if adj.amount > pool:
            raise ValidationError({"amount": _("El reembolso excede el crédito disponible (%(c)s).") % {"c": pool}})
        errors = _refund_errors(account, adj.amount, adj.payee_party_id, adj.payee_name, exclude=adj)
        if errors:
            raise ValidationError(errors)
        if adj.payee_name:
            base["memo"] = (_("Reembolso a %(payee)s: %(reason)s") % {"payee": adj.payee_name,
                                                                     "reason": adj.reason})[:300]
        entries.append(LedgerEntry(kind=LedgerEntry.Kind.REFUND, component=CREDIT, amount=adj.amount,
                                   credit_party_id=adj.payee_party_id,
                                   credit_payer="" if adj.payee_party_id else adj.payee_name, **base))
    post(entries)
    adj.status = Adjustment.Status.APPROVED
    adj.decided_by = actor
    adj.decided_at = timezone.now()
    adj.decision_note = note[:300]
    adj.save(update_fields=["status", "decided_by", "decided_at", "decision_note", "updated_at"])
    refresh_receivables({e.receivable_id for e in entries}, on=adj.effective_date, actor=actor, reason=memo)
    audit(actor=actor, action="adjustment.approve", target=adj, summary=f"{adj.get_kind_display()} {adj.amount}",
          data={"entries": len(entries), "requested_by": adj.requested_by_id})
    return adj


def credit_refund_approve(*, adjustment: Adjustment, actor, note: str = "") -> Adjustment:
    if adjustment.kind != Kind.REFUND:
        raise ValidationError({"kind": _("No es una solicitud de reembolso.")})
    return adjustment_approve(adjustment=adjustment, actor=actor, note=note)


@transaction.atomic
def adjustment_reject(*, adjustment: Adjustment, actor, note: str) -> Adjustment:
    adj, _account = _lock_pending(adjustment, actor)
    adj.status = Adjustment.Status.REJECTED
    adj.decided_by = actor
    adj.decided_at = timezone.now()
    adj.decision_note = note[:300]
    adj.save(update_fields=["status", "decided_by", "decided_at", "decision_note", "updated_at"])
    audit(actor=actor, action="adjustment.reject", target=adj, summary=f"{adj.get_kind_display()} rechazado",
          data={"note": note})
    return adj
