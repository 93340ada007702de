"""The roll's background jobs (certify, finalize), queued once whichever door asks: the page or the API.

`request_certify` / `request_finalize` ask the service's question first, so a step that cannot run is
refused at once with the reason (RollError: the page's message, the API's 400) and no job waits for nothing.
"""
from __future__ import annotations

from django.db import transaction

from assessments.rolls import services
from assessments.rolls.models import Roll, RollJob

CERTIFY = "certify"
FINALIZE = "finalize"


def queue_roll_job(roll: Roll, operation: str, task, actor) -> RollJob:
    """The roll's job for `operation` waiting or running, or a new one whose task is sent on commit:
    a double click reuses the queued job instead of doubling it."""
    job = active_roll_job(roll, operation)
    if job is None:
        job = RollJob.objects.create(district_id=roll.district_id, fiscal_year=roll.fiscal_year,
                                     operation=operation, requested_by=actor)
        transaction.on_commit(lambda: task.delay(job.pk))
    return job


def active_roll_job(roll: Roll, operation: str) -> RollJob | None:
    return (RollJob.objects.filter(district_id=roll.district_id, fiscal_year=roll.fiscal_year, operation=operation,
                                   status__in=[RollJob.Status.QUEUED, RollJob.Status.RUNNING])
            .order_by("-created_at", "-pk").first())


def last_roll_job(roll: Roll, operation: str) -> RollJob | None:
    return (RollJob.objects.filter(district_id=roll.district_id, fiscal_year=roll.fiscal_year, operation=operation)
            .order_by("-created_at", "-pk").first())


def request_certify(roll: Roll, actor) -> RollJob:
    """The certification job of a draft roll, or RollError with every reason it cannot be certified now."""
    from assessments.rolls.tasks import roll_certify_task

    refusals = services.certify_refusals(roll)
    if refusals:
        raise services.RollError(refusals)
    return queue_roll_job(roll, CERTIFY, roll_certify_task, actor)


def request_finalize(roll: Roll, actor) -> RollJob:
    """The finalization job of a certified roll, or RollError with the reasons (e.g. its fiscal year
    has not started: the liens cannot be dated before it)."""
    from assessments.rolls.tasks import roll_finalize_task

    refusals = services.finalize_refusals(roll)
    if refusals:
        raise services.RollError(refusals)
    return queue_roll_job(roll, FINALIZE, roll_finalize_task, actor)
