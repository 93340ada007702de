"""`deadline` calculation (docs/compute.md): JSON in, JSON out, over rules.deadlines.

Input: `clock`, `start`, optional `holidays[]` (when given, exactly these are the holidays;
otherwise Puerto Rico's legal holidays), optional `parameters` (what-if).
"""
from __future__ import annotations

from datetime import date

from assessments.rules.deadlines import clocks_from_parameters, compute_due, unmoved_due
from core.compute_errors import ComputeInputError
from core.holidays_pr import pr_holidays
from core.payload import to_date, what_if
from core.rule_parameters import ParameterNotFound

FAMILY = "deadlines"


def _holidays(payload: dict) -> list[date] | None:
    raw = payload.get("holidays")
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise ComputeInputError("holidays", "must be a list of ISO dates")
    return [to_date(v, f"holidays[{i}]") for i, v in enumerate(raw)]


def compute(payload: dict, params) -> dict:
    params = what_if(payload, params)
    if "start" not in payload:
        raise ComputeInputError("start", "required")
    start = to_date(payload["start"], "start")
    try:
        version = params.get(FAMILY, start)
    except ParameterNotFound as exc:
        raise ComputeInputError("start", str(exc)) from None
    try:
        clocks = clocks_from_parameters(version.values)
    except (KeyError, TypeError, ValueError) as exc:
        raise ComputeInputError("parameters", f"invalid {FAMILY} parameters: {exc}") from None
    code = payload.get("clock")
    if not isinstance(code, str) or code not in clocks:
        raise ComputeInputError("clock", f"unknown clock {code!r}; one of {', '.join(clocks)}")
    clock = clocks[code]
    given = _holidays(payload)
    if given is not None:
        holidays = frozenset(given)
    else:
        # A moved term can cross into the next (or, backwards, the previous) year.
        year = unmoved_due(clock, start).year
        holidays = pr_holidays(range(year - 1, year + 2))
    deadline = compute_due(clock, start, holidays)
    return {
        "clock": code,
        "start": start.isoformat(),
        "due": deadline.due.isoformat(),
        "moved_from": deadline.moved_from.isoformat() if deadline.moved_from else None,
        "move": clock.move,
        "start_event": clock.start_event,
        "rule": code,
        "citation": clock.citation,
        "holidays_source": "input" if given is not None else "pr_holidays",
        "parameters": [version.label()],
    }
