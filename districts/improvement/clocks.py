"""The statutory clocks of the improvement districts (DEADLINES: SID-2, SID-3, TID-1-*, TID-4).

Due dates: the `deadlines` parameters in force on the start date (administrator versions first)
and Puerto Rico's holidays with the staff's corrections (core.workqueue.holidays_for_term), handed
to the pure engine in assessments.rules.deadlines. Each term is also opened as a Clock in core's
work queue against the record it concerns, and met when the record shows it was done.
"""
from __future__ import annotations

from datetime import date

from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from assessments.rules.deadlines import Clock, Deadline, clocks_from_parameters, compute_due, unmoved_due
from core import workqueue
from core.daycount import add_months
from core.parameters import DatabaseParameters
from core.rule_parameters import ParameterNotFound
from districts.improvement import rules

SID_NOTICE = "SID-2"
SID_REMITTANCE = "SID-3"
TID_ORDINANCE = "TID-1-ORDINANCE"
TID_MAYOR = "TID-1-MAYOR"
TID_PUBLICATION = "TID-1-PUBLICATION"
TID_NOTICE = "TID-4"


def clock(code: str, start: date) -> Clock:
    try:
        version = DatabaseParameters().get("deadlines", start)
    except ParameterNotFound:  # no deadlines version in force on that date
        raise _out_of_range(code, start) from None
    return clocks_from_parameters(version.values)[code]


def _out_of_range(code: str, start: date) -> ValidationError:
    return ValidationError(_("No se puede contar el plazo %(code)s desde el %(start)s: revise esa fecha, está fuera "
                             "de los parámetros de plazos.") % {"code": code, "start": start.isoformat()})


def due(code: str, start: date) -> Deadline:
    """The due date of clock `code` started on `start`, moved past weekends and holidays."""
    c = clock(code, start)
    try:
        return compute_due(c, start, workqueue.holidays_for_term(start, unmoved_due(c, start)))
    except (OverflowError, ValueError):  # a term that would end past year 9999
        raise _out_of_range(code, start) from None


def schedule(code: str, start: date, rounds: int) -> list[Deadline]:
    """SID-2 / TID-4: the first notice round and the yearly ones after it (rules.notice_schedule)."""
    c = clock(code, start)
    try:
        last = add_months(unmoved_due(c, start), 12 * max(rounds - 1, 0))
        return rules.notice_schedule(c, start, rounds, workqueue.holidays_for_term(start, last))
    except (OverflowError, ValueError):
        raise _out_of_range(code, start) from None


def open_clock(*, code: str, start: date, due_on: date, target, label: str, district, actor):
    """Open the work-queue clock for a term (opening it twice changes nothing)."""
    c = clock(code, start)
    office = district.collecting_office or district.office
    return workqueue.clock_open(rule=code, start_date=start, due_date=due_on, target=target, label=label,
                                start_event=c.start_event, office_id=office.pk if office else None,
                                office_name=str(office) if office else "", actor=actor)


def meet_clock(*, code: str, target, on: date, actor) -> None:
    """Meet the open work-queue clock `code` of `target` (met in time or late, by its due date)."""
    from core.models import Clock as QueueClock

    content_type = ContentType.objects.get_for_model(target)
    for row in QueueClock.objects.filter(rule=code, content_type=content_type, object_id=target.pk,
                                         met_on__isnull=True):
        workqueue.clock_meet(clock=row, on=on, actor=actor)
