"""Thin Celery tasks for core: each takes plain values and calls one service."""
from __future__ import annotations

from datetime import date

from celery import shared_task

from core.workqueue import clocks_mark_missed


@shared_task(acks_late=True)
def refresh_work_queue(today: str | date | None = None) -> int:
    """Daily (CELERY_BEAT_SCHEDULE): open clocks past their due date become MISSED.

    `today` is an ISO date for reruns and tests; by default Puerto Rico's today. Running it
    twice changes nothing the second time.
    """
    if isinstance(today, str):
        today = date.fromisoformat(today)
    return clocks_mark_missed(today)
