"""Progress of a long roll operation: the job row at start and end, the cache in between.

The generation runs in one transaction, so its own row updates would be invisible until the end;
the cache (core.progress, Redis in production) carries the live count to the page and the command line.
"""
from __future__ import annotations

from django.utils import timezone

from assessments.rolls.models import RollJob
from core.progress import JobProgress, percent

LIVE = JobProgress("rolljob")


def cache_key(job_id: int) -> str:
    return LIVE.key(job_id)


class Reporter:
    def __init__(self, job: RollJob | None, total: int, echo=None) -> None:
        self.job, self.total, self.echo = job, total, echo
        if job is not None:
            RollJob.objects.filter(pk=job.pk).update(status=RollJob.Status.RUNNING, total=total, done=0)

    def update(self, done: int) -> None:
        if self.job is not None:
            LIVE.report(self.job.pk, done, self.total)
        if self.echo is not None:
            self.echo(done, self.total)

    def finish(self, message: str) -> None:
        if self.job is not None:
            RollJob.objects.filter(pk=self.job.pk).update(status=RollJob.Status.DONE, done=self.total,
                                                          message=message, finished_at=timezone.now())
            LIVE.clear(self.job.pk)

    def fail(self, message: str) -> None:
        if self.job is not None:
            RollJob.objects.filter(pk=self.job.pk).update(status=RollJob.Status.FAILED, message=message,
                                                          finished_at=timezone.now())
            LIVE.clear(self.job.pk)


def refuse(job: RollJob | None, message: str) -> None:
    """End a job that cannot run, with the reason, before any work (the page stops waiting at once)."""
    if job is not None:
        RollJob.objects.filter(pk=job.pk).update(status=RollJob.Status.FAILED, message=message,
                                                 finished_at=timezone.now())
        LIVE.clear(job.pk)


def job_state(job: RollJob) -> dict:
    done = job.done
    if job.status == RollJob.Status.RUNNING:
        live = LIVE.read(job.pk)
        done = live[0] if live else 0
    pct = percent(done, job.total, finished=job.status == RollJob.Status.DONE)
    return {"id": job.pk, "status": job.status, "status_label": str(job.get_status_display()), "done": done,
            "total": job.total, "percent": pct, "message": job.message,
            "finished": job.status in (RollJob.Status.DONE, RollJob.Status.FAILED)}
