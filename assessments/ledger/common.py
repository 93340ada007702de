"""Plumbing shared by the ledger services: row locks, number series, posting, installment state.

Lock order, everywhere: account rows (ascending id) → cashier batch → counters. Every path that
writes to an account takes its row lock first, so concurrent payments on one account serialize
and no two paths can wait on each other in a cycle.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import F, Sum

from assessments.models import Account, Counter, Installment, LedgerEntry, Receivable
from core.money import ZERO, sum_cents

PRINCIPAL = LedgerEntry.Component.PRINCIPAL
SURCHARGE = LedgerEntry.Component.SURCHARGE
CREDIT = LedgerEntry.Component.CREDIT


def user_or_none(actor):
    return actor if getattr(actor, "is_authenticated", False) else None


def lock_account(account: Account | int) -> Account:
    pk = account.pk if isinstance(account, Account) else account
    return Account.objects.select_for_update().get(pk=pk)


def lock_accounts(ids: Iterable[int], chunk: int = 900) -> dict[int, Account]:
    """Lock many accounts in ascending id order (the global lock order)."""
    ordered = sorted(set(ids))
    found: dict[int, Account] = {}
    for i in range(0, len(ordered), chunk):
        part = ordered[i:i + chunk]
        for acc in Account.objects.select_for_update().filter(pk__in=part).only("id", "parcel_id", "party_id",
                                                                               "balance").order_by("pk"):
            found[acc.pk] = acc
    return found


def take_numbers(key: str, count: int = 1) -> int:
    """Reserve `count` consecutive numbers of series `key` under its row lock; returns the first.

    Gapless: the counter moves in the caller's transaction, so a rollback gives the numbers back.
    """
    with transaction.atomic():
        try:
            with transaction.atomic():
                Counter.objects.get_or_create(key=key)
        except IntegrityError:
            pass  # created concurrently
        counter = Counter.objects.select_for_update().get(key=key)
        first = counter.value + 1
        counter.value += count
        counter.save(update_fields=["value"])
    return first


def luhn_digit(digits: str) -> str:
    """The Luhn check digit of a string of digits (catches single errors and most swaps)."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def payment_reference(n: int) -> str:
    body = f"{n:09d}"
    return body + luhn_digit(body)


def reference_is_valid(ref: str) -> bool:
    ref = (ref or "").strip()
    return len(ref) >= 2 and ref.isdigit() and luhn_digit(ref[:-1]) == ref[-1]


def post(entries: Sequence[LedgerEntry]) -> list[LedgerEntry]:
    """Insert entries and move the cached balances by their sum (callers hold the account locks)."""
    entries = [e for e in entries if e.amount != 0]
    if not entries:
        return []
    created = LedgerEntry.objects.bulk_create(entries)
    deltas: dict[int, Decimal] = defaultdict(Decimal)
    for e in created:
        deltas[e.account_id] += e.amount
    for account_id, delta in deltas.items():
        if delta:
            Account.objects.filter(pk=account_id).update(balance=F("balance") + delta)
    return created


@dataclass
class InstallmentState:
    installment: Installment
    receivable: Receivable
    principal_open: Decimal = ZERO
    surcharge_open: Decimal = ZERO      # posted and not paid

    @property
    def open_total(self) -> Decimal:
        return self.principal_open + self.surcharge_open


def entry_filter(*, as_of: date | None = None, known_at=None) -> dict:
    flt = {}
    if as_of is not None:
        flt["effective_date__lte"] = as_of
    if known_at is not None:
        flt["posted_at__lte"] = known_at
    return flt


def installment_states(account: Account, *, as_of: date | None = None, known_at=None,
                       receivable_ids: Iterable[int] | None = None) -> list[InstallmentState]:
    """Every installment of the account with what is open on it, oldest due first."""
    flt = entry_filter(as_of=as_of, known_at=known_at)
    sums = (LedgerEntry.objects.filter(account=account, installment__isnull=False, **flt)
            .values("installment_id", "component").annotate(total=Sum("amount")))
    by_inst: dict[int, dict[str, Decimal]] = defaultdict(dict)
    for row in sums:
        by_inst[row["installment_id"]][row["component"]] = sum_cents(row["total"])
    qs = Installment.objects.filter(pk__in=list(by_inst)).select_related("receivable", "receivable__fund")
    if receivable_ids is not None:
        qs = qs.filter(receivable_id__in=list(receivable_ids))
    states = []
    for inst in qs.order_by("due_date", "receivable__issued_on", "receivable_id", "seq"):
        sums_i = by_inst[inst.pk]
        states.append(InstallmentState(inst, inst.receivable, sums_i.get(PRINCIPAL, ZERO),
                                       sums_i.get(SURCHARGE, ZERO)))
    return states


def credit_pool(account: Account, *, as_of: date | None = None, known_at=None) -> Decimal:
    """Unapplied credit in the account's favour (negative: money owed not tied to any installment)."""
    total = (LedgerEntry.objects.filter(account=account, installment__isnull=True,
                                        **entry_filter(as_of=as_of, known_at=known_at))
             .aggregate(t=Sum("amount"))["t"])
    return -sum_cents(total)


def account_sum(account: Account, *, as_of: date | None = None, known_at=None) -> Decimal:
    total = (LedgerEntry.objects.filter(account=account, **entry_filter(as_of=as_of, known_at=known_at))
             .aggregate(t=Sum("amount"))["t"])
    return sum_cents(total)


def payer_credits(account: Account, *, as_of: date | None = None) -> list:
    """The account's credit by payer (credit_rules.PayerCredit), largest first: the CREDIT-component
    entries grouped by whose credit they are. Untagged entries (before credits were tied to a payer,
    or account-level ones) form one bucket of their own. Only buckets with credit are returned."""
    from django.db.models import Min, Q

    from assessments.ledger.credit_rules import PayerCredit

    rows = (LedgerEntry.objects.filter(account=account, installment__isnull=True, **entry_filter(as_of=as_of))
            .values("credit_party_id", "credit_payer")
            .annotate(t=Sum("amount"), since=Min("effective_date", filter=Q(amount__lt=0))).order_by())
    rows = [r for r in rows if sum_cents(r["t"]) < 0]
    from districts.models import Party

    names = {p.pk: p.display_name for p in Party.objects.filter(pk__in={r["credit_party_id"] for r in rows})}
    out = []
    for r in rows:
        amount = -sum_cents(r["t"])
        if amount > 0:
            name = r["credit_payer"] if r["credit_party_id"] is None else names.get(r["credit_party_id"], "")
            out.append(PayerCredit(party_id=r["credit_party_id"], name=name, amount=amount, since=r["since"]))
    return sorted(out, key=lambda c: (-c.amount, c.party_id or 0, c.name))


def credit_tag(credit) -> dict:
    """The fields that say whose credit a CREDIT-component entry moves."""
    if credit is None:
        return {}
    return {"credit_party_id": credit.party_id, "credit_payer": "" if credit.party_id else credit.name[:200]}
