"""Calendar-day counting for statutory terms (docs/rules/README.md#dates-and-days; docs/rules/deadlines.md).

Pure functions: holidays are data, passed in as a set of dates (see core.holidays_pr for
Puerto Rico's legal holidays). A term for the administration or a party to act that ends on a
Saturday, Sunday or holiday moves to the next business day; a term counted backwards (FRA-7's
"at least 90 days before") moves to the previous one, so acting on the moved day is still in time.
"""
from __future__ import annotations

from collections.abc import Set
from datetime import date, timedelta

SATURDAY = 5
# Days in each month of a common year; February is corrected for leap years in `days_in_month`.
_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def add_days(day: date, days: int) -> date:
    """`day` plus (or minus) a number of calendar days."""
    return day + timedelta(days=days)


def days_in_month(year: int, month: int) -> int:
    """28–31; a table, not `calendar.monthrange`: the roll engines call this in inner loops."""
    if month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0):
        return 29
    return _DAYS[month - 1]


def add_months(day: date, months: int) -> date:
    """`day` plus (or minus) calendar months, clamped to the target month's last day.

    Aug 31 + 6 months = Feb 28 (or 29); Aug 31 + 1 month = Sep 30; Feb 29 + 12 months = Feb 28
    (LAJ-7, docs/rules/deadlines.md). Always counted from `day` itself, never step by step, so clamping
    never accumulates. The one implementation: core.fiscal re-exports it.
    """
    year, month0 = divmod(day.year * 12 + day.month - 1 + months, 12)
    month = month0 + 1
    last = days_in_month(year, month)
    return date(year, month, day.day if day.day <= last else last)


def is_business_day(day: date, holidays: Set[date]) -> bool:
    """Monday to Friday and not a holiday."""
    return day.weekday() < SATURDAY and day not in holidays


def business_day_on_or_after(day: date, holidays: Set[date]) -> date:
    """`day` itself when it is a business day, else the next business day (terms moved forward)."""
    while not is_business_day(day, holidays):
        day += timedelta(days=1)
    return day


def business_day_on_or_before(day: date, holidays: Set[date]) -> date:
    """`day` itself when it is a business day, else the previous business day (terms counted backwards)."""
    while not is_business_day(day, holidays):
        day -= timedelta(days=1)
    return day


def days_inclusive(start: date, end: date) -> int:
    """Days from `start` to `end`, both counted (a billing period: July 1 – June 30 is 365 or 366);
    0 when the period is empty (`end` before `start`)."""
    return max((end - start).days + 1, 0)
