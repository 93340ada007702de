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


@shared_task(acks_late=True, autoretry_for=(OSError,), retry_backoff=60, max_retries=5)
def send_daily_digests(today: str | date | None = None) -> int:
    """Daily 06:30 (CELERY_BEAT_SCHEDULE): e-mail each responsible staff member what comes due in
    the next 7 days and what is overdue. Once per user and day (DigestSent): a second delivery,
    or a retry after the mail server failed half way, sends only what was not sent yet.
    """
    from django.conf import settings
    from django.utils import timezone

    from core.dashboard.services import digests_send_all

    if isinstance(today, str):
        today = date.fromisoformat(today)
    return digests_send_all(today=today or timezone.localdate(), base_url=settings.STAFF_SITE_URL)
