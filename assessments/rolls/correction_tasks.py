"""Thin Celery task of roll corrections (kept apart from tasks.py, which the roll cycle owns).

Safe to deliver twice: the re-evaluation posts only a difference it has not posted yet.
"""
from datetime import date

from celery import shared_task
from django.utils import timezone


@shared_task(acks_late=True, max_retries=3, default_retry_delay=30)
def roll_water_reevaluate_task(roll_id: int, parcel_ids: list[int], on: str | None = None) -> int:
    from assessments.rolls.corrections import roll_water_reevaluate

    day = date.fromisoformat(on) if on else timezone.localdate()
    return len(roll_water_reevaluate(roll_id=roll_id, parcel_ids=parcel_ids, on=day))


@shared_task(acks_late=True, max_retries=3, default_retry_delay=30)
def roll_inclusion_task(membership_id: int, on: str | None = None) -> int | None:
    from assessments.rolls.supplements import inclusion_supplement
    from districts.models import Membership

    member = Membership.objects.filter(pk=membership_id).first()
    if member is None:
        return None
    day = date.fromisoformat(on) if on else timezone.localdate()
    found = inclusion_supplement(membership=member, on=day)
    return found.pk if found else None
