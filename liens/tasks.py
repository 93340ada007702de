"""Thin Celery tasks: re-rank parcels after liens arrive in bulk (a roll's finalization), and nightly."""
from celery import shared_task

from districts.models import Parcel
from liens import selectors, services


@shared_task(acks_late=True)
def liens_rank_parcels_task(parcel_ids: list[int]) -> int:
    """Re-rank these parcels (LIEN-2) and keep their legal-review flags in step; idempotent."""
    count = 0
    for parcel in Parcel.objects.filter(pk__in=parcel_ids).order_by("pk"):
        services.lien_rank(parcel=parcel, actor=None)
        count += 1
    return count


@shared_task(acks_late=True)
def liens_rank_all_task() -> int:
    count = 0
    for parcel in selectors.parcels_with_liens().iterator(chunk_size=500):
        services.lien_rank(parcel=parcel, actor=None)
        count += 1
    return count
