"""Thin Celery tasks over the roll services. Safe to deliver twice: the services are idempotent."""
from datetime import date

from celery import shared_task
from django.utils import timezone

from assessments.rolls import progress, services
from assessments.rolls.models import Roll, RollJob


@shared_task(bind=True, acks_late=True, max_retries=3, default_retry_delay=30)
def roll_generate_task(self, job_id: int) -> str:
    job = RollJob.objects.select_related("district", "requested_by").get(pk=job_id)
    if job.status == RollJob.Status.DONE:
        return job.message
    try:
        outcome = services.roll_generate(district_code=job.district.code, fiscal_year=job.fiscal_year,
                                         actor=job.requested_by, job=job)
    except services.RollError as exc:
        progress.refuse(job, "; ".join(exc.messages))
        return "failed"
    except Exception as exc:
        # The page polls until the job ends: an unforeseen error ends it too, saying so, before it propagates.
        progress.refuse(job, f"{services.UNEXPECTED} al generar: {exc}")
        raise
    return outcome.message


def _run_roll_job(job_id: int, service) -> str:
    """A roll job on the district's roll of the job's year. A second delivery changes nothing: a DONE
    job returns its message and the service leaves a roll already past that step as it is."""
    job = RollJob.objects.select_related("district", "requested_by").get(pk=job_id)
    if job.status == RollJob.Status.DONE:
        return job.message
    roll = Roll.objects.filter(district=job.district, fiscal_year=job.fiscal_year).first()
    if roll is None:
        RollJob.objects.filter(pk=job.pk).update(status=RollJob.Status.FAILED, finished_at=timezone.now(),
                                                 message="No existe el padrón de ese distrito y año fiscal.")
        return "failed"
    try:
        outcome = service(roll=roll, actor=job.requested_by, job=job)
    except services.RollError:
        return "failed"     # the service wrote the reason on the job
    if not outcome.changed:
        RollJob.objects.filter(pk=job.pk).exclude(status=RollJob.Status.DONE).update(
            status=RollJob.Status.DONE, message=outcome.message, finished_at=timezone.now())
    return outcome.message


@shared_task(bind=True, acks_late=True, max_retries=3, default_retry_delay=30)
def roll_certify_task(self, job_id: int) -> str:
    """Certify and bill a roll (services.roll_certify)."""
    return _run_roll_job(job_id, services.roll_certify)


@shared_task(bind=True, acks_late=True, max_retries=3, default_retry_delay=30)
def roll_finalize_task(self, job_id: int) -> str:
    """Finalize a certified roll, its liens constituted today (services.roll_finalize)."""
    return _run_roll_job(job_id, services.roll_finalize)


@shared_task(acks_late=True)
def rolls_finalize_due_task(today: str | None = None) -> list[str]:
    """Beat: July 1 at 00:05 Puerto Rico time, and daily as a safety net (a second run changes nothing)."""
    day = date.fromisoformat(today) if today else timezone.localdate()
    return [o.message for o in services.rolls_finalize_due(today=day)]
