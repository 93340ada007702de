"""Period buckets for reports: calendar month, fiscal quarter, fiscal year (docs/rules/README.md#dates-and-days).

Functions over `date` (month names come from Django's translated abbreviations: "ene", "ago" in
Spanish). A fiscal quarter is a quarter of the fiscal year (T1 = Jul–Sep), so a
quarter never straddles two fiscal years.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from django.utils.dates import MONTHS_3

from core.fiscal import add_months, fiscal_year_end, fiscal_year_of, fiscal_year_start

MONTH = "month"
QUARTER = "quarter"
FISCAL_YEAR = "fy"
GROUPS = (MONTH, QUARTER, FISCAL_YEAR)


@dataclass(frozen=True, order=True)
class Bucket:
    start: date
    end: date
    label: str


def fiscal_quarter_of(day: date) -> tuple[int, int]:
    """(fiscal year, quarter 1–4): July–September is Q1 of the fiscal year ending the next June."""
    return fiscal_year_of(day), (day.month - 7) % 12 // 3 + 1


def _one_day() -> timedelta:
    return timedelta(days=1)


def _month_bucket(day: date) -> Bucket:
    start = day.replace(day=1)
    return Bucket(start, add_months(start, 1) - _one_day(), f"{MONTHS_3[start.month]} {start.year}")


def bucket_of(day: date, group: str) -> Bucket:
    """The period of `group` that contains `day`."""
    if group == MONTH:
        return _month_bucket(day)
    fy = fiscal_year_of(day)
    if group == FISCAL_YEAR:
        return Bucket(fiscal_year_start(fy), fiscal_year_end(fy), f"FY{fy}")
    if group == QUARTER:
        _, q = fiscal_quarter_of(day)
        start = add_months(fiscal_year_start(fy), 3 * (q - 1))
        end = add_months(start, 3) - _one_day()
        return Bucket(start, end, f"FY{fy}-T{q} ({MONTHS_3[start.month]}–{MONTHS_3[end.month]})")
    raise ValueError(f"unknown period group {group!r}; one of {', '.join(GROUPS)}")


def buckets_between(start: date, end: date, group: str) -> list[Bucket]:
    """Every bucket of `group` that overlaps [start, end], in order (empty periods included)."""
    out: list[Bucket] = []
    day = start
    while day <= end:
        b = bucket_of(day, group)
        out.append(b)
        day = b.end + _one_day()
    return out


def fiscal_years_between(start: date, end: date) -> list[int]:
    return list(range(fiscal_year_of(start), fiscal_year_of(end) + 1))
