"""Puerto Rico legal holidays, as data for core.daycount (docs/rules/README.md#dates-and-days).

Source: the `holidays` library, `country_holidays("US", subdiv="PR")`, public category only.
Choices, and why:

- The library applies the US federal observance rule to the federal holidays it shares with
  Puerto Rico (New Year's Day, Independence Day, Juneteenth, Christmas): a Saturday holiday is
  also listed on the Friday before, "(observed)". Puerto Rico's own lists keep a Saturday
  holiday on the Saturday (it is already a non-business day), so those Friday entries are
  dropped: that Friday is a business day and a term ending on it does not move.
- A Sunday holiday observed on the next Monday is kept (the library does this for the PR
  holidays too), since that Monday is a day off.
- Government-only (American Citizenship Day) and half-day (Christmas Eve from noon) categories
  are not holidays for counting terms.
- Days the library cannot know (general-election day, days the Governor declares) are passed
  in as `extra`.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import date

import holidays

FRIDAY = 4


def pr_holiday_names(year: int) -> dict[date, str]:
    """Puerto Rico legal holidays of `year` with their names (observed Mondays included)."""
    actual = holidays.country_holidays("US", subdiv="PR", years=year, observed=False)
    with_observed = holidays.country_holidays("US", subdiv="PR", years=year)
    names = {}
    for day, name in with_observed.items():
        if day.year != year:
            continue
        if day not in actual and day.weekday() == FRIDAY:
            continue  # a Saturday holiday moved to Friday by the federal rule: not a PR day off
        names[day] = name
    return names


def pr_holidays(years: Iterable[int], extra: Iterable[date] = ()) -> frozenset[date]:
    """The set of Puerto Rico legal holidays in `years`, plus the `extra` dates given."""
    days: set[date] = set(extra)
    for year in years:
        days.update(pr_holiday_names(year))
    return frozenset(days)
