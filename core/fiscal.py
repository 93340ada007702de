"""Fiscal years, semesters and calendar months (docs/rules/README.md#dates-and-days).

A fiscal year runs July 1 – June 30 and is named by the year it ends: FY2027 = 2026-07-01 …
2027-06-30. Its semesters are S1 = Jul 1 – Dec 31 and S2 = Jan 1 – Jun 30, labelled
"FY2027-S1" / "FY2027-S2" (the label the water-delivery records of IRR-8 use).

Pure functions over `datetime.date`; they sit in inner loops of the roll engines, so they avoid
`calendar` calls and build as few objects as they can.
"""
from __future__ import annotations

import re
from datetime import date

# One month arithmetic for the whole project (re-exported: older imports say core.fiscal).
from core.daycount import add_months  # noqa: F401

_PERIOD_RE = re.compile(r"^FY(\d{4})-S([12])$")


def month_index(day: date) -> int:
    """Months since year 0: a number that makes month arithmetic plain subtraction."""
    return day.year * 12 + day.month - 1


def fiscal_year_of(day: date) -> int:
    """The fiscal year containing `day` (named by the year it ends)."""
    return day.year + 1 if day.month >= 7 else day.year


def fiscal_year_start(fiscal_year: int) -> date:
    return date(fiscal_year - 1, 7, 1)


def fiscal_year_end(fiscal_year: int) -> date:
    """Last day of the fiscal year (June 30)."""
    return date(fiscal_year, 6, 30)


def semester_of(day: date) -> tuple[int, int]:
    """(fiscal year, semester number 1 or 2) containing `day`."""
    return (day.year + 1, 1) if day.month >= 7 else (day.year, 2)


def semester_start(fiscal_year: int, semester: int) -> date:
    return date(fiscal_year - 1, 7, 1) if semester == 1 else date(fiscal_year, 1, 1)


def semester_end(fiscal_year: int, semester: int) -> date:
    """Last day of the semester (Dec 31 or Jun 30)."""
    return date(fiscal_year - 1, 12, 31) if semester == 1 else date(fiscal_year, 6, 30)


def next_semester(fiscal_year: int, semester: int) -> tuple[int, int]:
    return (fiscal_year, 2) if semester == 1 else (fiscal_year + 1, 1)


def previous_semester(fiscal_year: int, semester: int) -> tuple[int, int]:
    return (fiscal_year - 1, 2) if semester == 1 else (fiscal_year, 1)


def period_label(fiscal_year: int, semester: int) -> str:
    """"FY2027-S1" style label of a semester."""
    return f"FY{fiscal_year}-S{semester}"


def parse_period(label: str) -> tuple[int, int]:
    """Inverse of `period_label`; raises ValueError on anything else."""
    match = _PERIOD_RE.match(label) if isinstance(label, str) else None
    if match is None:
        raise ValueError(f"not a semester label like FY2027-S1: {label!r}")
    return int(match.group(1)), int(match.group(2))


def is_semester_start(day: date) -> bool:
    return day.day == 1 and (day.month == 7 or day.month == 1)


def semester_start_on_or_after(day: date) -> date:
    """The first semester start (Jul 1 or Jan 1) on or after `day`."""
    if day.day == 1 and (day.month == 7 or day.month == 1):
        return day
    return date(day.year, 7, 1) if day.month < 7 else date(day.year + 1, 1, 1)


def first_of_next_month(day: date) -> date:
    return date(day.year + 1, 1, 1) if day.month == 12 else date(day.year, day.month + 1, 1)
