"""Celery beat that runs once per installation even when it is started twice.

`LockedDatabaseScheduler` (CELERY_BEAT_SCHEDULER) is django-celery-beat's DatabaseScheduler — the
schedule lives in the database and administrators edit it in the admin — behind a lock in Redis:
`SET <key> <id> NX EX <ttl>`. The holder renews it every ttl/3 seconds while it ticks; any other beat
sends nothing, logs once that it is waiting, and tries again every ttl/3 seconds, so it takes over
within about one TTL when the holder dies (a clean stop releases the lock at once).

The scheduler does not write the schedule table at start (DatabaseScheduler would overwrite the
administrators' changes with CELERY_BEAT_SCHEDULE): `manage.py sync_schedules` creates what is missing.

Environment: CARGOS_BEAT_LOCK_KEY (default cargos:beat-lock), CARGOS_BEAT_LOCK_TTL (seconds, default 60),
CARGOS_BEAT_LOCK_URL (default the broker's Redis).
"""
from __future__ import annotations

import contextlib
import os
import socket
import uuid

import redis
from celery.utils.log import get_logger
from django_celery_beat.schedulers import DatabaseScheduler

logger = get_logger("celery.beat")

_REFRESH = """if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('expire', KEYS[1], ARGV[2]) else return 0 end"""
_RELEASE = """if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1]) else return 0 end"""


class BeatLock:
    """A lock one beat holds at a time, renewed by its holder and expiring when the holder stops renewing."""

    def __init__(self, url: str, key: str, ttl: int, ident: str | None = None):
        self.client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        self.key, self.ttl = key, max(int(ttl), 2)
        self.ident = ident or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.held = False

    @classmethod
    def from_environment(cls, default_url: str) -> BeatLock:
        return cls(url=os.environ.get("CARGOS_BEAT_LOCK_URL") or default_url,
                   key=os.environ.get("CARGOS_BEAT_LOCK_KEY") or "cargos:beat-lock",
                   ttl=int(os.environ.get("CARGOS_BEAT_LOCK_TTL") or 60))

    @property
    def refresh_every(self) -> float:
        return self.ttl / 3

    def holder(self) -> str | None:
        value = self.client.get(self.key)
        return value.decode() if value else None

    def acquire_or_refresh(self) -> bool:
        """True while this process holds the lock (renewed now); False when another beat holds it."""
        if self.held:
            if self.client.eval(_REFRESH, 1, self.key, self.ident, self.ttl) == 1:
                return True
            self.held = False
            logger.error("beat lock %s lost (held by %s): this beat stops sending tasks", self.key, self.holder())
        if self.client.set(self.key, self.ident, nx=True, ex=self.ttl):
            self.held = True
            logger.warning("beat lock %s acquired by %s (ttl %ss): this beat sends the periodic tasks",
                           self.key, self.ident, self.ttl)
            return True
        return False

    def release(self) -> None:
        if self.held:
            self.client.eval(_RELEASE, 1, self.key, self.ident)
            self.held = False
            logger.warning("beat lock %s released by %s", self.key, self.ident)


class LockedDatabaseScheduler(DatabaseScheduler):
    """DatabaseScheduler that sends tasks only while it holds the beat lock (see the module's text)."""

    def __init__(self, *args, **kwargs):
        app = kwargs.get("app") or (args[0] if args else None)
        self.lock = BeatLock.from_environment(default_url=app.conf.broker_url)
        self._waiting_for: str | None = None
        super().__init__(*args, **kwargs)

    def setup_schedule(self):
        """Read the table, never write it: `manage.py sync_schedules` installs the defaults."""
        if not self.schedule:
            logger.warning("no enabled periodic task in the database: run `manage.py sync_schedules`")

    def tick(self, *args, **kwargs):
        was_holding = self.lock.held
        try:
            holding = self.lock.acquire_or_refresh()
        except redis.RedisError as exc:  # cannot know who holds it: send nothing, try again
            logger.error("beat lock %s unavailable (%s): not sending tasks", self.lock.key, exc)
            self.lock.held = False
            return self.lock.refresh_every
        if not holding:
            holder = self.lock.holder()
            if holder != self._waiting_for:
                logger.warning("beat lock %s is held by %s: this beat waits (checks every %.0fs)",
                               self.lock.key, holder, self.lock.refresh_every)
                self._waiting_for = holder
            return self.lock.refresh_every
        self._waiting_for = None
        if not was_holding:
            # Just took over (or took back) the lock: what was sent meanwhile is in the table's last-run
            # times (written after every send, CELERY_BEAT_SYNC_EVERY = 1), not in this process's memory.
            self._initial_read = True
            self._heap = []
            self._heap_invalidated = True
        return min(super().tick(*args, **kwargs), self.lock.refresh_every)

    def close(self):
        try:
            super().close()
        finally:
            with contextlib.suppress(redis.RedisError):  # otherwise it expires by itself
                self.lock.release()
