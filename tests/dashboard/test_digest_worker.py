"""With a real Celery worker and the file e-mail backend: the digest task delivered twice sends
one e-mail per user (DigestSent makes the second delivery a no-op)."""
import time
from datetime import date

import pytest

from core.models import DigestSent
from core.tasks import send_daily_digests
from core.workqueue import clock_open
from tests import factories

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
D = date.fromisoformat


@pytest.fixture
def file_mail_worker(tmp_path, monkeypatch, request):
    """The worker reads its e-mail settings from the environment it is started with."""
    outbox = tmp_path / "mail"
    outbox.mkdir()
    monkeypatch.setenv("DJANGO_TEST_EMAIL_BACKEND", "django.core.mail.backends.filebased.EmailBackend")
    monkeypatch.setenv("DJANGO_EMAIL_FILE_PATH", str(outbox))
    return outbox, request.getfixturevalue("celery_worker_process")


def _wait(predicate, seconds, what):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_two_deliveries_send_one_email(file_mail_worker, make_user):
    outbox, worker = file_mail_worker
    make_user("ana", "staff", email="ana@example.com")
    clock_open(rule="SID-3", start_date=D("2026-08-01"), due_date=D("2026-11-27"), target=factories.district(),
               label="Remesar los cobros")
    first = worker.send(send_daily_digests, "2026-12-01")
    second = worker.send(send_daily_digests, "2026-12-01")
    assert sorted([first.get(timeout=60), second.get(timeout=60)]) == [0, 1], worker.log()[-2000:]
    _wait(lambda: list(outbox.iterdir()), 10, "the e-mail file")
    files = list(outbox.iterdir())
    text = "".join(f.read_text() for f in files)
    assert text.count("To: ana@example.com") == 1
    assert "Remesar los cobros" in text
    assert DigestSent.objects.filter(user__username="ana", date=D("2026-12-01")).count() == 1
