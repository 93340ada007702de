"""Live progress of a background job, between the job row's start and end.

A long job writes in one transaction, so its own row updates would be invisible until it commits;
the cache (Redis in production) carries the count to the page that polls it and to the command
line. Each kind of job has its own `JobProgress` (roll jobs, import jobs): the job row keeps the
status and the final figures, this keeps `(done, total)` while the job runs.

Core knows no job model: the apps pass their job ids and read the state they need.
"""
from __future__ import annotations

from django.core.cache import cache

TIMEOUT = 3600  # seconds a stale count survives a worker that died without clearing it


class JobProgress:
    """The cache entry `<prefix>:<job id>:done` holding `[done, total]` while a job runs."""

    def __init__(self, prefix: str, timeout: int = TIMEOUT) -> None:
        self.prefix, self.timeout = prefix, timeout

    def key(self, job_id: int) -> str:
        return f"{self.prefix}:{job_id}:done"

    def report(self, job_id: int, done: int, total: int) -> None:
        cache.set(self.key(job_id), [done, total], timeout=self.timeout)

    def read(self, job_id: int) -> tuple[int, int] | None:
        """`(done, total)` as last reported, or None if nothing was (queued, or already cleared)."""
        value = cache.get(self.key(job_id))
        if value is None:
            return None
        if isinstance(value, int):  # a bare count, as written before totals were kept with it
            return value, 0
        done, total = value
        return int(done), int(total)

    def clear(self, job_id: int) -> None:
        cache.delete(self.key(job_id))


def percent(done: int, total: int, *, finished: bool = False, cap: int = 100) -> int:
    """Whole percent of `done` over `total`, at most `cap` (99 keeps the bar short of full until the
    job's row says it committed). No total: 100 for a finished job, else 0."""
    if not total:
        return 100 if finished else 0
    return min(cap, 100 * done // total)
