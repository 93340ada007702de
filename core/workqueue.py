"""The work queue: statutory clocks (docs/rules/deadlines.md) and flags, each linked to the record it concerns.

Writes only (services): keyword-only arguments, one transaction, one audit entry per change.
Due dates are computed by the caller's app through assessments.rules.deadlines, which owns the
DEADLINES table (core sits below it and never imports it); `holidays_between` gives that
calculation Puerto Rico's legal holidays merged with the dates staff record in core.Holiday.
Every service can run twice with the same arguments and change nothing the second time.
"""
from __future__ import annotations

from datetime import date, timedelta

from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import NoReverseMatch
from django.utils import timezone
from django.utils.translation import gettext as _

from core import roles
from core.audit import audit
from core.holidays_pr import pr_holidays
from core.models import Clock, Flag, Holiday

# A term moved forward (or, counted backwards, back) past weekends and holidays never travels
# this far; `holidays_for_term` pads the window by it so the move sees the days it crosses.
MOVE_MARGIN = timedelta(days=31)


# --- Holidays ---------------------------------------------------------------------------------

def holidays_between(start: date, end: date) -> frozenset[date]:
    """Holidays from `start` to `end` inclusive: Puerto Rico's legal holidays (core.holidays_pr)
    plus the core.Holiday rows staff entered, minus the rows marked `is_working_day`.

    For a due date, the window must reach past the unmoved date (a term moved forward needs
    the days after it): see `holidays_for_term`.
    """
    if end < start:
        start, end = end, start
    days = {d for d in pr_holidays(range(start.year, end.year + 1)) if start <= d <= end}
    for day, is_working_day in Holiday.objects.filter(date__range=(start, end)).values_list("date", "is_working_day"):
        if is_working_day:
            days.discard(day)
        else:
            days.add(day)
    return frozenset(days)


def holidays_for_term(start: date, unmoved_due: date) -> frozenset[date]:
    """The holidays a term from `start` to `unmoved_due` can meet, moves included."""
    low, high = min(start, unmoved_due), max(start, unmoved_due)
    return holidays_between(low - MOVE_MARGIN, high + MOVE_MARGIN)


# --- Shared helpers ---------------------------------------------------------------------------

def _describe(target) -> tuple[str, str]:
    """A record's label and staff URL as the lists show them."""
    label = str(target)[:200]
    try:
        url = target.get_absolute_url() if hasattr(target, "get_absolute_url") else ""
    except NoReverseMatch:
        url = ""
    return label, (url or "")[:300]


def _target_key(target) -> tuple[ContentType, int]:
    if target is None or target.pk is None:
        raise ValidationError("the work queue links saved records only")
    return ContentType.objects.get_for_model(target), target.pk


def _check_assignee(user) -> None:
    if user is not None and not roles.can_write(user):
        raise ValidationError({"user": _("Solo se asigna a personal de la oficina que puede actuar sobre los "
                                         "registros.")})


def _today() -> date:
    return timezone.localdate()


# --- Clocks -----------------------------------------------------------------------------------

@transaction.atomic
def clock_open(*, rule: str, start_date: date, due_date: date, target, label: str, start_event: str = "",
               moves_past_holidays: bool = True, responsible_user=None, office_id: int | None = None,
               office_name: str = "", notes: str = "", actor=None) -> Clock:
    """Start the clock `rule` (a DEADLINES code) against `target`.

    `due_date` comes from the caller's app through assessments.rules.deadlines.compute_due
    (with `holidays_for_term`); `moves_past_holidays` is False for payment terms and flags
    (LAJ-7, FRA-8, FRA-10). The natural key is (rule, target, start_date): opening the same
    clock again returns the existing one unchanged.
    """
    if due_date is None:
        raise ValidationError({"due_date": "a clock needs its due date"})
    content_type, object_id = _target_key(target)
    existing = Clock.objects.filter(rule=rule, content_type=content_type, object_id=object_id,
                                    start_date=start_date).first()
    if existing is not None:
        return existing
    record_label, record_url = _describe(target)
    try:
        with transaction.atomic():
            clock = Clock.objects.create(
                rule=rule, label=label[:200], start_event=start_event[:200], start_date=start_date,
                due_date=due_date, moves_past_holidays=moves_past_holidays, content_type=content_type,
                object_id=object_id, record_label=record_label, record_url=record_url, office_id=office_id,
                office_name=office_name[:200], responsible_user=responsible_user, notes=notes)
    except IntegrityError:  # the same clock opened at the same moment by another worker
        return Clock.objects.get(rule=rule, content_type=content_type, object_id=object_id, start_date=start_date)
    audit(actor=actor, action="clock.open", target=clock,
          summary=f"Plazo {rule} abierto: {record_label}, vence el {due_date:%d/%m/%Y}",
          data={"rule": rule, "start_date": start_date.isoformat(), "due_date": due_date.isoformat(),
                "record": [content_type.pk, object_id], "moves_past_holidays": moves_past_holidays})
    return clock


@transaction.atomic
def clock_meet(*, clock: Clock, on: date, actor) -> Clock:
    """Record that what the clock asked for was done on `on`: MET in time, MISSED when late.

    Meeting a clock already met is a no-op (the first date stands).
    """
    clock = Clock.objects.select_for_update().get(pk=clock.pk)
    if clock.met_on is not None:
        return clock
    clock.met_on = on
    clock.status = Clock.Status.MET if on <= clock.due_date else Clock.Status.MISSED
    clock.save(update_fields=["met_on", "status", "updated_at"])
    audit(actor=actor, action="clock.meet", target=clock,
          summary=(f"Plazo {clock.rule} cumplido el {on:%d/%m/%Y}: {clock.record_label}"
                   if clock.status == Clock.Status.MET else
                   f"Plazo {clock.rule} cumplido tarde el {on:%d/%m/%Y} (vencía el {clock.due_date:%d/%m/%Y}): "
                   f"{clock.record_label}"),
          data={"met_on": on.isoformat(), "due_date": clock.due_date.isoformat(), "status": clock.status})
    return clock


@transaction.atomic
def clocks_mark_missed(today: date | None = None) -> int:
    """Open clocks whose due date is before `today` become MISSED. Returns how many changed.

    The due date is the last day to act, so a clock due today is still open.
    """
    today = today or _today()
    missed = list(Clock.objects.select_for_update().filter(status=Clock.Status.OPEN, due_date__lt=today))
    for clock in missed:
        clock.status = Clock.Status.MISSED
        clock.save(update_fields=["status", "updated_at"])
        audit(actor=None, action="clock.missed", target=clock,
              summary=f"Plazo {clock.rule} vencido el {clock.due_date:%d/%m/%Y}: {clock.record_label}",
              data={"due_date": clock.due_date.isoformat(), "checked_on": today.isoformat()})
    return len(missed)


@transaction.atomic
def clock_recompute(*, clock: Clock, due_date: date, actor=None, reason: str = "", today: date | None = None) -> Clock:
    """Give the clock a recomputed due date (a holiday was added or withdrawn, a start date was
    corrected) and re-derive its status from it: met in time, missed, or open again.
    """
    clock = Clock.objects.select_for_update().get(pk=clock.pk)
    today = today or _today()
    if clock.met_on is not None:
        status = Clock.Status.MET if clock.met_on <= due_date else Clock.Status.MISSED
    else:
        status = Clock.Status.MISSED if due_date < today else Clock.Status.OPEN
    if clock.due_date == due_date and clock.status == status:
        return clock
    before = clock.due_date
    clock.due_date, clock.status = due_date, status
    clock.save(update_fields=["due_date", "status", "updated_at"])
    audit(actor=actor, action="clock.recompute", target=clock,
          summary=f"Plazo {clock.rule} recalculado: vence el {due_date:%d/%m/%Y} (antes {before:%d/%m/%Y})",
          data={"before": before.isoformat(), "due_date": due_date.isoformat(), "status": status, "reason": reason})
    return clock


# --- Flags ------------------------------------------------------------------------------------

@transaction.atomic
def flag_raise(*, kind: str, target, description: str, severity: int = Flag.Severity.MEDIUM, rule: str = "",
               assigned_to=None, opened_on: date | None = None, actor=None) -> Flag:
    """Open a flag of `kind` on `target`, or return the one already open (one open flag per
    kind and record; raising it again changes nothing).
    """
    if kind not in Flag.Kind.values:
        raise ValidationError({"kind": f"unknown flag kind {kind!r}"})
    content_type, object_id = _target_key(target)
    lookup = {"kind": kind, "content_type": content_type, "object_id": object_id, "resolved_on__isnull": True}
    existing = Flag.objects.filter(**lookup).first()
    if existing is not None:
        return existing
    _check_assignee(assigned_to)
    record_label, record_url = _describe(target)
    try:
        with transaction.atomic():
            flag = Flag.objects.create(
                kind=kind, severity=severity, rule=rule, content_type=content_type, object_id=object_id,
                record_label=record_label, record_url=record_url, description=description,
                opened_on=opened_on or _today(), assigned_to=assigned_to)
    except IntegrityError:  # raised at the same moment by another worker
        return Flag.objects.get(**lookup)
    audit(actor=actor, action="flag.raise", target=flag,
          summary=f"Asunto abierto ({flag.get_kind_display()}): {record_label}",
          data={"kind": kind, "rule": rule, "severity": int(severity), "record": [content_type.pk, object_id]})
    return flag


@transaction.atomic
def flag_resolve(*, flag: Flag, actor, resolution: str = "", on: date | None = None) -> Flag:
    """Close the flag. Resolving a resolved flag changes nothing."""
    flag = Flag.objects.select_for_update().get(pk=flag.pk)
    if flag.resolved_on is not None:
        return flag
    flag.resolved_on = on or _today()
    flag.resolution = resolution
    flag.save(update_fields=["resolved_on", "resolution", "updated_at"])
    audit(actor=actor, action="flag.resolve", target=flag,
          summary=f"Asunto resuelto ({flag.get_kind_display()}): {flag.record_label}",
          data={"resolved_on": flag.resolved_on.isoformat(), "resolution": resolution})
    return flag


@transaction.atomic
def flag_assign(*, flag: Flag, user, actor) -> Flag:
    """Assign the flag to a staff member who can act on records (None unassigns it)."""
    _check_assignee(user)
    flag = Flag.objects.select_for_update().get(pk=flag.pk)
    if flag.resolved_on is not None:
        raise ValidationError(_("Un asunto resuelto no se asigna."))
    if flag.assigned_to_id == (user.pk if user else None):
        return flag
    before = flag.assigned_to_id
    flag.assigned_to = user
    flag.save(update_fields=["assigned_to", "updated_at"])
    who = (user.get_full_name() or user.username) if user else "nadie"
    audit(actor=actor, action="flag.assign", target=flag,
          summary=f"Asunto asignado a {who}: {flag.record_label}",
          data={"before": before, "assigned_to": user.pk if user else None})
    return flag
