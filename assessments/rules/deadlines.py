"""DEADLINES: the statutory calendar (SID-2, SID-3, TID-1, TID-4, FRA-5, FRA-7, FRA-8, FRA-10,
FRA-11, LAJ-7).

A clock adds calendar days or calendar months to its start event's date. Administrative terms
move forward past Saturdays, Sundays and holidays; FRA-7, counted backwards from the expiry,
moves back to the previous business day; payment terms and flags (LAJ-7, FRA-8, FRA-10) never
move. The day counts are law, so they come from the `deadlines` parameter family.
"""
from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass
from datetime import date

from core.daycount import add_days, add_months, business_day_on_or_after, business_day_on_or_before

MOVES = ("forward", "backward", "none")


@dataclass(frozen=True)
class Clock:
    """One row of the DEADLINES table: exactly one of `days` and `months` is set."""

    code: str
    move: str
    days: int | None = None
    months: int | None = None
    start_event: str = ""
    citation: str = ""

    def __post_init__(self) -> None:
        if (self.days is None) == (self.months is None):
            raise ValueError(f"clock {self.code}: give exactly one of days and months")
        if self.move not in MOVES:
            raise ValueError(f"clock {self.code}: move must be one of {', '.join(MOVES)}")


@dataclass(frozen=True)
class Deadline:
    clock: Clock
    start: date
    due: date
    moved_from: date | None  # the unmoved date when it fell on a weekend or holiday


def clocks_from_parameters(values: Mapping) -> dict[str, Clock]:
    """Build the clocks of a `deadlines` parameter version."""
    return {
        code: Clock(code=code, move=raw["move"], days=raw.get("days"), months=raw.get("months"),
                    start_event=raw.get("start_event", ""), citation=raw.get("citation", ""))
        for code, raw in values["clocks"].items()
    }


def unmoved_due(clock: Clock, start: date) -> date:
    """The start date plus the clock's term, before any move (DEADLINES)."""
    if clock.months is not None:
        return add_months(start, clock.months)
    return add_days(start, clock.days)


def compute_due(clock: Clock, start: date, holidays: Set[date]) -> Deadline:
    """Due date of `clock` started on `start` (DEADLINES; conventions "Days")."""
    raw = unmoved_due(clock, start)
    if clock.move == "forward":
        due = business_day_on_or_after(raw, holidays)
    elif clock.move == "backward":
        due = business_day_on_or_before(raw, holidays)
    else:
        due = raw
    return Deadline(clock=clock, start=start, due=due, moved_from=raw if due != raw else None)
