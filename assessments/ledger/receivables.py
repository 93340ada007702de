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
from django.utils import timezone
from django.utils.translation import gettext as _

from assessments.ledger import credit_rules, fastsql
from assessments.ledger import surcharge_rules as sr
from assessments.ledger.allocation import allocate, refresh_receivables
from assessments.ledger.common import (
    CREDIT,
    PRINCIPAL,
    credit_pool,
    credit_tag,
    lock_account,
    lock_accounts,
    payer_credits,
    payment_reference,
    post,
    take_numbers,
    user_or_none,
)
from assessments.ledger.surcharges import TermsCache
from assessments.models import Account, Fund, Installment, LedgerEntry, Receivable
from core.audit import audit
from core.money import CENT, ZERO, sum_cents, to_decimal
from liens import services as lien_services

REFERENCE_SERIES = "payment_reference"
KINDS = frozenset(Receivable.Kind.values)
SURCHARGE_RULES = frozenset(Receivable.SurchargeRule.values)
IN_CHUNK = 900          # ids per IN (…) list: below SQLite's smallest parameter limit
RECEIVABLE_FIELDS = ("kind", "account", "fund", "office", "source_type", "source_id", "description", "breakdown",
                     "surcharge_rule", "surcharge_terms", "payment_reference", "creates_lien", "issued_on", "amount",
                     "status", "created_by", "created_at", "updated_at")
ENTRY_FIELDS = ("account", "receivable", "installment", "kind", "component", "amount", "effective_date", "posted_at",
                "memo", "rule", "actor")


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
    if kind not in KINDS:
        errors["kind"] = _("Tipo de cargo desconocido: %(k)s.") % {"k": kind}
    if surcharge_rule not in SURCHARGE_RULES:
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


def credit_apply(*, account: Account, on: date, actor, params=None, consent_of: Iterable = ()) -> Decimal:
    """docs/rules/README.md#payments: an overpayment is a credit applied to the next charge — but a
    credit belongs to whoever paid (issue #16): on a parcel's account each payer's credit pays the
    open installments, oldest first, only while credit_rules.credit_may_apply allows it (the payer
    is still an owner of record on `on`, or no owner changed since the credit arose), or when the
    payer consents (`consent_of`: party ids or payer names). Caller holds the account lock. Returns
    the amount applied."""
    if credit_pool(account) <= 0:
        return ZERO
    consent = {c.pk if hasattr(c, "pk") else c for c in consent_of}
    owners, changes = _ownership_on(account, on)
    applied = ZERO
    touched: set[int] = set()
    for credit in payer_credits(account):
        pool = credit_pool(account)
        if pool <= 0:
            break
        allowed = account.parcel_id is None or credit_rules.credit_may_apply(
            credit, owner_ids_on_charge=owners, owners_changed_since=any(
                credit.since is None or credit.since < day <= on for day in changes),
            consented=(credit.party_id in consent) if credit.party_id else (credit.name in consent))
        if not allowed:
            continue
        result = allocate(account=account, funds=min(credit.amount, pool), on=on,
                          kind=LedgerEntry.Kind.CREDIT_APPLIED, actor=actor, terms=TermsCache(params),
                          memo=_("Crédito aplicado"))
        if result.applied <= 0:
            continue
        tag = credit_tag(credit)
        for e in result.entries:
            if e.kind == LedgerEntry.Kind.CREDIT_APPLIED:
                e.credit_party_id, e.credit_payer = tag.get("credit_party_id"), tag.get("credit_payer", "")
        memo = _("Crédito aplicado a cargos")
        if credit.name:
            memo = _("Crédito de %(payer)s aplicado a cargos") % {"payer": credit.name}
        result.entries.append(LedgerEntry(account=account, kind=LedgerEntry.Kind.CREDIT_APPLIED, component=CREDIT,
                                          amount=result.applied, effective_date=on, actor=user_or_none(actor),
                                          memo=memo[:300], **tag))
        post(result.entries)
        applied += result.applied
        touched |= result.receivable_ids
        audit(actor=actor, action="credit.apply", target=account, summary=f"{result.applied} aplicado",
              data={"applied": str(result.applied), "payer": credit.name, "party": credit.party_id,
                    "consented": bool(consent)})
    refresh_receivables(touched, on=on, actor=actor)
    return applied


def _ownership_on(account: Account, on: date) -> tuple[frozenset[int], list[date]]:
    """(owners of record of the account's parcel on `on`, every day an ownership began or ended)."""
    from districts.models import Ownership

    if account.parcel_id is None:
        return frozenset(), []
    rows = list(Ownership.objects.filter(parcel_id=account.parcel_id).values_list("party_id", "start_date",
                                                                                   "end_date"))
    owners = frozenset(p for p, start, end in rows if start <= on and (end is None or end > on))
    changes = sorted({d for _p, start, end in rows for d in (start, end) if d is not None})
    return owners, changes


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
    for st, source_ids in by_type.items():
        for i in range(0, len(source_ids), IN_CHUNK):
            existing.update(Receivable.objects.filter(source_type=st, source_id__in=source_ids[i:i + IN_CHUNK])
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
    user_id = getattr(user_or_none(actor), "pk", None)
    now = timezone.now()
    stamp = fastsql.when(now)
    totals = [sum((a for _due, a in insts), ZERO) for _row, insts in cleaned]
    refs = [payment_reference(first_ref + i) for i in range(len(cleaned))]
    returned = fastsql.insert_rows(Receivable, RECEIVABLE_FIELDS, (
        (row.kind, row.account_id, row.fund_id, row.office_id, row.source_type, str(row.source_id),
         row.description[:300], fastsql.as_json(row.breakdown or {}), row.surcharge_rule,
         fastsql.as_json(row.surcharge_terms or {}), ref, row.creates_lien, row.issued_on, total,
         Receivable.Status.OPEN if total > 0 else Receivable.Status.PAID, user_id, stamp, stamp)
        for (row, _insts), ref, total in zip(cleaned, refs, totals, strict=True)),
        returning=("payment_reference", "id") if fastsql.can_return() else ())
    rec_ids: dict[str, int] = dict(returned)
    for i in range(0, len(refs) if not returned else 0, IN_CHUNK):
        rec_ids.update(Receivable.objects.filter(payment_reference__in=refs[i:i + IN_CHUNK])
                       .values_list("payment_reference", "pk"))
    ids = [rec_ids[ref] for ref in refs]
    returned = fastsql.insert_rows(Installment, ("receivable", "seq", "due_date", "amount"), (
        (rid, j + 1, due, amount) for rid, (_row, insts) in zip(ids, cleaned, strict=True)
        for j, (due, amount) in enumerate(insts)),
        returning=("id", "receivable", "seq") if fastsql.can_return() else ())
    inst_ids: dict[tuple[int, int], int] = {(rid, seq): pk for pk, rid, seq in returned}
    for i in range(0, len(ids) if not returned else 0, IN_CHUNK):
        inst_ids.update(((rid, seq), pk) for pk, rid, seq in Installment.objects.filter(
            receivable_id__in=ids[i:i + IN_CHUNK]).values_list("pk", "receivable_id", "seq"))
    fastsql.insert_rows(LedgerEntry, ENTRY_FIELDS, (
        (row.account_id, rid, inst_ids[(rid, j + 1)], LedgerEntry.Kind.CHARGE, PRINCIPAL, amount, row.issued_on,
         stamp, row.description[:300], "", user_id)
        for rid, (row, insts) in zip(ids, cleaned, strict=True) for j, (_due, amount) in enumerate(insts) if amount))

    deltas: dict[int, Decimal] = {}
    for (row, _insts), total in zip(cleaned, totals, strict=True):
        deltas[row.account_id] = deltas.get(row.account_id, ZERO) + total
    fastsql.add_to_column(Account, "balance", ((d, pk) for pk, d in sorted(deltas.items()) if d))

    lien_rows = [{"parcel_id": accounts[row.account_id].parcel_id, "kind": funds[row.fund_id].lien_kind,
                  "amount": total, "constituted_on": row.issued_on, "origin_type": Receivable.LIEN_ORIGIN,
                  "origin_id": str(rid), "origin_label": f"{ref} {row.description}"[:200],
                  "finances_public_infrastructure": funds[row.fund_id].finances_public_infrastructure}
                 for (row, _insts), rid, ref, total in zip(cleaned, ids, refs, totals, strict=True)
                 if row.creates_lien and total > 0]
    liens = lien_services.lien_register_bulk(rows=lien_rows, actor=actor, batch_size=batch_size)

    # Accounts holding unapplied credit take it on their new charges (usually very few).
    applied = ZERO
    with_credit = []
    account_ids = sorted(deltas)
    for i in range(0, len(account_ids), IN_CHUNK):
        part = account_ids[i:i + IN_CHUNK]
        pools = (LedgerEntry.objects.filter(account_id__in=part, installment__isnull=True)
                 .values("account_id").annotate(t=Sum("amount")))
        with_credit += [p["account_id"] for p in pools if sum_cents(p["t"]) < 0]
    for account_id in with_credit:
        applied += credit_apply(account=accounts[account_id], on=max(
            row.issued_on for row, _insts in cleaned if row.account_id == account_id), actor=actor, params=params)

    grand = sum(totals, ZERO)
    created = len(cleaned)
    audit(actor=actor, action="receivable.bulk_create",
          summary=f"{created} cargos, {grand} (omitidos {len(rows) - created})",
          data={"created": created, "skipped": len(rows) - created, "total": str(grand), "liens": liens,
                "credit_applied": str(applied), "references": [refs[0], refs[-1]]})
    return BulkResult(created, len(rows) - created, grand, liens, applied)
