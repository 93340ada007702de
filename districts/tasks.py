"""Thin Celery tasks of the land register: take ids, call one service (districts.imports.jobs)."""
from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True)
def import_job_apply_task(job_id: int) -> str:
    """Apply a queued import; a redelivery finds the job finished and writes nothing (import_job_run)."""
    from districts.imports.jobs import import_job_crashed, import_job_run

    try:
        return import_job_run(job_id=job_id).status
    except Exception as exc:  # the file's transaction is already undone; the job must not stay "running"
        import_job_crashed(job_id=job_id, error=f"{type(exc).__name__}: {exc}")
        raise
