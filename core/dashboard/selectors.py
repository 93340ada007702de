"""Reads for the home page, the calendar, the iCal feeds and the digest, over `registry.collect`."""
from __future__ import annotations

from datetime import date, timedelta

from django.contrib.auth import get_user_model

from core import roles
from core.dashboard import items as it
from core.dashboard.items import Item
from core.dashboard.registry import collect, office_staff_roles, user_office_ids
from core.models import StaffCalendar

# The calendar and the feeds look this far ahead (a roll due next June 30 shows in December).
FEED_DAYS = 400


def responsible_for(item: Item, user) -> bool:
    """The user answers for the item: it is assigned to them, or to nobody and their role is one
    the item names (the administrator stands in for every role, in every office). An unassigned
    item of an office goes to the staff of that office, and to staff with no office at all."""
    if item.assignee_id is not None:
        return item.assignee_id == user.pk
    mine = roles.roles_of(user)
    if roles.ADMINISTRATOR in mine:
        return bool(item.roles)
    if not mine & set(item.roles):
        return False
    if item.office_id is None:
        return True
    offices = user_office_ids(user)
    if not offices or item.office_id in offices:
        return True
    # An office with nobody holding the item's roles: the item falls to every holder of the role,
    # never to nobody (e.g. CRIM's delinquency when no cashier works at CRIM).
    return not office_staff_roles(user).get(item.office_id, frozenset()) & set(item.roles)


def _near(item: Item, user, offices: frozenset[int]) -> bool:
    """An unassigned item of one of the user's offices that they answer for ("mine" after mine)."""
    return item.assignee_id is None and item.office_id in offices and responsible_for(item, user)


def items_for_user(user, items: list[Item]) -> list[Item]:
    return [i for i in items if responsible_for(i, user)]


def home_board(user, today: date) -> dict:
    """The home page: "Esta semana" (overdue and due within 7 days; mine first), then every
    pending item grouped by kind, with counts."""
    items = collect(today=today)
    me = user.pk
    offices = user_office_ids(user)
    ordered = sorted(items, key=lambda i: it.sort_key(i, today, me, _near(i, user, offices)))
    week = [i for i in ordered if it.needs_action_this_week(i, today)]
    groups: dict[str, dict] = {}
    for item in ordered:
        if it.needs_action_this_week(item, today):
            continue
        g = groups.setdefault(item.kind, {"kind": item.kind, "label": item.kind_label, "rows": []})
        g["rows"].append(item)
    return {
        "today": today,
        "week_end": today + timedelta(days=it.WEEK_DAYS),
        "week": [_row(i, today, me) for i in week],
        "groups": [{**g, "rows": [_row(i, today, me) for i in g["rows"]]} for g in groups.values()],
        "board_counts": {
            "overdue": sum(1 for i in items if it.window(i.due_date, today) == it.OVERDUE),
            "week": sum(1 for i in items if it.window(i.due_date, today) == it.THIS_WEEK),
            "month": sum(1 for i in items if it.window(i.due_date, today) == it.NEXT_30),
            "mine": sum(1 for i in items if i.assignee_id == me),
            "unassigned": sum(1 for i in items if i.assignee_id is None),
        },
    }


def _row(item: Item, today: date, me: int) -> dict:
    return {"item": item, "window": it.window(item.due_date, today), "days_left": it.days_left(item.due_date, today),
            "days_overdue": max(0, -(it.days_left(item.due_date, today) or 0)), "mine": item.assignee_id == me}


def calendar_items(*, today: date, start: date, end: date, district: int | None = None, kind: str = "",
                   office: int | None = None) -> list[Item]:
    """Dated items due from `start` to `end` inclusive (overdue ones stay on their due day)."""
    until = max(end, today)
    rows = collect(today=today, until=until, district=district, kind=kind, office=office)
    return sorted([i for i in rows if i.due_date and start <= i.due_date <= end],
                  key=lambda i: (i.due_date, -i.severity, i.key))


def feed_items(user, today: date) -> list[Item]:
    """A user's iCal feed: the dated items they answer for, overdue and up to FEED_DAYS ahead."""
    rows = collect(today=today, until=today + timedelta(days=FEED_DAYS))
    return [i for i in items_for_user(user, rows) if i.due_date]


def digest_items(user, today: date) -> list[Item]:
    """What the daily digest lists for the user: overdue, and due within 7 days."""
    rows = collect(today=today, until=today + timedelta(days=it.WEEK_DAYS))
    offices = user_office_ids(user)
    return sorted([i for i in items_for_user(user, rows) if it.needs_action_this_week(i, today)],
                  key=lambda i: it.sort_key(i, today, user.pk, _near(i, user, offices)))


def calendar_user(token: str):
    """The active staff member whose feed `token` opens, or None (unknown, revoked, left)."""
    if not token:
        return None
    cal = StaffCalendar.objects.select_related("user").filter(token=token, revoked_at__isnull=True).first()
    if cal is None or not roles.is_staff_member(cal.user):
        return None
    return cal.user


def digest_recipients():
    """Active staff with an e-mail address (each gets only what `responsible_for` gives them:
    digest_items; nothing due, no e-mail)."""
    users = get_user_model().objects.filter(is_active=True).exclude(email="").order_by("pk")
    return [u for u in users if roles.is_staff_member(u)]
