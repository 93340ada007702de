"""The dashboard's unit of work and the date windows it is sorted into. Pure: no ORM.

An item is anything staff must act on: a statutory clock (docs/rules/deadlines.md), a roll to certify
before July 1 (IRR-9, LAJ-6), delinquent amounts, a flagged franchise, a lien conflict waiting
for a ruling. Its `key` is stable across days so assignments, calendar UIDs and digests can name it.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import Decimal

WEEK_DAYS = 7
HORIZON_DAYS = 30

# Windows, in the order the home page shows them.
OVERDUE = "overdue"
THIS_WEEK = "week"
NEXT_30 = "month"
LATER = "later"
UNDATED = "undated"


@dataclass(frozen=True)
class Item:
    key: str                      # "clock:12", "flag:3", "roll:7:certify", "delinquent:office:2"
    kind: str                     # slug used by the calendar filter: "clock", "roll", "delinquent", …
    kind_label: str
    title: str
    rule: str = ""                # rule ID (docs/rules/) the item applies (SID-3, IRR-9, LIEN-2, …)
    detail: str = ""
    due_date: date | None = None
    url: str = ""
    district_id: int | None = None
    district_name: str = ""
    office_id: int | None = None
    office_name: str = ""
    assignee_id: int | None = None
    assignee_name: str = ""
    amount: Decimal | None = None
    severity: int = 2             # 1 low, 2 medium, 3 high (flags); orders items due the same day
    roles: tuple[str, ...] = ()   # who answers when nobody is assigned (core.roles names)
    extra: dict = field(default_factory=dict, compare=False)

    def with_assignee(self, user_id: int | None, name: str) -> Item:
        return replace(self, assignee_id=user_id, assignee_name=name)


def window(due: date | None, today: date) -> str:
    """Where an item falls: overdue (the due date has passed: the due date is the last day to
    act), this week (today through 7 days ahead), the next 30 days, later, or undated."""
    if due is None:
        return UNDATED
    days = (due - today).days
    if days < 0:
        return OVERDUE
    if days <= WEEK_DAYS:
        return THIS_WEEK
    if days <= HORIZON_DAYS:
        return NEXT_30
    return LATER


def days_left(due: date | None, today: date) -> int | None:
    return None if due is None else (due - today).days


def needs_action_this_week(item: Item, today: date) -> bool:
    return window(item.due_date, today) in (OVERDUE, THIS_WEEK)


def sort_key(item: Item, today: date, me: int | None = None, near: bool = False):
    """Mine first, then the `near` ones (unassigned items of my offices), then the earliest due
    date (undated last), then the most severe."""
    far = today + timedelta(days=36500)
    first = 0 if me is not None and item.assignee_id == me else 1 if near else 2
    return (first, item.due_date or far, -item.severity, item.key)
