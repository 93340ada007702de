"""Install the default periodic schedule (CELERY_BEAT_SCHEDULE) in django-celery-beat's tables.

Creates each entry that is missing, by name, and leaves every existing one as it is: what an
administrator changed in the admin (time, arguments, enabled or not) is never overwritten. To stop a
default task, disable it in the admin rather than deleting it (a deleted one comes back on the next
deploy). Idempotent; `make migrate` and the deploy run it after `migrate`.
"""
from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django_celery_beat.models import PeriodicTask
from django_celery_beat.schedulers import ModelEntry


def default_entries() -> dict[str, dict]:
    """CELERY_BEAT_SCHEDULE, plus Celery's daily clean-up of expired results when the result backend
    (django-db) does not expire them itself: what DatabaseScheduler would install."""
    from config.celery import app

    entries = dict(settings.CELERY_BEAT_SCHEDULE)
    if app.conf.result_expires and not getattr(app.backend, "supports_autoexpire", True):
        from celery.schedules import crontab

        entries.setdefault("celery.backend_cleanup", {
            "task": "celery.backend_cleanup", "schedule": crontab(minute=0, hour=4),
            "options": {"expire_seconds": 12 * 3600}})
    return entries


def schedules_sync() -> tuple[list[str], list[str]]:
    """Create the missing entries; returns (created, kept) names."""
    created, kept = [], []
    with transaction.atomic():
        for name, entry in sorted(default_entries().items()):
            if PeriodicTask.objects.filter(name=name).exists():
                kept.append(name)
                continue
            PeriodicTask.objects.create(name=name, **ModelEntry._unpack_fields(**entry))
            created.append(name)
    return created, kept


class Command(BaseCommand):
    help = "Create the missing default periodic tasks (CELERY_BEAT_SCHEDULE); never changes existing ones."

    def handle(self, *args, **options):
        created, kept = schedules_sync()
        for name in created:
            self.stdout.write(f"created {name}")
        self.stdout.write(f"sync_schedules: {len(created)} created, {len(kept)} kept as they are")
