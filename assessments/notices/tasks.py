"""Thin Celery tasks over the notice services. Safe to deliver twice: the services check state.

`notices_issue_for_source_task` fans a billing run out in chunks of CHUNK receivables, so
several workers share the rendering; each chunk numbers what is missing (a short transaction)
and renders each PDF in its own. The chunk that finds the run complete puts its notices in
mailing batches and builds their print-ready PDFs. Chunks go to the queue the fan-out came from.
"""
from __future__ import annotations

from celery import shared_task
from django.contrib.auth import get_user_model
from django.db import OperationalError

from assessments.notices import services

CHUNK = services.CHUNK


def _actor(actor_id):
    if not actor_id:
        return None
    return get_user_model().objects.filter(pk=actor_id).first()


def _queue(task) -> str | None:
    """The queue this task was taken from, so its subtasks follow it (None when run in-process)."""
    info = getattr(task.request, "delivery_info", None) or {}
    return info.get("routing_key") or None


def _dispatch(parent, task, args: list) -> None:
    """Send `task` from inside `parent`: through the broker, to the queue `parent` came from, when
    `parent` runs on a worker (so other workers can take it, whatever `task_always_eager` says in
    that worker's settings); run it right here when `parent` itself runs in-process."""
    if parent.request.is_eager:
        task.apply_async(args=args)
    else:
        parent.app.send_task(task.name, args=args, queue=_queue(parent))


@shared_task(bind=True, acks_late=True)
def notices_issue_for_source_task(self, source_type: str, language: str | None = None,
                                  actor_id: int | None = None) -> int:
    """Fan out: one chunk task per CHUNK receivables of `source_type` still without a rendered
    notice. Returns how many chunks were sent (0 when everything is issued already)."""
    ids = services.receivables_needing_notice(source_type)
    chunks = [ids[i:i + CHUNK] for i in range(0, len(ids), CHUNK)]
    for chunk in chunks:
        _dispatch(self, notices_issue_chunk_task, [chunk, source_type, language, actor_id])
    if not chunks:   # all issued: the batches may still be missing (e.g. a run numbered in-process)
        _dispatch(self, notices_batches_task, [source_type, actor_id])
    return len(chunks)


@shared_task(bind=True, acks_late=True, autoretry_for=(OperationalError,), retry_backoff=5, max_retries=5)
def notices_issue_chunk_task(self, receivable_ids: list[int], source_type: str = "", language: str | None = None,
                             actor_id: int | None = None) -> dict:
    actor = _actor(actor_id)
    result = services.notices_issue_chunk(receivable_ids=receivable_ids, actor=actor, language=language)
    batches = []
    if source_type:
        for batch in services.mailing_batches_create(source_type=source_type, actor=actor, require_complete=True):
            services.mailing_batch_build_pdf(batch=batch, actor=actor)
            batches.append(batch.pk)
    return {"numbered": result.numbered, "rendered": result.rendered, "batches": batches}


@shared_task(acks_late=True)
def notices_batches_task(source_type: str, actor_id: int | None = None) -> list[int]:
    actor = _actor(actor_id)
    done = []
    for batch in services.mailing_batches_create(source_type=source_type, actor=actor, require_complete=True):
        services.mailing_batch_build_pdf(batch=batch, actor=actor)
        done.append(batch.pk)
    return done


@shared_task(bind=True, acks_late=True)
def notices_issue_missing_task(self) -> int:
    """Beat, daily: every open charge without a current notice gets one (a run whose fan-out was
    lost, a charge billed one by one). Returns how many billing runs were fanned out."""
    sources = services.sources_missing_notices()
    for source_type in sources:
        _dispatch(self, notices_issue_for_source_task, [source_type])
    return len(sources)


@shared_task(acks_late=True)
def mailing_batch_pdf_task(batch_id: int, actor_id: int | None = None) -> int:
    from assessments.notices.models import MailingBatch

    batch = services.mailing_batch_build_pdf(batch=MailingBatch.objects.get(pk=batch_id), actor=_actor(actor_id))
    return batch.page_count
