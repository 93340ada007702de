"""Statutory clocks (DEADLINES) met versus missed, per fiscal quarter of their due date.

A clock is met when done on or before its due date (core.workqueue.clock_meet marks late ones
MISSED but keeps the date they were done); missed when done late or not done by the due date;
open while its due date has not passed.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from assessments.reports.periods import QUARTER, Bucket, bucket_of, buckets_between
from core.models import Clock


@dataclass(frozen=True)
class ClockQuarter:
    period: Bucket
    met: int
    done_late: int
    not_done: int
    open: int

    @property
    def missed(self) -> int:
        return self.done_late + self.not_done

    @property
    def total(self) -> int:
        return self.met + self.missed + self.open

    @property
    def met_pct(self) -> int | None:
        decided = self.met + self.missed
        return None if decided == 0 else (self.met * 100 + decided // 2) // decided   # half up, whole percent


@dataclass(frozen=True)
class ClockReport:
    start: date
    end: date
    rule: str
    quarters: list[ClockQuarter]


def classify(status: str, due: date, met_on: date | None, as_of: date) -> str:
    """'met', 'done_late', 'not_done' or 'open' for one clock as of `as_of`."""
    if met_on is not None and met_on <= as_of:
        return "met" if met_on <= due else "done_late"
    if status == Clock.Status.MISSED or due < as_of:
        return "not_done"
    return "open"


def clocks_by_quarter(*, start: date, end: date, rule: str = "", as_of: date | None = None) -> ClockReport:
    as_of = as_of or end
    qs = Clock.objects.filter(due_date__gte=start, due_date__lte=end)
    if rule:
        qs = qs.filter(rule=rule)
    counts: dict[Bucket, dict[str, int]] = {}
    for status, due, met_on in qs.values_list("status", "due_date", "met_on").iterator():
        c = counts.setdefault(bucket_of(due, QUARTER), dict.fromkeys(("met", "done_late", "not_done", "open"), 0))
        c[classify(status, due, met_on, as_of)] += 1
    empty = dict.fromkeys(("met", "done_late", "not_done", "open"), 0)
    quarters = [ClockQuarter(b, **counts.get(b, empty)) for b in buckets_between(start, end, QUARTER)]
    return ClockReport(start=start, end=end, rule=rule, quarters=quarters)


def clock_rules() -> list[str]:
    return sorted(set(Clock.objects.values_list("rule", flat=True).distinct()))
