"""DEADLINES, core.daycount and core.holidays_pr: pure tables, no database."""
from datetime import date

import pytest

from assessments.compute import ComputeInputError, run
from assessments.rules.deadlines import Clock, clocks_from_parameters, compute_due
from assessments.rules.parameters import ShippedParameters
from core.daycount import add_days, add_months, business_day_on_or_after, business_day_on_or_before, is_business_day
from core.holidays_pr import pr_holiday_names, pr_holidays

D = date.fromisoformat
# The holidays the worked examples pass in.
EXAMPLE_HOLIDAYS = frozenset(D(d) for d in ("2026-01-01", "2026-01-06", "2026-11-11", "2026-11-19", "2026-11-26",
                                            "2026-12-25", "2027-01-01", "2027-01-06"))


@pytest.mark.parametrize(("start", "months", "expected"), [
    ("2026-08-31", 6, "2027-02-28"),
    ("2027-08-31", 6, "2028-02-29"),
    ("2024-02-29", 12, "2025-02-28"),
    ("2026-01-31", 1, "2026-02-28"),
    ("2026-08-31", 1, "2026-09-30"),
    ("2026-03-31", -1, "2026-02-28"),
    ("2026-12-15", 1, "2027-01-15"),
    ("2026-07-01", 0, "2026-07-01"),
])
def test_add_months_clamps_to_month_end(start, months, expected):
    assert add_months(D(start), months) == D(expected)


@pytest.mark.parametrize(("start", "days", "expected"), [
    ("2026-06-03", 180, "2026-11-30"),
    ("2027-03-01", -90, "2026-12-01"),
    ("2024-02-28", 1, "2024-02-29"),
    ("2026-12-31", 1, "2027-01-01"),
])
def test_add_days(start, days, expected):
    assert add_days(D(start), days) == D(expected)


@pytest.mark.parametrize(("day", "holidays", "forward", "backward"), [
    ("2026-11-27", set(), "2026-11-27", "2026-11-27"),  # a Friday stays
    ("2026-11-28", set(), "2026-11-30", "2026-11-27"),  # Saturday
    ("2026-11-29", set(), "2026-11-30", "2026-11-27"),  # Sunday
    ("2026-11-26", {"2026-11-26"}, "2026-11-27", "2026-11-25"),
    ("2026-12-25", {"2026-12-25"}, "2026-12-28", "2026-12-24"),  # Friday holiday, then a weekend
    ("2026-11-29", {"2026-11-27", "2026-11-30"}, "2026-12-01", "2026-11-26"),
])
def test_business_day_moves(day, holidays, forward, backward):
    hol = {D(h) for h in holidays}
    assert business_day_on_or_after(D(day), hol) == D(forward)
    assert business_day_on_or_before(D(day), hol) == D(backward)


def test_is_business_day():
    assert is_business_day(D("2026-11-27"), set())
    assert not is_business_day(D("2026-11-27"), {D("2026-11-27")})
    assert not is_business_day(D("2026-11-28"), set())


# --- Puerto Rico holidays -----------------------------------------------------------------

@pytest.mark.parametrize(("day", "is_holiday"), [
    ("2022-11-19", True),   # Discovery of Puerto Rico on a Saturday: stays on Saturday
    ("2022-11-18", False),
    ("2021-12-25", True),
    ("2021-12-24", False),  # the federal "observed" Friday for a Saturday Christmas is dropped
    ("2021-12-31", False),  # nor is New Year's Day 2022 (a Saturday) moved into 2021
    ("2026-07-04", True),
    ("2026-07-03", False),
    ("2022-12-26", True),   # Christmas on a Sunday: observed Monday, kept
    ("2026-03-23", True),   # Emancipation Day on a Sunday: observed Monday
    ("2026-01-06", True),   # Epiphany
    ("2026-04-03", True),   # Good Friday
    ("2026-11-19", True),
    ("2026-03-02", False),  # American Citizenship Day is a government-only category
    ("2026-12-24", False),  # Christmas Eve is only a half day
])
def test_pr_holidays(day, is_holiday):
    d = D(day)
    assert (d in pr_holidays([d.year])) is is_holiday


def test_pr_holidays_adds_extra_dates_and_spans_years():
    election = D("2028-11-07")
    days = pr_holidays(range(2027, 2029), extra=[election])
    assert election in days
    # New Year's Day 2028 is a Saturday: listed on the Saturday, not on Friday 2027-12-31.
    assert D("2028-01-01") in days and D("2027-12-31") not in days
    assert D("2028-01-01").weekday() == 5
    assert all(d.weekday() != 4 or "observed" not in n for d, n in pr_holiday_names(2027).items())


# --- the DEADLINES table ------------------------------------------------------------------

def shipped_clocks():
    return clocks_from_parameters(ShippedParameters().get("deadlines", D("2026-01-01")).values)


@pytest.mark.parametrize(("code", "start", "due", "moved_from"), [
    ("SID-2", "2026-06-03", "2026-11-30", None),
    ("SID-3", "2026-10-03", "2027-01-04", "2027-01-01"),        # past New Year's Day and a weekend
    ("SID-3", "2026-08-29", "2026-11-27", None),
    ("TID-1-ORDINANCE", "2026-08-21", "2026-11-20", "2026-11-19"),
    ("TID-1-MAYOR", "2026-10-20", "2026-11-20", "2026-11-19"),
    ("TID-1-PUBLICATION", "2026-12-18", "2026-12-28", "2026-12-25"),
    ("TID-4", "2026-10-20", "2026-11-20", "2026-11-19"),
    ("FRA-5", "2026-10-27", "2026-11-27", "2026-11-26"),
    ("FRA-7", "2027-02-27", "2026-11-27", "2026-11-29"),        # counted backwards: Sunday -> Friday
    ("FRA-7", "2027-03-01", "2026-12-01", None),
    ("FRA-11", "2026-10-20", "2026-11-20", "2026-11-19"),
    ("LAJ-7", "2026-07-01", "2026-08-30", None),                # a Sunday, but payment terms never move
    ("LAJ-7", "2026-09-27", "2026-11-26", None),                # a holiday, still unmoved
    ("FRA-8", "2026-08-31", "2027-02-28", None),
    ("FRA-8", "2026-05-31", "2026-11-30", None),
    ("FRA-10", "2024-02-29", "2025-02-28", None),
    ("FRA-10", "2025-11-26", "2026-11-26", None),               # a flag: unmoved even on a holiday
])
def test_clocks(code, start, due, moved_from):
    result = compute_due(shipped_clocks()[code], D(start), EXAMPLE_HOLIDAYS)
    assert result.due == D(due)
    assert result.moved_from == (D(moved_from) if moved_from else None)


def test_every_spec_clock_is_shipped_with_a_citation():
    clocks = shipped_clocks()
    assert set(clocks) == {"SID-2", "SID-3", "TID-1-ORDINANCE", "TID-1-MAYOR", "TID-1-PUBLICATION", "TID-4",
                           "FRA-5", "FRA-7", "FRA-11", "LAJ-7", "FRA-8", "FRA-10"}
    assert all(c.citation for c in clocks.values())
    assert {c.code for c in clocks.values() if c.move == "none"} == {"LAJ-7", "FRA-8", "FRA-10"}
    assert clocks["FRA-7"].move == "backward" and clocks["FRA-7"].days == -90


def test_a_clock_needs_exactly_one_term():
    with pytest.raises(ValueError):
        Clock(code="X", move="forward", days=3, months=1)
    with pytest.raises(ValueError):
        Clock(code="X", move="sideways", days=3)


# --- the `deadline` calculation -----------------------------------------------------------

def test_default_holidays_are_puerto_rico_s():
    # 2026-10-03 + 90 days = Friday 2027-01-01, New Year's Day.
    out = run("deadline", {"clock": "SID-3", "start": "2026-10-03"})
    assert (out["due"], out["moved_from"], out["holidays_source"]) == ("2027-01-04", "2027-01-01", "pr_holidays")


def test_saturday_holiday_does_not_move_a_term_off_the_friday():
    # 2026-06-26 + 7 = Friday 2026-07-03, the federal "observed" Independence Day: a PR business day.
    out = run("deadline", {"clock": "TID-1-PUBLICATION", "start": "2026-06-26"})
    assert (out["due"], out["moved_from"]) == ("2026-07-03", None)


def test_given_holidays_replace_the_defaults():
    out = run("deadline", {"clock": "SID-3", "start": "2026-10-03", "holidays": []})
    assert (out["due"], out["moved_from"], out["holidays_source"]) == ("2027-01-01", None, "input")


def test_output_names_rule_citation_and_parameters():
    out = run("deadline", {"clock": "FRA-11", "start": "2026-10-20", "holidays": ["2026-11-19"]})
    assert out["rule"] == "FRA-11"
    assert "8.22" in out["citation"]
    assert out["parameters"] == ["deadlines@statutes-1"]


def test_what_if_parameters():
    payload = {"clock": "SID-3", "start": "2026-08-29", "holidays": [],
               "parameters": {"deadlines": {"clocks": {"SID-3": {"days": 60, "move": "forward"}}}}}
    assert run("deadline", payload)["due"] == "2026-10-28"


@pytest.mark.parametrize(("payload", "field"), [
    ({"clock": "SID-9", "start": "2026-01-01"}, "clock"),
    ({"start": "2026-01-01"}, "clock"),
    ({"clock": "SID-2"}, "start"),
    ({"clock": "SID-2", "start": "2026-02-30"}, "start"),
    ({"clock": "SID-2", "start": 20260101}, "start"),
    ({"clock": "SID-2", "start": "2026-01-01", "holidays": "2026-01-06"}, "holidays"),
    ({"clock": "SID-2", "start": "2026-01-01", "holidays": ["2026-01-06", "soon"]}, "holidays[1]"),
    ({"clock": "SID-2", "start": "2026-01-01", "parameters": {"deadlines": {"clocks": {"SID-2": {"move": "forward"}}}}},
     "parameters"),
])
def test_invalid_input(payload, field):
    with pytest.raises(ComputeInputError) as exc:
        run("deadline", payload)
    assert exc.value.field == field
