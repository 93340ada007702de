"""The statutory clocks of the improvement districts (DEADLINES: SID-2, SID-3, TID-1-*, TID-4).

Reads the `deadlines` parameters in force on the start date (administrator versions first) and
Puerto Rico's holidays with the staff's corrections (core.Holiday), then hands both to the pure
engine in assessments.rules.deadlines.
"""
from __future__ import annotations

from datetime import date

from assessments.rules.deadlines import Clock, Deadline, clocks_from_parameters, compute_due, unmoved_due
from core.holidays_pr import pr_holidays
from core.parameters import DatabaseParameters

SID_NOTICE = "SID-2"
SID_REMITTANCE = "SID-3"
TID_ORDINANCE = "TID-1-ORDINANCE"
TID_MAYOR = "TID-1-MAYOR"
TID_PUBLICATION = "TID-1-PUBLICATION"
TID_NOTICE = "TID-4"


def holidays(years) -> frozenset[date]:
    """PR legal holidays of `years`, plus days staff added, minus days staff marked as worked."""
    from core.models import Holiday

    years = list(years)
    rows = list(Holiday.objects.filter(date__year__in=years).values_list("date", "is_working_day"))
    added = {d for d, working in rows if not working}
    worked = {d for d, working in rows if working}
    return frozenset((pr_holidays(years) | added) - worked)


def clock(code: str, start: date) -> Clock:
    version = DatabaseParameters().get("deadlines", start)
    return clocks_from_parameters(version.values)[code]


def holidays_around(c: Clock, start: date, years_after: int = 0) -> frozenset[date]:
    year = unmoved_due(c, start).year
    return holidays(range(year - 1, year + 2 + years_after))


def due(code: str, start: date) -> Deadline:
    """The due date of clock `code` started on `start`, moved past weekends and holidays."""
    c = clock(code, start)
    return compute_due(c, start, holidays_around(c, start))
