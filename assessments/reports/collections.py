"""Collections by fund and period, and what fell due against what was collected per month.

Collections count exactly what `assessments.ledger.reports.collections_by_fund` counts (payments and
credit applied to a fund's charges, less returned payments), split by period; over one range the two
reports agree to the cent.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db.models import Sum
from django.db.models.functions import TruncMonth

from assessments.ledger.reports import COLLECTION_KINDS, CollectionsReport, collections_by_fund
from assessments.models import Fund, Installment, LedgerEntry
from assessments.reports.periods import MONTH, Bucket, bucket_of, buckets_between
from assessments.reports.scope import receivable_q
from core.money import ZERO, sum_cents


@dataclass(frozen=True)
class CollectionRow:
    fund_code: str
    fund_name: str
    period: Bucket
    principal: Decimal
    surcharge: Decimal

    @property
    def total(self) -> Decimal:
        return self.principal + self.surcharge


@dataclass(frozen=True)
class CollectionsByPeriod:
    start: date
    end: date
    group: str
    rows: list[CollectionRow]
    whole_range: CollectionsReport | None      # unapplied credit and refunds (no fund, so no period split)

    @property
    def principal(self) -> Decimal:
        return sum((r.principal for r in self.rows), ZERO)

    @property
    def surcharge(self) -> Decimal:
        return sum((r.surcharge for r in self.rows), ZERO)

    @property
    def total(self) -> Decimal:
        return sum((r.total for r in self.rows), ZERO)


def _collection_entries(start: date, end: date, fund_code: str | None, district_id: int | None):
    return (LedgerEntry.objects.filter(installment__isnull=False, kind__in=COLLECTION_KINDS,
                                       effective_date__gte=start, effective_date__lte=end)
            .filter(receivable_q(fund_code=fund_code, district_id=district_id, prefix="receivable__"))
            # A reversal of a charge or surcharge is a correction of what was billed, not money.
            .exclude(kind=LedgerEntry.Kind.REVERSAL, reverses__kind__in=[LedgerEntry.Kind.CHARGE,
                                                                        LedgerEntry.Kind.SURCHARGE]))


def collections_by_period(*, start: date, end: date, group: str = MONTH, fund_code: str | None = None,
                          district_id: int | None = None) -> CollectionsByPeriod:
    """Each fund's collections in each period of `group` between `start` and `end` (inclusive)."""
    rows = (_collection_entries(start, end, fund_code, district_id)
            .annotate(month=TruncMonth("effective_date"))
            .values("receivable__fund_id", "month", "component").annotate(total=Sum("amount")))
    sums: dict[tuple[int, Bucket], dict[str, Decimal]] = {}
    for row in rows:
        month = row["month"]
        month = month.date() if hasattr(month, "date") else month
        key = (row["receivable__fund_id"], bucket_of(month, group))
        d = sums.setdefault(key, {"PRINCIPAL": ZERO, "SURCHARGE": ZERO})
        d[row["component"]] -= sum_cents(row["total"])     # collections are credits (negative) in the ledger
    funds = {f.pk: f for f in Fund.objects.filter(pk__in={k[0] for k in sums})}
    out = [CollectionRow(funds[fid].code, funds[fid].name, bucket, v["PRINCIPAL"], v["SURCHARGE"])
           for (fid, bucket), v in sums.items()]
    out.sort(key=lambda r: (r.fund_name, r.period.start))
    whole = collections_by_fund(start=start, end=end) if not (fund_code or district_id) else None
    return CollectionsByPeriod(start=start, end=end, group=group, rows=out, whole_range=whole)


@dataclass(frozen=True)
class MonthlyDueAndCollected:
    months: list[Bucket]
    due: list[Decimal]          # installments falling due in the month (what was assessed for it)
    collected: list[Decimal]    # collected in the month, whatever the due date


def due_and_collected_by_month(*, start: date, end: date, fund_code: str | None = None,
                               district_id: int | None = None) -> MonthlyDueAndCollected:
    months = buckets_between(start, end, MONTH)
    index = {b.start: i for i, b in enumerate(months)}
    due, collected = [ZERO] * len(months), [ZERO] * len(months)
    inst = (Installment.objects.filter(due_date__gte=start, due_date__lte=end)
            .filter(receivable_q(fund_code=fund_code, district_id=district_id, prefix="receivable__"))
            .annotate(month=TruncMonth("due_date")).values("month").annotate(total=Sum("amount")))
    for row in inst:
        month = row["month"].date() if hasattr(row["month"], "date") else row["month"]
        due[index[month]] += sum_cents(row["total"])
    paid = (_collection_entries(start, end, fund_code, district_id).annotate(month=TruncMonth("effective_date"))
            .values("month").annotate(total=Sum("amount")))
    for row in paid:
        month = row["month"].date() if hasattr(row["month"], "date") else row["month"]
        collected[index[month]] -= sum_cents(row["total"])
    return MonthlyDueAndCollected(months, due, collected)
