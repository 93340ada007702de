"""Thin Celery tasks over franchises.services."""
from __future__ import annotations

from datetime import date

from celery import shared_task
from django.utils import timezone

from franchises import services


@shared_task(name="franchises.tasks.franchise_daily_flags", acks_late=True, autoretry_for=(Exception,),
             retry_backoff=60, max_retries=3)
def franchise_daily_flags(on: str | None = None) -> dict:
    """Daily: FRA-10 (12 months without use) and FRA-7 (renewal not filed) flags.

    Safe to deliver twice: the work queue keeps one open flag per kind and franchise.
    """
    today = date.fromisoformat(on) if on else timezone.localdate()
    return services.franchise_flags_record(today=today)
