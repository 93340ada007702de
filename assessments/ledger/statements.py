"""Statements as of any date, and the data of a payoff certificate (*certificación de deuda*).

A statement as of D takes the entries effective on or before D (and, given `known_at`, posted by
then: exactly what a statement printed at that moment showed). Surcharge accrued but not yet
paid is computed from the rules for D and never stored.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from django.utils.translation import gettext as _

from assessments.ledger import surcharge_rules as sr
from assessments.ledger.common import account_sum, credit_pool, entry_filter, installment_states
from assessments.ledger.surcharges import TermsCache
from assessments.models import Account, LedgerEntry, Receivable
from core.money import ZERO


@dataclass(frozen=True)
class StatementInstallment:
    installment_id: int
    receivable_id: int
    reference: str
    description: str
    fund: str
    seq: int
    due_date: date
    amount: Decimal
    principal_open: Decimal
    surcharge_open: Decimal        # posted, unpaid
    accrued_surcharge: Decimal     # computed to as_of on the open principal, not posted
    surcharge_rule: str
    surcharge_note: str
    months_late: int
    is_due: bool

    @property
    def total_due(self) -> Decimal:
        return self.principal_open + self.surcharge_open + self.accrued_surcharge

    @property
    def rule_label(self) -> str:
        """The rule ID where there is one (LAJ-7, IRR-9), else the rule's name."""
        if self.surcharge_rule in (sr.LAJ7, sr.IRR9):
            return self.surcharge_rule
        return str(Receivable.SurchargeRule(self.surcharge_rule).label)


@dataclass(frozen=True)
class Statement:
    account: Account
    as_of: date
    known_at: datetime | None
    entries: list[LedgerEntry]
    installments: list[StatementInstallment]
    balance: Decimal               # sum of the entries
    credit: Decimal                # unapplied credit in the account's favour
    accrued_surcharge: Decimal
    notes: list[str] = field(default_factory=list)

    @property
    def payoff(self) -> Decimal:
        """What settles the account on `as_of`: the balance plus the surcharge accrued to that day."""
        return self.balance + self.accrued_surcharge

    @property
    def past_due(self) -> Decimal:
        return sum((i.total_due for i in self.installments if i.is_due), ZERO)

    @property
    def open_installments(self) -> list[StatementInstallment]:
        return [i for i in self.installments if i.principal_open or i.surcharge_open]


def statement(*, account: Account, as_of: date, known_at: datetime | None = None, params=None,
              with_entries: bool = True) -> Statement:
    terms = TermsCache(params)
    entries = []
    if with_entries:
        entries = list(LedgerEntry.objects.filter(account=account, **entry_filter(as_of=as_of, known_at=known_at))
                       .select_related("receivable", "payment").order_by("effective_date", "id"))
    rows, notes = [], []
    accrued_total = ZERO
    for s in installment_states(account, as_of=as_of, known_at=known_at):
        inst, rec = s.installment, s.receivable
        t = terms.for_installment(rec, inst.due_date)
        accrued = sr.portion_surcharge(t, s.principal_open, inst.due_date, as_of) if s.principal_open > 0 else ZERO
        months = sr.months_after_grace(t, inst.due_date, as_of) if t.active and s.principal_open > 0 else 0
        if t.note and t.note not in notes:
            notes.append(t.note)
        accrued_total += accrued
        rows.append(StatementInstallment(
            installment_id=inst.pk, receivable_id=rec.pk, reference=rec.payment_reference, description=rec.description,
            fund=rec.fund.name, seq=inst.seq, due_date=inst.due_date, amount=inst.amount,
            principal_open=s.principal_open, surcharge_open=s.surcharge_open, accrued_surcharge=accrued,
            surcharge_rule=rec.surcharge_rule, surcharge_note=t.note, months_late=months,
            is_due=inst.due_date <= as_of))
    return Statement(account=account, as_of=as_of, known_at=known_at, entries=entries, installments=rows,
                     balance=account_sum(account, as_of=as_of, known_at=known_at),
                     credit=credit_pool(account, as_of=as_of, known_at=known_at), accrued_surcharge=accrued_total,
                     notes=notes)


def payoff_certificate(*, account: Account, as_of: date, params=None) -> dict:
    """The facts a *certificación de deuda* states: holder and owners of record on `as_of`, each
    open charge with its office, the surcharge to that day, the liens in force, the total."""
    from districts.models import Ownership
    from liens.selectors import liens_securing

    st = statement(account=account, as_of=as_of, params=params, with_entries=False)
    owners, liens = [], []
    if account.parcel_id:
        owners = list(Ownership.objects.filter(parcel_id=account.parcel_id, start_date__lte=as_of)
                      .exclude(end_date__lte=as_of).select_related("party"))
        # LIEN-4: the liens in force on `as_of`, each with what it secures that day (`secured`).
        liens, secured = liens_securing(account.parcel, as_of)
        for lien in liens:
            lien.secured = secured[lien.pk]
    receivables = {r.pk: r for r in Receivable.objects.filter(
        pk__in={i.receivable_id for i in st.open_installments}).select_related("office", "fund")}
    charges = []
    for rec_id in sorted(receivables, key=lambda k: (receivables[k].issued_on, k)):
        rec = receivables[rec_id]
        insts = [i for i in st.open_installments if i.receivable_id == rec_id]
        charges.append({"receivable": rec, "office": rec.office, "fund": rec.fund, "installments": insts,
                        "total": sum((i.total_due for i in insts), ZERO)})
    return {"account": account, "as_of": as_of, "owners": owners, "charges": charges, "liens": liens,
            "balance": st.balance, "credit": st.credit, "accrued_surcharge": st.accrued_surcharge,
            "payoff": st.payoff, "notes": st.notes,
            "statement_text": _("Deuda total al %(d)s") % {"d": as_of.strftime("%d/%m/%Y")}}
