"""Accounts and receivables: one account per parcel or party; a charge document posts its CHARGE
entries, registers its lien (LIEN-1) and takes any credit the account holds."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils.translation import gettext as _

from assessments.ledger import surcharge_rules as sr
from assessments.ledger.allocation import allocate, refresh_receivables
from assessments.ledger.common import (
    CREDIT,
    PRINCIPAL,
    credit_pool,
    lock_account,
    lock_accounts,
    payment_reference,
    post,
    take_numbers,
    user_or_none,
)
from assessments.ledger.surcharges import TermsCache
from assessments.models import Account, Fund, Installment, LedgerEntry, Receivable
from core.audit import audit
from core.money import CENT, ZERO, to_decimal
from liens import services as lien_services

REFERENCE_SERIES = "payment_reference"


# --- accounts ---------------------------------------------------------------------------------

def _account_get_or_create(**lookup) -> Account:
    found = Account.objects.filter(**lookup).first()
    if found:
        return found
    try:
        with transaction.atomic():
            return Account.objects.create(**lookup)
    except IntegrityError:
        return Account.objects.get(**lookup)


def account_for_parcel(parcel) -> Account:
    """The parcel's account (created on first use). Charges follow the land: a sale keeps it."""
    return _account_get_or_create(parcel=parcel)


def account_for_party(party) -> Account:
    """A franchise holder's (or other party's) own account."""
    return _account_get_or_create(party=party)


def accounts_for_parcels(parcel_ids: Iterable[int]) -> dict[int, int]:
    """{parcel_id: account_id} for many parcels, creating the missing accounts in bulk (for rolls)."""
    ids = sorted(set(parcel_ids))
    found: dict[int, int] = {}
    for i in range(0, len(ids), 2000):
        part = ids[i:i + 2000]
        found.update(Account.objects.filter(parcel_id__in=part).values_list("parcel_id", "pk"))
    missing = [pid for pid in ids if pid not in found]
    if missing:
        Account.objects.bulk_create([Account(parcel_id=pid) for pid in missing], batch_size=2000,
                                    ignore_conflicts=True)
        for i in range(0, len(missing), 2000):
            found.update(Account.objects.filter(parcel_id__in=missing[i:i + 2000]).values_list("parcel_id", "pk"))
    return found


# --- validation -------------------------------------------------------------------------------

def _clean_installments(installments: Sequence[tuple[date, object]]) -> list[tuple[date, Decimal]]:
    if not installments:
        raise ValidationError({"installments": _("Un cargo necesita al menos un plazo.")})
    out = []
    for i, (due, amount) in enumerate(installments):
        amount = to_decimal(amount)
        if not isinstance(due, date):
            raise ValidationError({"installments": _("Plazo %(n)s: fecha de vencimiento inválida.") % {"n": i + 1}})
        if amount < 0 or amount != amount.quantize(CENT):
            raise ValidationError({"installments": _("Plazo %(n)s: importe inválido (%(a)s).") % {
                "n": i + 1, "a": amount}})
        out.append((due, amount.quantize(CENT)))
    return out


def _check_common(*, account_has_parcel: bool, kind: str, surcharge_rule: str, creates_lien: bool,
                  source_type: str, source_id: str) -> None:
    errors = {}
    if kind not in Receivable.Kind.values:
        errors["kind"] = _("Tipo de cargo desconocido: %(k)s.") % {"k": kind}
    if surcharge_rule not in Receivable.SurchargeRule.values:
        errors["surcharge_rule"] = _("Regla de recargo desconocida: %(r)s.") % {"r": surcharge_rule}
    if creates_lien and not account_has_parcel:
        errors["creates_lien"] = _("Solo un cargo sobre una parcela crea gravamen.")
    if not source_type or not str(source_id):
        errors["source_id"] = _("El cargo necesita su origen (tipo e identificador).")
    if errors:
        raise ValidationError(errors)


# --- one receivable ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Created:
    receivable: Receivable
    created: bool


@transaction.atomic
def receivable_create(*, account: Account, fund: Fund, office, kind: str, source_type: str, source_id,
                      installments: Sequence[tuple[date, object]], description: str, breakdown: dict | None = None,
                      surcharge_rule: str = sr.NONE, creates_lien: bool = False, issued_on: date, actor,
                      surcharge_terms: dict | None = None, lien_kind: str = "", params=None) -> Receivable:
    """Issue a charge document. Idempotent on (source_type, source_id): a second call returns the
    first receivable and changes nothing. Posts one CHARGE per installment (effective on
    `issued_on`), registers the lien when `creates_lien` (LIEN-1) and applies the account's credit."""
    source_id = str(source_id)
    existing = Receivable.objects.filter(source_type=source_type, source_id=source_id).first()
    if existing is not None:
        return existing
    account = lock_account(account)
    existing = Receivable.objects.filter(source_type=source_type, source_id=source_id).first()
    if existing is not None:   # created while we waited for the lock
        return existing
    _check_common(account_has_parcel=account.parcel_id is not None, kind=kind, surcharge_rule=surcharge_rule,
                  creates_lien=creates_lien, source_type=source_type, source_id=source_id)
    rows = _clean_installments(installments)
    lien_kind = lien_kind or fund.lien_kind
    if creates_lien and not lien_kind:
        raise ValidationError({"creates_lien": _("El fondo no indica qué gravamen crean sus cargos.")})
    total = sum((a for _, a in rows), ZERO)
    rec = Receivable.objects.create(
        kind=kind, account=account, fund=fund, office=office, source_type=source_type, source_id=source_id,
        description=description[:300], breakdown=breakdown or {}, surcharge_rule=surcharge_rule,
        surcharge_terms=surcharge_terms or {}, payment_reference=payment_reference(take_numbers(REFERENCE_SERIES)),
        creates_lien=creates_lien, issued_on=issued_on, amount=total,
        status=Receivable.Status.OPEN if total > 0 else Receivable.Status.PAID, created_by=user_or_none(actor))
    insts = Installment.objects.bulk_create([Installment(receivable=rec, seq=i + 1, due_date=due, amount=amount)
                                             for i, (due, amount) in enumerate(rows)])
    user = user_or_none(actor)
    post([LedgerEntry(account=account, receivable=rec, installment=inst, kind=LedgerEntry.Kind.CHARGE,
                      component=PRINCIPAL, amount=inst.amount, effective_date=issued_on, actor=user,
                      memo=description[:300]) for inst in insts])
    if creates_lien and total > 0:
        lien_services.lien_register(
            parcel=account.parcel, kind=lien_kind, amount=total, constituted_on=issued_on, actor=actor,
            origin_type=Receivable.LIEN_ORIGIN, origin_id=str(rec.pk), origin_label=f"{rec.payment_reference} "
            f"{description}"[:200], finances_public_infrastructure=fund.finances_public_infrastructure)
    audit(actor=actor, action="receivable.create", target=rec, summary=f"{rec.payment_reference} {total} {description}",
          data={"source": [source_type, source_id], "installments": [[d.isoformat(), str(a)] for d, a in rows]})
    credit_apply(account=account, on=issued_on, actor=actor, params=params)
    return rec


def credit_apply(*, account: Account, on: date, actor, params=None) -> Decimal:
    """SPEC: an overpayment is a credit applied to the next charge. Uses the account's unapplied
    credit on its open installments, oldest first (caller holds the account lock). Returns the
    amount applied."""
    pool = credit_pool(account)
    if pool <= 0:
        return ZERO
    result = allocate(account=account, funds=pool, on=on, kind=LedgerEntry.Kind.CREDIT_APPLIED, actor=actor,
                      terms=TermsCache(params), memo=_("Crédito aplicado"))
    if result.applied <= 0:
        return ZERO
    result.entries.append(LedgerEntry(account=account, kind=LedgerEntry.Kind.CREDIT_APPLIED, component=CREDIT,
                                      amount=result.applied, effective_date=on, actor=user_or_none(actor),
                                      memo=_("Crédito aplicado a cargos")))
    post(result.entries)
    refresh_receivables(result.receivable_ids, on=on, actor=actor)
    audit(actor=actor, action="credit.apply", target=account, summary=f"{result.applied} aplicado",
          data={"applied": str(result.applied)})
    return result.applied


# --- rolls: many receivables at once -----------------------------------------------------------

@dataclass(frozen=True)
class ReceivableRow:
    """One charge of a roll for `receivables_bulk_create` (ids, not objects, to stay light)."""

    account_id: int
    fund_id: int
    office_id: int
    kind: str
    source_type: str
    source_id: str
    installments: tuple[tuple[date, Decimal], ...]
    description: str
    issued_on: date
    breakdown: dict = field(default_factory=dict)
    surcharge_rule: str = sr.NONE
    creates_lien: bool = False
    surcharge_terms: dict = field(default_factory=dict)


@dataclass(frozen=True)
class BulkResult:
    created: int
    skipped: int
    total: Decimal
    liens: int
    credit_applied: Decimal


@transaction.atomic
def receivables_bulk_create(*, rows: Iterable[ReceivableRow], actor, batch_size: int = 2000,
                            params=None) -> BulkResult:
    """The same as `receivable_create` for every row, in a few statements per thousand rows.

    All or nothing; rows whose source key already exists are skipped (a roll finalized twice
    creates nothing the second time). Locks the accounts (ascending), then the reference series.
    """
    rows = list(rows)
    seen: set[tuple[str, str]] = set()
    unique_rows = []
    for row in rows:
        key = (row.source_type, str(row.source_id))
        if key in seen:
            raise ValidationError({"rows": _("Origen repetido en la entrada: %(k)s") % {"k": "/".join(key)}})
        seen.add(key)
        unique_rows.append(row)
    existing: set[tuple[str, str]] = set()
    by_type: dict[str, list[str]] = {}
    for row in unique_rows:
        by_type.setdefault(row.source_type, []).append(str(row.source_id))
    for st, ids in by_type.items():
        for i in range(0, len(ids), batch_size):
            existing.update(Receivable.objects.filter(source_type=st, source_id__in=ids[i:i + batch_size])
                            .values_list("source_type", "source_id"))
    todo = [r for r in unique_rows if (r.source_type, str(r.source_id)) not in existing]
    if not todo:
        return BulkResult(0, len(rows), ZERO, 0, ZERO)

    accounts = lock_accounts(r.account_id for r in todo)
    funds = {f.pk: f for f in Fund.objects.filter(pk__in={r.fund_id for r in todo})}
    cleaned = []
    for row in todo:
        account = accounts.get(row.account_id)
        if account is None or row.fund_id not in funds:
            raise ValidationError({"rows": _("Cuenta o fondo inexistente en %(k)s") % {"k": row.source_id}})
        _check_common(account_has_parcel=account.parcel_id is not None, kind=row.kind,
                      surcharge_rule=row.surcharge_rule, creates_lien=row.creates_lien,
                      source_type=row.source_type, source_id=str(row.source_id))
        if row.creates_lien and not funds[row.fund_id].lien_kind:
            raise ValidationError({"creates_lien": _("El fondo no indica qué gravamen crean sus cargos.")})
        cleaned.append((row, _clean_installments(row.installments)))

    first_ref = take_numbers(REFERENCE_SERIES, len(cleaned))
    user = user_or_none(actor)
    receivables = []
    for i, (row, insts) in enumerate(cleaned):
        total = sum((a for _, a in insts), ZERO)
        receivables.append(Receivable(
            kind=row.kind, account_id=row.account_id, fund_id=row.fund_id, office_id=row.office_id,
            source_type=row.source_type, source_id=str(row.source_id), description=row.description[:300],
            breakdown=row.breakdown or {}, surcharge_rule=row.surcharge_rule, surcharge_terms=row.surcharge_terms or {},
            payment_reference=payment_reference(first_ref + i), creates_lien=row.creates_lien,
            issued_on=row.issued_on, amount=total,
            status=Receivable.Status.OPEN if total > 0 else Receivable.Status.PAID, created_by=user))
    Receivable.objects.bulk_create(receivables, batch_size=batch_size)
    if any(r.pk is None for r in receivables):   # a backend that cannot return ids from bulk inserts
        ids = dict(Receivable.objects.filter(payment_reference__in=[r.payment_reference for r in receivables])
                   .values_list("payment_reference", "pk"))
        for r in receivables:
            r.pk = r.id = ids[r.payment_reference]

    installments = [Installment(receivable_id=rec.pk, seq=j + 1, due_date=due, amount=amount)
                    for rec, (_, insts) in zip(receivables, cleaned, strict=True)
                    for j, (due, amount) in enumerate(insts)]
    Installment.objects.bulk_create(installments, batch_size=batch_size)
    if any(i.pk is None for i in installments):
        ids = {(rid, seq): pk for rid, seq, pk in Installment.objects.filter(
            receivable_id__in=[r.pk for r in receivables]).values_list("receivable_id", "seq", "pk")}
        for inst in installments:
            inst.pk = inst.id = ids[(inst.receivable_id, inst.seq)]

    rec_by_id = {r.pk: r for r in receivables}
    entries = [LedgerEntry(account_id=rec_by_id[inst.receivable_id].account_id, receivable_id=inst.receivable_id,
                           installment_id=inst.pk, kind=LedgerEntry.Kind.CHARGE, component=PRINCIPAL,
                           amount=inst.amount, effective_date=rec_by_id[inst.receivable_id].issued_on, actor=user,
                           memo=rec_by_id[inst.receivable_id].description)
               for inst in installments if inst.amount]
    LedgerEntry.objects.bulk_create(entries, batch_size=batch_size)

    deltas: dict[int, Decimal] = {}
    for rec in receivables:
        deltas[rec.account_id] = deltas.get(rec.account_id, ZERO) + rec.amount
    changed = []
    for account_id, delta in deltas.items():
        acc = accounts[account_id]
        if delta:
            acc.balance += delta
            changed.append(acc)
    Account.objects.bulk_update(changed, ["balance"], batch_size=500)

    lien_rows = [{"parcel_id": accounts[rec.account_id].parcel_id, "kind": funds[rec.fund_id].lien_kind,
                  "amount": rec.amount, "constituted_on": rec.issued_on, "origin_type": Receivable.LIEN_ORIGIN,
                  "origin_id": str(rec.pk), "origin_label": f"{rec.payment_reference} {rec.description}"[:200],
                  "finances_public_infrastructure": funds[rec.fund_id].finances_public_infrastructure}
                 for rec in receivables if rec.creates_lien and rec.amount > 0]
    liens = lien_services.lien_register_bulk(rows=lien_rows, actor=actor, batch_size=batch_size)

    # Accounts holding unapplied credit take it on their new charges (usually very few).
    applied = ZERO
    with_credit = []
    account_ids = sorted(deltas)
    for i in range(0, len(account_ids), batch_size):
        part = account_ids[i:i + batch_size]
        pools = (LedgerEntry.objects.filter(account_id__in=part, installment__isnull=True)
                 .values("account_id").annotate(t=Sum("amount")))
        with_credit += [p["account_id"] for p in pools if p["t"] < 0]
    for account_id in with_credit:
        applied += credit_apply(account=accounts[account_id], on=max(
            r.issued_on for r in receivables if r.account_id == account_id), actor=actor, params=params)

    grand = sum((r.amount for r in receivables), ZERO)
    audit(actor=actor, action="receivable.bulk_create",
          summary=f"{len(receivables)} cargos, {grand} (omitidos {len(rows) - len(receivables)})",
          data={"created": len(receivables), "skipped": len(rows) - len(receivables), "total": str(grand),
                "liens": liens, "credit_applied": str(applied),
                "references": [receivables[0].payment_reference, receivables[-1].payment_reference]})
    return BulkResult(len(receivables), len(rows) - len(receivables), grand, liens, applied)
