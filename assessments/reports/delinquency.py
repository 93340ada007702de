"""Delinquency aging for the office report: open past-due amounts by how long they have been due,
from `assessments.ledger.aging.aging_summary` (the same figures the delinquency page shows)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from core.money import ZERO


@dataclass(frozen=True)
class AgingBucket:
    key: str
    label: str
    amount: Decimal


@dataclass(frozen=True)
class AgingReport:
    as_of: date
    buckets: list[AgingBucket]

    @property
    def total(self) -> Decimal:
        return sum((b.amount for b in self.buckets), ZERO)


def aging(*, as_of: date, fund_code: str | None = None, district_id: int | None = None) -> AgingReport:
    # Imported here: the aging module is the ledger's; the report only reads its summary.
    from assessments.ledger.aging import BUCKET_LABELS, aging_summary

    summary = aging_summary(as_of=as_of, fund_code=fund_code, district_id=district_id)
    return AgingReport(as_of=as_of, buckets=[AgingBucket(k, str(BUCKET_LABELS.get(k, k)), v)
                                             for k, v in summary.items()])
