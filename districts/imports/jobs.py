"""Background import confirmations: queue a large previewed file, apply it in a Celery task.

`import_job_queue` records the job (one per file and kind while it waits or runs) and sends the
task once the request's transaction commits. `import_job_run` is what the task calls: it applies
the file with `import_apply` — all rows or none — and marks the job DONE in the same transaction,
so a task delivered twice (acks_late, a worker lost) finds the job finished and writes nothing.
If the worker dies mid-file, the transaction is undone and the redelivery starts over.
"""
from __future__ import annotations

from django.conf import settings
from django.core.files.base import File
from django.core.files.storage import default_storage
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.audit import audit
from core.progress import JobProgress, percent
from districts.imports.models import ImportJob
from districts.imports.service import ImportRefused, import_apply

ERRORS_KEPT = 500  # the job page lists these; the writer fixes the file and previews it again


def runs_in_background(row_count: int) -> bool:
    """More rows than the setting: the confirm step queues a job instead of writing in the request."""
    return row_count > settings.IMPORT_TASK_THRESHOLD_ROWS


LIVE = JobProgress("importjob")  # (rows written, rows to write) while the file is applied


def progress_key(job_id: int) -> str:
    return LIVE.key(job_id)


def import_job_queue(*, kind: str, stored_path: str, file_name: str, sha256: str, row_count: int,
                     actor) -> ImportJob:
    """The job for these bytes: a new one (task sent on commit), or the one already waiting or running."""
    active = ImportJob.objects.filter(kind=kind, sha256=sha256, status__in=ImportJob.ACTIVE).first()
    if active is not None:
        return active
    try:
        with transaction.atomic():
            job = ImportJob.objects.create(kind=kind, stored_path=stored_path, file_name=file_name[:255],
                                           sha256=sha256, row_count=row_count, requested_by=actor)
    except IntegrityError:  # a second confirm of the same file got there first
        return ImportJob.objects.get(kind=kind, sha256=sha256, status__in=ImportJob.ACTIVE)
    audit(actor=actor, action="import.queued", target=job, summary=f"{kind}: {file_name} ({sha256[:12]})",
          data={"kind": kind, "file": file_name, "sha256": sha256, "rows": row_count})

    from districts.tasks import import_job_apply_task

    transaction.on_commit(lambda: import_job_apply_task.delay(job.pk))
    return job


def import_job_run(*, job_id: int) -> ImportJob:
    """Apply the job's file once. Safe to call again: a finished job is returned unchanged."""
    with transaction.atomic():
        job = ImportJob.objects.select_for_update().get(pk=job_id)
        if job.is_finished:
            return job
        if job.status == ImportJob.Status.QUEUED:
            job.status, job.started_at = ImportJob.Status.RUNNING, timezone.now()
            job.save(update_fields=["status", "started_at"])

    with transaction.atomic():
        # The lock makes a concurrent redelivery wait here, then see the job DONE.
        job = ImportJob.objects.select_for_update().select_related("requested_by").get(pk=job_id)
        if job.is_finished:
            return job
        if not default_storage.exists(job.stored_path):
            return _fail(job, _("El archivo revisado ya no está disponible. Súbalo y revíselo de nuevo."))

        def report_progress(done: int, total: int) -> None:
            LIVE.report(job.pk, done, total)

        try:
            with default_storage.open(job.stored_path, "rb") as stored:
                report = import_apply(job.kind, File(stored, name=job.file_name), actor=job.requested_by,
                                      expected_hash=job.sha256, progress=report_progress)
        except ImportRefused as exc:  # import_apply's own transaction is undone: nothing was written
            errors = [e._asdict() for e in exc.report.errors[:ERRORS_KEPT]] if exc.report else []
            return _fail(job, exc.message, errors=errors,
                         counts=exc.report.counts() if exc.report else {})
        job.status, job.finished_at = ImportJob.Status.DONE, timezone.now()
        job.counts, job.done = report.counts(), report.writes
        job.message = _("Importación guardada: %(created)s creados, %(updated)s actualizados, "
                        "%(unchanged)s sin cambios.") % report.counts()
        job.save(update_fields=["status", "finished_at", "counts", "done", "message"])
        path = job.stored_path
        transaction.on_commit(lambda: _discard(path, job.pk))
    return job


def _fail(job: ImportJob, message: str, *, errors: list | None = None, counts: dict | None = None) -> ImportJob:
    job.status, job.finished_at, job.message = ImportJob.Status.FAILED, timezone.now(), message
    job.errors, job.counts = errors or [], counts or {}
    job.save(update_fields=["status", "finished_at", "message", "errors", "counts"])
    audit(actor=job.requested_by, action="import.failed", target=job, summary=f"{job.kind}: {message}"[:300],
          data={"kind": job.kind, "sha256": job.sha256, "errors": len(job.errors)})
    path = job.stored_path
    transaction.on_commit(lambda: _discard(path, job.pk))
    return job


def _discard(path: str, job_id: int) -> None:
    LIVE.clear(job_id)
    if path and default_storage.exists(path):
        default_storage.delete(path)


def import_job_crashed(*, job_id: int, error: str) -> None:
    """An unexpected error undid the whole file: say so on the job instead of leaving it running."""
    with transaction.atomic():
        job = ImportJob.objects.select_for_update().select_related("requested_by").get(pk=job_id)
        if not job.is_finished:
            _fail(job, _("Error inesperado al importar; no se guardó nada. Intente de nuevo o avise a soporte "
                         "(%(error)s).") % {"error": error[:200]})


def job_state(job: ImportJob) -> dict:
    """What the job page shows and polls: status, rows written so far of those to write, the result."""
    writes = job.counts.get("created", 0) + job.counts.get("updated", 0)
    done, total = (job.done, writes) if job.is_finished else (0, job.row_count)
    if job.status == ImportJob.Status.RUNNING:
        done, total = LIVE.read(job.pk) or (0, job.row_count)
    # 100 only once the file is committed
    pct = 100 if job.status == ImportJob.Status.DONE else percent(done, total, cap=99)
    return {"id": job.pk, "status": job.status, "status_label": str(job.get_status_display()), "done": done,
            "total": total, "percent": pct, "message": job.message, "counts": job.counts,
            "finished": job.is_finished}
