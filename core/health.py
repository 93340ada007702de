"""What /readyz checks, as plain functions: each returns None when the check passes, else the reason.

The reasons go to the server's log only (core/health_views.py); the load balancer sees a status.
Checks: the database answers, Redis answers (when REDIS_URL is set), the media storage takes, gives back
and deletes a small file, every migration is applied, and (when tasks are not run in-process) at least one
Celery worker has written its heartbeat in the last HEARTBEAT_TTL seconds.

The heartbeat: each worker sets `cargos:worker-heartbeat:<hostname>` (expiring after HEARTBEAT_TTL
seconds) and adds its hostname to the set `cargos:worker-heartbeats`, on start and every
HEARTBEAT_INTERVAL seconds (core/celery_signals.py); /readyz counts the members whose key still exists.
"""
from __future__ import annotations

import time
import uuid

from django.conf import settings

HEARTBEAT_PREFIX = "cargos:worker-heartbeat:"
HEARTBEAT_SET = "cargos:worker-heartbeats"
HEARTBEAT_TTL = 90
HEARTBEAT_INTERVAL = 30
REDIS_TIMEOUT = 2.0  # seconds, for the probe's own Redis client
PROBE_DIR = ".readyz"

_migrations_applied = False  # once true in a process it stays true: applied migrations do not come undone
_redis_clients: dict = {}


def redis_client(url: str | None = None):
    """One client per Redis URL and process, with short timeouts (a probe must not hang)."""
    import redis

    url = url or settings.REDIS_URL
    client = _redis_clients.get(url)
    if client is None:
        client = redis.Redis.from_url(url, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT)
        _redis_clients[url] = client
    return client


def check_database() -> str | None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        row = cursor.fetchone()
    return None if row and row[0] == 1 else f"SELECT 1 answered {row!r}"


def check_redis() -> str | None:
    if not settings.REDIS_URL:
        return None  # in-process tasks and local-memory cache: nothing to reach
    return None if redis_client().ping() else "PING was not answered"


STORAGE_OK_SECONDS = 60
_storage_ok_until = 0.0


def check_storage() -> str | None:
    """Write, read back and delete a probe file; a success is trusted for a minute in this process,
    so a load balancer probing every few seconds does not write to the disk or the bucket each time."""
    global _storage_ok_until
    if time.monotonic() < _storage_ok_until:
        return None
    from django.core.files.base import ContentFile
    from django.core.files.storage import default_storage

    payload = b"ok"
    name = default_storage.save(f"{PROBE_DIR}/probe-{uuid.uuid4().hex}.txt", ContentFile(payload))
    try:
        with default_storage.open(name, "rb") as fh:
            back = fh.read()
    finally:
        default_storage.delete(name)
    if back != payload:
        return "the probe file read back differently"
    _storage_ok_until = time.monotonic() + STORAGE_OK_SECONDS
    return None


def check_migrations() -> str | None:
    global _migrations_applied
    if _migrations_applied:
        return None
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if plan:
        names = ", ".join(f"{m.app_label}.{m.name}" for m, _backwards in plan[:5])
        return f"{len(plan)} migration(s) not applied: {names}{'…' if len(plan) > 5 else ''}"
    _migrations_applied = True
    return None


def heartbeat_key(hostname: str) -> str:
    return f"{HEARTBEAT_PREFIX}{hostname}"


def heartbeat_write(client, hostname: str, ttl: int = HEARTBEAT_TTL) -> None:
    """The worker's side: "I was alive at this time", expiring after `ttl` seconds."""
    pipe = client.pipeline()
    pipe.set(heartbeat_key(hostname), f"{time.time():.0f}", ex=ttl)
    pipe.sadd(HEARTBEAT_SET, hostname)
    pipe.execute()


def heartbeat_clear(client, hostname: str) -> None:
    """A worker shutting down cleanly says so at once rather than after the key expires."""
    pipe = client.pipeline()
    pipe.delete(heartbeat_key(hostname))
    pipe.srem(HEARTBEAT_SET, hostname)
    pipe.execute()


def live_workers(client) -> list[str]:
    """Hostnames whose heartbeat has not expired; forgets the others (a worker killed without cleanup)."""
    hostnames = sorted(h.decode() if isinstance(h, bytes) else h for h in client.smembers(HEARTBEAT_SET))
    if not hostnames:
        return []
    pipe = client.pipeline()
    for h in hostnames:
        pipe.exists(heartbeat_key(h))
    alive = [h for h, exists in zip(hostnames, pipe.execute(), strict=True) if exists]
    dead = [h for h in hostnames if h not in alive]
    if dead:
        client.srem(HEARTBEAT_SET, *dead)
    return alive


def check_worker_heartbeat() -> str | None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return None  # tasks run in the web process: no worker to wait for
    if not settings.REDIS_URL:
        return "tasks are not eager but REDIS_URL is not set"
    return None if live_workers(redis_client()) else "no Celery worker heartbeat in the last " \
                                                      f"{HEARTBEAT_TTL} s"


CHECKS = {
    "database": check_database,
    "redis": check_redis,
    "storage": check_storage,
    "migrations": check_migrations,
    "worker": check_worker_heartbeat,
}


def run_checks() -> dict[str, str | None]:
    """{check name: None when it passed, else its reason}; a check that raises fails with the exception."""
    results: dict[str, str | None] = {}
    for name, check in CHECKS.items():
        try:
            results[name] = check()
        except Exception as exc:  # noqa: BLE001  (any failure of a dependency is "not ready", with its reason)
            results[name] = f"{type(exc).__name__}: {exc}"
    return results
