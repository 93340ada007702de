"""Reads for the staff home page and the work queue (clocks and flags)."""
from __future__ import annotations

from datetime import date, timedelta

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.utils import timezone

from core import roles
from core.models import AuditEntry, Clock, Flag

DUE_SOON_DAYS = 30
HOME_ROWS = 10


def clocks_due_soon(today: date | None = None, days: int = DUE_SOON_DAYS) -> QuerySet[Clock]:
    """Open clocks due from today through `days` ahead, soonest first."""
    today = today or timezone.localdate()
    return (Clock.objects.filter(status=Clock.Status.OPEN, due_date__gte=today,
                                 due_date__lte=today + timedelta(days=days))
            .select_related("responsible_user").order_by("due_date", "id"))


def clocks_overdue(today: date | None = None) -> QuerySet[Clock]:
    """Clocks past their due date with nothing done yet (MISSED, or OPEN before the daily task ran)."""
    today = today or timezone.localdate()
    return (Clock.objects.filter(met_on__isnull=True)
            .filter(Q(status=Clock.Status.MISSED) | Q(status=Clock.Status.OPEN, due_date__lt=today))
            .select_related("responsible_user").order_by("due_date", "id"))


def with_days_left(clocks, today: date) -> list[Clock]:
    """The clocks as a list, each with `days_left` (negative when past due) and `days_overdue`."""
    rows = list(clocks)
    for clock in rows:
        clock.days_left = (clock.due_date - today).days
        clock.days_overdue = max(0, -clock.days_left)
    return rows


def clock_list(*, status: str = "", rule: str = "") -> QuerySet[Clock]:
    clocks = Clock.objects.select_related("responsible_user").order_by("due_date", "id")
    if status in Clock.Status.values:
        clocks = clocks.filter(status=status)
    if rule:
        clocks = clocks.filter(rule=rule)
    return clocks


def clock_rules() -> list[str]:
    """The rule codes that have clocks, for the list's filter."""
    return list(Clock.objects.order_by("rule").values_list("rule", flat=True).distinct())


def open_flags() -> QuerySet[Flag]:
    return Flag.objects.filter(resolved_on__isnull=True).select_related("assigned_to").order_by(
        "-severity", "opened_on", "id")


def flag_list(*, state: str = "open", kind: str = "", assigned: str = "") -> QuerySet[Flag]:
    """Flags by state ('open', 'resolved', 'all'), kind and assignee ('me:<id>', 'none')."""
    flags = Flag.objects.select_related("assigned_to").order_by("-severity", "opened_on", "id")
    if state == "open":
        flags = flags.filter(resolved_on__isnull=True)
    elif state == "resolved":
        flags = flags.filter(resolved_on__isnull=False).order_by("-resolved_on", "-id")
    if kind in Flag.Kind.values:
        flags = flags.filter(kind=kind)
    if assigned == "none":
        flags = flags.filter(assigned_to__isnull=True)
    elif assigned.isdigit():
        flags = flags.filter(assigned_to_id=int(assigned))
    return flags


def assignable_users():
    """Active users who can act on records (writer roles): who a flag can be assigned to."""
    users = get_user_model().objects.filter(is_active=True)
    return (users.filter(Q(groups__name__in=roles.WRITER_ROLES) | Q(is_superuser=True))
            .distinct().order_by("first_name", "last_name", "username"))


def home_summary(user, today: date | None = None) -> dict:
    from districts.models import District, Parcel, Party

    today = today or timezone.localdate()
    due_soon = clocks_due_soon(today)
    overdue = clocks_overdue(today)
    flags = open_flags()
    return {
        "counts": {
            "parcels": Parcel.objects.count(),
            "parties": Party.objects.count(),
            "districts": District.objects.count(),
        },
        "districts": District.objects.select_related("office").order_by("kind", "name"),
        "recent": AuditEntry.objects.select_related("actor")[:10],
        "today": today,
        "due_soon_days": DUE_SOON_DAYS,
        "clocks_due_soon": with_days_left(due_soon[:HOME_ROWS], today),
        "clocks_due_soon_count": due_soon.count(),
        "clocks_overdue": with_days_left(overdue[:HOME_ROWS], today),
        "clocks_overdue_count": overdue.count(),
        "open_flags": list(flags[:HOME_ROWS]),
        "open_flags_count": flags.count(),
    }
