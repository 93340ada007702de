"""Issue #10 "done when": each kind of deadline moved across its boundaries on the dashboard.

For every DEADLINES clock (docs/rules/deadlines.md: SID-2, SID-3, TID-1-*, TID-4, FRA-5, FRA-7, FRA-8, FRA-10,
FRA-11, LAJ-7) and the fixed July 1 date of rolls (IRR-9, LAJ-6), with `today=` moved day by day:
open and not yet on the board → within 30 days → this week → due today → overdue (missed), and
met in time or late leaves the board.
"""
from datetime import date, timedelta

import pytest

from assessments.rules.deadlines import clocks_from_parameters, compute_due, unmoved_due
from assessments.rules.parameters import ShippedParameters
from core.dashboard import items as it
from core.dashboard.registry import collect
from core.dashboard.selectors import home_board
from core.models import Clock
from core.workqueue import clock_meet, clock_open, clocks_mark_missed, holidays_for_term
from tests import factories

pytestmark = pytest.mark.django_db
D = date.fromisoformat
START = D("2026-03-02")
CODES = ["SID-2", "SID-3", "TID-1-ORDINANCE", "TID-1-MAYOR", "TID-1-PUBLICATION", "TID-4", "FRA-5", "FRA-7",
         "FRA-11", "LAJ-7", "FRA-8", "FRA-10"]


def open_statutory_clock(code: str, start: date, target) -> Clock:
    rule = clocks_from_parameters(ShippedParameters().get("deadlines", start).values)[code]
    due = compute_due(rule, start, holidays_for_term(start, unmoved_due(rule, start))).due
    return clock_open(rule=code, start_date=start, due_date=due, target=target, label=f"Plazo {code}",
                      start_event=rule.start_event, moves_past_holidays=rule.move != "none")


def window_on(clock: Clock, today: date) -> str | None:
    """Where the clock shows on the board on `today` (None: not on it)."""
    found = [i for i in collect(today=today) if i.key == f"clock:{clock.pk}"]
    return it.window(found[0].due_date, today) if found else None


@pytest.mark.parametrize("code", CODES)
def test_each_clock_kind_opens_comes_due_and_is_missed(code, staff_user):
    clock = open_statutory_clock(code, START, factories.district())
    due = clock.due_date
    assert window_on(clock, due - timedelta(days=31)) is None                # open, not yet within 30 days
    assert window_on(clock, due - timedelta(days=30)) == it.NEXT_30             # enters the 30-day horizon
    assert window_on(clock, due - timedelta(days=8)) == it.NEXT_30
    assert window_on(clock, due - timedelta(days=7)) == it.THIS_WEEK         # "Esta semana" starts
    assert window_on(clock, due) == it.THIS_WEEK                              # the due date is the last day to act
    board = home_board(staff_user, due)
    assert f"clock:{clock.pk}" in [r["item"].key for r in board["week"]]
    assert [r["days_left"] for r in board["week"] if r["item"].key == f"clock:{clock.pk}"] == [0]

    day_after = due + timedelta(days=1)
    assert window_on(clock, day_after) == it.OVERDUE                          # before the nightly task runs
    assert clocks_mark_missed(day_after) == 1
    clock.refresh_from_db()
    assert clock.status == Clock.Status.MISSED
    assert window_on(clock, day_after + timedelta(days=100)) == it.OVERDUE    # stays until something is done
    clock_meet(clock=clock, on=day_after + timedelta(days=3), actor=None)     # done late
    clock.refresh_from_db()
    assert (clock.status, clock.met_on) == (Clock.Status.MISSED, day_after + timedelta(days=3))
    assert window_on(clock, day_after + timedelta(days=4)) is None


@pytest.mark.parametrize("code", CODES)
def test_each_clock_kind_met_on_its_due_date_leaves_the_board(code):
    clock = open_statutory_clock(code, START, factories.parcel())
    assert window_on(clock, clock.due_date) == it.THIS_WEEK
    clock_meet(clock=clock, on=clock.due_date, actor=None)
    clock.refresh_from_db()
    assert clock.status == Clock.Status.MET
    assert window_on(clock, clock.due_date) is None
    assert clocks_mark_missed(clock.due_date + timedelta(days=1)) == 0


def test_due_dates_are_the_statute_s_own():
    """The board shows the due date DEADLINES computed (moved past weekends and holidays or not)."""
    district = factories.district()
    sid3 = open_statutory_clock("SID-3", D("2026-08-05"), district)      # +90 days = Tue 2026-11-03
    fra7 = open_statutory_clock("FRA-7", D("2027-01-16"), district)      # −90 days = Sun 2026-10-18 → Fri 10-16
    laj7 = open_statutory_clock("LAJ-7", D("2026-07-01"), district)      # +60 days = Sun 2026-08-30, never moves
    assert (sid3.due_date, fra7.due_date, laj7.due_date) == (D("2026-11-03"), D("2026-10-16"), D("2026-08-30"))
