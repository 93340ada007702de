"""/healthz and /readyz: public, no details, 503 with the reason only in the server's log."""
from __future__ import annotations

import importlib
import json
import logging
import sys
import time
import uuid

import pytest
from django.test import Client

from config.version import __version__
from core import health
from tests.conftest import require


def _redis_or_skip(settings):
    require(bool(settings.REDIS_URL), "needs Redis: set REDIS_URL=redis://…")
    return health.redis_client()


@pytest.fixture
def clean_heartbeats(settings):
    """No heartbeat left by another test or worker in this Redis database, before and after."""
    client = _redis_or_skip(settings)

    def clean():
        for h in client.smembers(health.HEARTBEAT_SET):
            client.delete(health.heartbeat_key(h.decode()))
        client.delete(health.HEARTBEAT_SET)

    clean()
    yield client
    clean()


def test_healthz_is_ok_without_login_and_without_the_database(client):
    # No django_db mark: any query would fail the test.
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok"
    assert response["Content-Type"].startswith("text/plain")
    assert "no-cache" in response["Cache-Control"]
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405


@pytest.mark.django_db
def test_readyz_ok_with_the_version(client, owner_user):
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "version": __version__}
    client.force_login(owner_user)  # an owner is not sent to the portal; staff middleware leaves it alone
    assert client.get("/readyz").status_code == 200
    assert client.get("/healthz").status_code == 200


@pytest.mark.django_db
def test_a_failing_check_gives_503_and_only_the_log_says_why(client, monkeypatch, caplog):
    def broken():
        raise RuntimeError("could not connect to server db-internal.example:5432")

    monkeypatch.setitem(health.CHECKS, "database", broken)
    with caplog.at_level(logging.WARNING, logger="core.health"):
        response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "version": __version__}
    assert b"db-internal" not in response.content and b"RuntimeError" not in response.content
    assert any("database" in r.getMessage() and "db-internal.example" in r.getMessage() for r in caplog.records)


@pytest.mark.django_db
def test_database_and_migrations_pass_on_the_test_database(monkeypatch):
    monkeypatch.setattr(health, "_migrations_applied", False)
    assert health.check_database() is None
    assert health.check_migrations() is None
    assert health._migrations_applied is True


@pytest.mark.django_db
def test_unapplied_migrations_fail_until_applied(monkeypatch):
    from django.db.migrations.executor import MigrationExecutor

    class FakeMigration:
        app_label, name = "core", "9999_future"

    monkeypatch.setattr(health, "_migrations_applied", False)
    monkeypatch.setattr(MigrationExecutor, "migration_plan", lambda self, targets: [(FakeMigration(), False)])
    assert health.check_migrations() == "1 migration(s) not applied: core.9999_future"
    assert health._migrations_applied is False


def test_storage_probe_writes_reads_and_deletes(settings, tmp_path, monkeypatch):
    monkeypatch.setattr(health, "_storage_ok_until", 0.0)
    settings.MEDIA_ROOT = str(tmp_path)
    assert health.check_storage() is None
    assert list((tmp_path / health.PROBE_DIR).iterdir()) == []
    # A success is trusted for a while: the next probes touch nothing.
    (tmp_path / health.PROBE_DIR).rmdir()
    assert health.check_storage() is None and not (tmp_path / health.PROBE_DIR).exists()


def test_storage_that_cannot_be_written_fails(settings, tmp_path, monkeypatch):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    settings.MEDIA_ROOT = str(not_a_folder)  # even root cannot make a folder inside a file
    monkeypatch.setattr(health, "_storage_ok_until", 0.0)
    for name in set(health.CHECKS) - {"storage"}:
        monkeypatch.setitem(health.CHECKS, name, lambda: None)
    results = health.run_checks()
    assert results["storage"] and "Error" in results["storage"]
    assert {k for k, v in results.items() if v} == {"storage"}


def test_redis_is_skipped_without_redis_url_and_fails_when_unreachable(settings):
    settings.REDIS_URL = ""
    assert health.check_redis() is None
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    with pytest.raises(Exception, match="(?i)connect"):
        health.check_redis()


def test_redis_answers(settings):
    _redis_or_skip(settings)
    assert health.check_redis() is None


def test_worker_heartbeat_not_needed_when_tasks_are_eager(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.REDIS_URL = ""
    assert health.check_worker_heartbeat() is None
    settings.CELERY_TASK_ALWAYS_EAGER = False
    assert health.check_worker_heartbeat() == "tasks are not eager but REDIS_URL is not set"


@pytest.mark.django_db
def test_readyz_needs_a_live_worker_heartbeat_when_tasks_are_not_eager(client, settings, clean_heartbeats):
    redis = clean_heartbeats
    settings.CELERY_TASK_ALWAYS_EAGER = False
    assert client.get("/readyz").status_code == 503
    name = f"test-{uuid.uuid4().hex[:8]}@host"
    health.heartbeat_write(redis, name)
    assert 0 < redis.ttl(health.heartbeat_key(name)) <= health.HEARTBEAT_TTL
    assert health.live_workers(redis) == [name]
    assert client.get("/readyz").json() == {"status": "ok", "version": __version__}
    health.heartbeat_clear(redis, name)
    assert client.get("/readyz").status_code == 503


def test_an_expired_heartbeat_does_not_count_and_is_forgotten(clean_heartbeats):
    redis = clean_heartbeats
    redis.sadd(health.HEARTBEAT_SET, "gone@host")  # its key expired (a worker killed without cleanup)
    health.heartbeat_write(redis, "alive@host")
    assert health.live_workers(redis) == ["alive@host"]
    assert redis.smembers(health.HEARTBEAT_SET) == {b"alive@host"}


def test_probes_are_exempt_from_the_https_redirect(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_REDIRECT_EXEMPT = _production_settings().SECURE_REDIRECT_EXEMPT
    assert client.get("/healthz").status_code == 200
    assert client.get("/cuentas/login/").status_code == 301  # everything else still goes to HTTPS


def _production_settings():
    """config.settings.production's values, imported with the variables it requires (nothing else changes)."""
    env = {"DJANGO_SECRET_KEY": "x" * 50, "DJANGO_ALLOWED_HOSTS": "cargos.example.pr",
           "DATABASE_URL": "postgres://u@127.0.0.1:5432/x", "REDIS_URL": "redis://127.0.0.1:6379/11"}
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        mp.delenv("DJANGO_LOG_FORMAT", raising=False)
        sys.modules.pop("config.settings.production", None)
        try:
            return importlib.import_module("config.settings.production")
        finally:
            sys.modules.pop("config.settings.production", None)


def test_production_logs_json_by_default():
    prod = _production_settings()
    assert prod.LOG_FORMAT == "json"
    assert prod.LOGGING["handlers"]["console"]["formatter"] == "json"
    assert prod.LOGGING["handlers"]["console"]["filters"] == ["request_id"]


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_beats_and_clears_its_heartbeat_and_keeps_the_request_id(
        clean_heartbeats, celery_worker_process, settings):  # cleaned before the worker starts and beats
    from core.request_id import request_id_var
    from core.tasks import refresh_work_queue

    redis = clean_heartbeats
    deadline = time.monotonic() + 30
    while not health.live_workers(redis) and time.monotonic() < deadline:  # the first beat is on "ready"
        time.sleep(0.2)
    workers = health.live_workers(redis)
    assert len(workers) == 1 and workers[0].startswith("test-"), celery_worker_process.log()[-2000:]
    settings.CELERY_TASK_ALWAYS_EAGER = False
    assert Client().get("/readyz").status_code == 200

    rid = f"obs-{uuid.uuid4().hex}"
    token = request_id_var.set(rid)
    try:
        result = celery_worker_process.send(refresh_work_queue)
    finally:
        request_id_var.reset(token)
    result.get(timeout=60)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not _succeeded_line(celery_worker_process.log(), result.id):
        time.sleep(0.2)
    line = _succeeded_line(celery_worker_process.log(), result.id)
    assert line and rid in line and "core.tasks.refresh_work_queue" in line, celery_worker_process.log()[-2000:]

    celery_worker_process.stop()
    assert health.live_workers(redis) == []  # a clean shutdown removes it at once


def _succeeded_line(log: str, task_id: str) -> str | None:
    return next((x for x in log.splitlines() if task_id in x and "succeeded" in x), None)


def test_readyz_body_is_json_only_status_and_version(client, monkeypatch):
    monkeypatch.setattr(health, "run_checks", lambda: {"database": None})
    body = json.loads(client.get("/readyz").content)
    assert set(body) == {"status", "version"}
