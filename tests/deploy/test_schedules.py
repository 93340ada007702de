"""The periodic schedule lives in django-celery-beat's tables: sync_schedules installs the defaults of
CELERY_BEAT_SCHEDULE when they are missing and never changes what an administrator changed."""
import pytest
from django.conf import settings
from django.core.management import call_command
from django_celery_beat.models import CrontabSchedule, PeriodicTask

pytestmark = pytest.mark.django_db


def test_sync_creates_every_default_entry_once():
    call_command("sync_schedules")
    names = set(PeriodicTask.objects.values_list("name", flat=True))
    assert set(settings.CELERY_BEAT_SCHEDULE) <= names
    digest = PeriodicTask.objects.get(name="core-daily-digest")
    assert digest.task == "core.tasks.send_daily_digests"
    assert (digest.crontab.hour, digest.crontab.minute) == ("6", "30")
    assert str(digest.crontab.timezone) == settings.TIME_ZONE
    july = PeriodicTask.objects.get(name="rolls-finalize-july-1").crontab
    assert (july.month_of_year, july.day_of_month, july.hour, july.minute) == ("7", "1", "0", "5")
    count = PeriodicTask.objects.count(), CrontabSchedule.objects.count()
    call_command("sync_schedules")
    assert (PeriodicTask.objects.count(), CrontabSchedule.objects.count()) == count


def test_sync_keeps_what_an_administrator_changed():
    call_command("sync_schedules")
    digest = PeriodicTask.objects.get(name="core-daily-digest")
    digest.crontab = CrontabSchedule.objects.create(hour="7", minute="15", timezone=settings.TIME_ZONE)
    digest.enabled = False
    digest.save()
    PeriodicTask.objects.filter(name="liens-rank-all-nightly").update(kwargs='{"x": 1}')
    call_command("sync_schedules")
    digest.refresh_from_db()
    assert (digest.crontab.hour, digest.crontab.minute, digest.enabled) == ("7", "15", False)
    assert PeriodicTask.objects.get(name="liens-rank-all-nightly").kwargs == '{"x": 1}'


def test_the_admin_lists_schedules_and_task_results(admin_client):
    page = admin_client.get("/admin/")
    assert page.status_code == 200
    for path in ("/admin/django_celery_beat/periodictask/", "/admin/django_celery_beat/crontabschedule/",
                 "/admin/django_celery_results/taskresult/"):
        assert admin_client.get(path).status_code == 200, path
