"""docs/rules/README.md#payments: oldest amount due first; within an installment its surcharge first, then the
installment. Surcharge accrued to the payment day is POSTED here (never stored ahead of time)."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.db.models import Count, Q, Sum
from django.utils.translation import gettext as _

from assessments.ledger import surcharge_rules as sr
from assessments.ledger.common import CREDIT, PRINCIPAL, SURCHARGE, credit_pool, installment_states, user_or_none
from assessments.ledger.surcharges import TermsCache
from assessments.models import Account, LedgerEntry, Payment, Receivable
from core.money import ZERO, sum_cents
from liens import services as lien_services


@dataclass
class Allocation:
    entries: list[LedgerEntry] = field(default_factory=list)
    applied: Decimal = ZERO          # to installments and to a debt of the pool
    leftover: Decimal = ZERO         # not applied (becomes a credit for a payment)

    @property
    def receivable_ids(self) -> set[int]:
        return {e.receivable_id for e in self.entries if e.receivable_id}


def allocate(*, account: Account, funds: Decimal, on: date, kind: str, actor, terms: TermsCache,
             payment: Payment | None = None, memo: str = "") -> Allocation:
    """Build (unsaved) entries applying `funds` to the account's open installments as of now.

    `kind` is PAYMENT (money received) or CREDIT_APPLIED (the account's credit used on a charge).
    """
    result = Allocation()
    user = user_or_none(actor)

    def entry(**kw) -> LedgerEntry:
        kw.setdefault("memo", memo)
        e = LedgerEntry(account=account, effective_date=on, payment=payment, actor=user, **kw)
        result.entries.append(e)
        return e

    if kind == LedgerEntry.Kind.PAYMENT:
        debt = -credit_pool(account)
        if debt > 0 and funds > 0:
            pay = min(debt, funds)
            entry(kind=kind, component=CREDIT, amount=-pay)
            funds -= pay
            result.applied += pay
    for state in installment_states(account):
        if funds <= 0:
            break
        if state.open_total <= 0:
            continue
        inst, rec = state.installment, state.receivable
        if state.surcharge_open > 0:
            pay = min(state.surcharge_open, funds)
            entry(receivable=rec, installment=inst, kind=kind, component=SURCHARGE, amount=-pay)
            funds -= pay
            result.applied += pay
        if state.principal_open <= 0 or funds <= 0:
            continue
        t = terms.for_installment(rec, inst.due_date)
        principal, surcharge = sr.largest_portion(t, funds, state.principal_open, inst.due_date, on)
        if surcharge > 0:
            months = sr.months_after_grace(t, inst.due_date, on)
            entry(receivable=rec, installment=inst, kind=LedgerEntry.Kind.SURCHARGE, component=SURCHARGE,
                  amount=surcharge, rule=t.rule,
                  memo=_("%(rule)s: %(months)s mes(es) sobre %(amount)s") % {
                      "rule": t.rule, "months": months, "amount": principal})
            entry(receivable=rec, installment=inst, kind=kind, component=SURCHARGE, amount=-surcharge)
        if principal > 0:
            entry(receivable=rec, installment=inst, kind=kind, component=PRINCIPAL, amount=-principal)
        funds -= principal + surcharge
        result.applied += principal + surcharge
        if principal < state.principal_open:
            break   # funds exhausted on this installment: nothing may skip ahead of it
    result.leftover = funds
    return result


def refresh_receivables(ids, *, on: date, actor, reason: str = "") -> None:
    """Derive each receivable's status from its entries, and its lien's standing from what the
    lien secures (LIEN-4: the principal still open): at zero the lien is released (satisfied, or
    cancelled when written off), and a reversal that reopens the principal revives it. Each is a
    dated, audited LienEvent (liens.services)."""
    ids = [i for i in set(ids) if i]
    if not ids:
        return
    rows = (LedgerEntry.objects.filter(receivable_id__in=ids).values("receivable_id")
            .annotate(open=Sum("amount"), principal=Sum("amount", filter=Q(component=PRINCIPAL)),
                      write_offs=Count("id", filter=Q(kind=LedgerEntry.Kind.WRITE_OFF))))
    state = {r["receivable_id"]: r for r in rows}
    for rec in Receivable.objects.filter(pk__in=ids).order_by("pk"):
        row = state.get(rec.pk, {"open": ZERO, "principal": ZERO, "write_offs": 0})
        if sum_cents(row["open"]) > 0:  # to the cent: SQLite sums through floats
            new = Receivable.Status.OPEN
        elif row["write_offs"]:
            new = Receivable.Status.WRITTEN_OFF
        else:
            new = Receivable.Status.PAID
        old = rec.status
        if new != rec.status:
            rec.status = new
            rec.save(update_fields=["status", "updated_at"])
        if rec.creates_lien:
            _lien_follow(rec, secured=sum_cents(row["principal"]), written_off=bool(row["write_offs"]), on=on,
                         actor=actor, reason=reason, reopened=old != new == Receivable.Status.OPEN)


def _lien_follow(rec: Receivable, *, secured: Decimal, written_off: bool, on: date, actor, reason: str,
                 reopened: bool) -> None:
    """LIEN-4: release the charge's lien when it secures nothing more; revive it when it does again.

    A lien released because nothing was owed revives when the principal reopens; one cancelled
    (a write-off, or by staff) revives only when the charge itself reopens (its write-off reversed)."""
    lien = lien_services.lien_by_origin(Receivable.LIEN_ORIGIN, str(rec.pk))
    if lien is None:
        return
    active = lien.status == lien.Status.ACTIVE
    if active and secured <= 0:
        if written_off and rec.status == Receivable.Status.WRITTEN_OFF:
            lien_services.lien_release(lien=lien, on=on, actor=actor, reason=reason or _("Cargo dado de baja"))
        else:
            lien_services.lien_satisfy(lien=lien, on=on, actor=actor,
                                       reason=reason or _("Nada pendiente del cargo: pagado, acreditado o ajustado"))
    elif not active and secured > 0 and (lien.status == lien.Status.SATISFIED or reopened):
        lien_services.lien_reinstate(lien=lien, on=on, actor=actor,
                                     reason=reason or _("Cargo reabierto: el gravamen revive"))
