"""Beat runs exactly once even when it is started twice: two real beat processes (LockedDatabaseScheduler)
against Redis; one holds the lock and sends, the other waits; kill the holder and the other takes over.
Bounded polls only; the lock's TTL is shortened through the environment."""
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from tests.conftest import require

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
ROOT = Path(__file__).resolve().parents[2]
SENT = "Sending due task beat-lock-probe"


def _wait(condition, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.3)
    pytest.fail(f"gave up waiting {seconds}s for {what}")


def test_two_beats_one_sends_and_the_other_takes_over(postgres_only, tmp_path):
    import redis

    redis_url = os.environ.get("REDIS_URL", "")
    require(bool(redis_url), "needs Redis: set REDIS_URL=redis://…")
    client = redis.Redis.from_url(redis_url)
    key = f"cargos:test-beat-lock-{uuid.uuid4().hex[:8]}"
    queue = f"test-beat-{uuid.uuid4().hex[:8]}"  # nobody consumes it; deleted at the end
    every = IntervalSchedule.objects.create(every=1, period=IntervalSchedule.SECONDS)
    # An unregistered task name: beat sends it by name (send_task), whatever the test settings' eager flag says.
    PeriodicTask.objects.create(name="beat-lock-probe", task="cargos.tests.beat_probe", interval=every, queue=queue)

    db = connection.settings_dict
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "REDIS_URL": redis_url,
           "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
           "CARGOS_BEAT_LOCK_KEY": key, "CARGOS_BEAT_LOCK_TTL": "6"}
    beats, logs = [], []
    try:
        for i in range(2):
            log = open(tmp_path / f"beat-{i}.log", "w+")  # noqa: SIM115
            logs.append(log)
            beats.append(subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=INFO",
                 "-S", "config.beat:LockedDatabaseScheduler", "--pidfile="],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True))

        def text(i: int) -> str:
            return (tmp_path / f"beat-{i}.log").read_text()

        def holder_index():
            value = client.get(key)
            if not value:
                return None
            pids = [str(b.pid) for b in beats]
            pid = value.decode().split(":")[1]
            return pids.index(pid) if pid in pids else None

        first = _wait(lambda: (i := holder_index()) is not None and SENT in text(i) and (i,), 90,
                      "one beat to hold the lock and send")[0]
        other = 1 - first
        _wait(lambda: "is held by" in text(other), 60, "the second beat to say it waits")
        sends = text(first).count(SENT)
        _wait(lambda: text(first).count(SENT) >= sends + 2, 30, "the holder to keep sending")
        assert SENT not in text(other), "both beats sent the periodic task"
        assert all(b.poll() is None for b in beats), [text(0)[-2000:], text(1)[-2000:]]

        os.killpg(beats[first].pid, signal.SIGKILL)  # no clean release: the lock has to expire
        beats[first].wait(timeout=30)
        _wait(lambda: holder_index() == other and SENT in text(other), 60, "the second beat to take over")
        assert "acquired by" in text(other)
    finally:
        for b in beats:
            if b.poll() is None:
                os.killpg(b.pid, signal.SIGTERM)
                try:
                    b.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(b.pid, signal.SIGKILL)
                    b.wait(timeout=10)
        for log in logs:
            log.close()
        client.delete(key, queue)
