"""The calendar's month grid (weeks Monday–Sunday). Pure: dates and items in, rows out."""
from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta

from core.dashboard.items import Item


def month_bounds(year: int, month: int) -> tuple[date, date]:
    first = date(year, month, 1)
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    return first, nxt - timedelta(days=1)


def shift_month(year: int, month: int, by: int) -> tuple[int, int]:
    index = year * 12 + month - 1 + by
    return index // 12, index % 12 + 1


def month_grid(year: int, month: int, items: list[Item], today: date) -> list[list[dict]]:
    """Full weeks covering the month; each day: date, in_month, is_today, its items."""
    first, last = month_bounds(year, month)
    by_day: dict[date, list[Item]] = defaultdict(list)
    for item in items:
        if item.due_date:
            by_day[item.due_date].append(item)
    day = first - timedelta(days=first.weekday())
    end = last + timedelta(days=6 - last.weekday())
    weeks, week = [], []
    while day <= end:
        week.append({"date": day, "in_month": day.month == month, "is_today": day == today,
                     "past": day < today, "items": by_day.get(day, [])})
        if len(week) == 7:
            weeks.append(week)
            week = []
        day += timedelta(days=1)
    return weeks
