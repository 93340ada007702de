"""Delinquency aging: what is open and past due on a date, by how long it has been due.

An installment is past due on `as_of` when its due date is on or before that day (the statement's
`is_due`); its age is `as_of - due_date` in days and it falls in the bucket whose range holds that
age. The open amount is the ledger's own sum (principal and posted surcharge; entries effective on
or before `as_of`), so payments, reversals and adjustments are counted as they stood that day.
Surcharge accrued but not posted (IRR-9, LAJ-7) is not part of it: the statements compute that.

The sums run in the database (one grouping per call; the list pages by LIMIT/OFFSET) so the page
stays fast on a 100,000-line roll; bucket bounds become due-date bounds in Python, which keeps the
SQL portable (PostgreSQL and SQLite).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from django.db import connection
from django.utils.translation import gettext_lazy as _

from assessments.ledger.sources import district_source_types
from assessments.models import Fund, Installment, LedgerEntry, Receivable
from core.money import ZERO, sum_cents

# (key, first day, last day or None). Keys are stable: exports, charts and other modules use them.
BUCKETS = (("0-60", 0, 60), ("61-120", 61, 120), ("121-180", 121, 180), ("181-365", 181, 365), (">365", 366, None))
BUCKET_KEYS = tuple(key for key, _lo, _hi in BUCKETS)
BUCKET_LABELS = {
    "0-60": _("0 a 60 días"),
    "61-120": _("61 a 120 días"),
    "121-180": _("121 a 180 días"),
    "181-365": _("181 a 365 días"),
    ">365": _("más de 365 días"),
}
OWNERS_CHUNK = 5000
NAME_FIELDS = ("kind", "organization_name", "given_names", "first_surname", "second_surname")
PARTY_NAME = tuple(f"party__{f}" for f in NAME_FIELDS)


def bucket_for(days: int) -> str | None:
    """The bucket of an installment `days` past its due date (None when not yet due)."""
    if days < 0:
        return None
    for key, lo, hi in BUCKETS:
        if days >= lo and (hi is None or days <= hi):
            return key
    raise AssertionError("buckets cover every non-negative age")  # pragma: no cover


def empty_buckets() -> dict[str, Decimal]:
    return dict.fromkeys(BUCKET_KEYS, ZERO)


@dataclass(frozen=True)
class AgingRow:
    """One delinquent account (a parcel, or a holder for franchise charges) on `as_of`."""

    account_id: int
    parcel_id: int | None
    cadastre: str
    holder: str                                   # the party of a holder account ("" for a parcel)
    owners: tuple[str, ...]
    buckets: dict[str, Decimal] = field(default_factory=empty_buckets)
    total: Decimal = ZERO
    oldest_due: date | None = None
    installments: int = 0

    @property
    def label(self) -> str:
        return self.cadastre or self.holder

    @property
    def owners_text(self) -> str:
        return "; ".join(self.owners)


def _open_installments_sql(*, as_of: date, fund_code: str | None, district_id: int | None) -> tuple[str, list] | None:
    """SQL of the open, past-due amount of each installment: (installment_id, account_id, due_date,
    open_amount). None when the filter can match nothing."""
    qn = connection.ops.quote_name
    entries, insts, recs, funds = (qn(m._meta.db_table) for m in (LedgerEntry, Installment, Receivable, Fund))
    where = ["e.installment_id IS NOT NULL", "e.effective_date <= %s"]
    params: list = [as_of]
    if fund_code or district_id:
        # Filter the receivables by id first: the receivable rows are wide (breakdown JSON).
        rec_where, rec_params = [], []
        if fund_code:
            rec_where.append(f"r.fund_id IN (SELECT f.id FROM {funds} f WHERE f.code = %s)")  # noqa: S608
            rec_params.append(fund_code)
        if district_id:
            sources = district_source_types(district_id)
            if not sources:
                return None
            rec_where.append("r.source_type IN (" + ", ".join(["%s"] * len(sources)) + ")")
            rec_params += sources
        where.append(f"e.receivable_id IN (SELECT r.id FROM {recs} r WHERE {' AND '.join(rec_where)})")  # noqa: S608
        params += rec_params
    where.append("i.due_date <= %s")
    params.append(as_of)
    # An installment's entries all belong to one account and it has one due date: MIN() carries them
    # through the grouping (measured faster than grouping first and joining the installments after).
    sql = (f"SELECT e.installment_id, MIN(e.account_id) AS account_id, MIN(i.due_date) AS due_date, "  # noqa: S608
           f"SUM(e.amount) AS open_amount FROM {entries} e JOIN {insts} i ON i.id = e.installment_id "
           f"WHERE {' AND '.join(where)} GROUP BY e.installment_id HAVING SUM(e.amount) > 0")
    return sql, params


def _bucket_sums(as_of: date) -> tuple[str, list]:
    """One SUM per bucket over the open installments `o` (ages turned into due-date bounds)."""
    parts, params = [], []
    for _key, lo, hi in BUCKETS:
        # lo <= age <= hi  ⇔  as_of - hi <= due_date <= as_of - lo
        if hi is None:
            parts.append("SUM(CASE WHEN o.due_date <= %s THEN o.open_amount ELSE 0 END)")
            params.append(as_of - timedelta(days=lo))
        else:
            parts.append("SUM(CASE WHEN o.due_date BETWEEN %s AND %s THEN o.open_amount ELSE 0 END)")
            params += [as_of - timedelta(days=hi), as_of - timedelta(days=lo)]
    return ", ".join(parts), params


def _money(value) -> Decimal:
    # SQLite hands back floats or strings for SUM over decimals: core.money rounds them to the cent, half up.
    return sum_cents(value)


def _as_date(value) -> date | None:
    return date.fromisoformat(value) if isinstance(value, str) else value


def aging_summary(*, as_of: date, fund_code: str | None = None, district_id: int | None = None) -> dict[str, Decimal]:
    """Bucket key → open amount past due on `as_of` (every key present, 0.00 when empty)."""
    return aging_overview(as_of=as_of, fund_code=fund_code, district_id=district_id)[0]


def aging_overview(*, as_of: date, fund_code: str | None = None,
                   district_id: int | None = None) -> tuple[dict[str, Decimal], int]:
    """(bucket sums, number of delinquent accounts) in one pass over the ledger."""
    query = _open_installments_sql(as_of=as_of, fund_code=fund_code, district_id=district_id)
    if query is None:
        return empty_buckets(), 0
    sums, sum_params = _bucket_sums(as_of)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {sums}, COUNT(DISTINCT o.account_id) FROM ({query[0]}) o",  # noqa: S608
                       sum_params + query[1])
        row = cursor.fetchone()
    return {key: _money(v) for key, v in zip(BUCKET_KEYS, row[:-1], strict=True)}, row[-1] or 0


def delinquent_count(*, as_of: date, fund_code: str | None = None, district_id: int | None = None) -> int:
    """How many accounts have something past due on `as_of`."""
    return aging_overview(as_of=as_of, fund_code=fund_code, district_id=district_id)[1]


def delinquent_accounts(*, as_of: date, fund_code: str | None = None, district_id: int | None = None,
                        limit: int | None = None, offset: int = 0) -> list[AgingRow]:
    """Accounts with something past due on `as_of`, largest total first (then account number), with
    the amount per bucket, the oldest due date and the owners of record on that day. `limit` and
    `offset` page in SQL, so a page of 50 reads 50 accounts' holders and owners."""
    query = _open_installments_sql(as_of=as_of, fund_code=fund_code, district_id=district_id)
    if query is None:
        return []
    sums, sum_params = _bucket_sums(as_of)
    sql = (f"SELECT o.account_id, {sums}, SUM(o.open_amount) AS total, COUNT(*), MIN(o.due_date) "  # noqa: S608
           f"FROM ({query[0]}) o GROUP BY o.account_id ORDER BY total DESC, o.account_id")
    params = sum_params + query[1]
    if limit is not None:
        sql += " LIMIT %s OFFSET %s"
        params += [limit, offset]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    holders = _account_holders([r[0] for r in found])
    owners = _owners_on([h[0] for h in holders.values() if h[0]], as_of)
    rows = []
    n = len(BUCKET_KEYS)
    for account_id, *values in found:
        parcel_id, cadastre, holder = holders[account_id]
        buckets = {key: _money(v) for key, v in zip(BUCKET_KEYS, values[:n], strict=True)}
        total, count, oldest = values[n:]
        rows.append(AgingRow(account_id=account_id, parcel_id=parcel_id, cadastre=cadastre, holder=holder,
                             owners=tuple(owners.get(parcel_id, ())), buckets=buckets, total=_money(total),
                             oldest_due=_as_date(oldest), installments=count))
    return rows


class DelinquentRows:
    """`delinquent_accounts` as a sequence a Paginator can slice: each page is one LIMIT/OFFSET query."""

    def __init__(self, *, count: int | None = None, **filters) -> None:
        self.filters = filters
        self._count = count     # known already from aging_overview: saves a pass over the ledger

    def count(self) -> int:
        if self._count is None:
            self._count = delinquent_count(**self.filters)
        return self._count

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index):
        if not isinstance(index, slice):
            raise TypeError("DelinquentRows takes slices")
        start, stop = index.start or 0, index.stop if index.stop is not None else self.count()
        return delinquent_accounts(**self.filters, limit=max(stop - start, 0), offset=start)


def _account_holders(account_ids: list[int]) -> dict[int, tuple[int | None, str, str]]:
    from assessments.models import Account

    out = {}
    for i in range(0, len(account_ids), OWNERS_CHUNK):
        part = account_ids[i:i + OWNERS_CHUNK]
        for pk, parcel_id, cadastre, *name in (Account.objects.filter(pk__in=part)
                                               .values_list("pk", "parcel_id", "parcel__cadastre", *PARTY_NAME)):
            out[pk] = (parcel_id, cadastre or "", _party_name(*name))
    return out


def _party_name(kind, organization, given, first, second) -> str:
    """Party.display_name from its columns (no model instances for 100,000 rows)."""
    if kind is None:
        return ""
    if kind == "ORGANIZATION":
        return organization or ""
    return " ".join(p for p in (given, first, second) if p)


def _owners_on(parcel_ids: list[int], on: date) -> dict[int, list[str]]:
    """Owners of record of each parcel on `on` (largest share first)."""
    from django.db.models import Q

    from districts.models import Ownership

    out: dict[int, list[str]] = defaultdict(list)
    for i in range(0, len(parcel_ids), OWNERS_CHUNK):
        part = parcel_ids[i:i + OWNERS_CHUNK]
        qs = (Ownership.objects.filter(parcel_id__in=part, start_date__lte=on)
              .filter(Q(end_date__isnull=True) | Q(end_date__gt=on))
              .order_by("parcel_id", "-share_pct", "party__first_surname", "party__organization_name")
              .values_list("parcel_id", *(f"party__{f}" for f in NAME_FIELDS)))
        for parcel_id, *name in qs:
            out[parcel_id].append(_party_name(*name))
    return out


def summary_total(summary: dict[str, Decimal]) -> Decimal:
    return sum(summary.values(), ZERO)
