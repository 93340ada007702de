"""Reads for the staff home page."""
from core.models import AuditEntry


def home_summary(user) -> dict:
    from districts.models import District, Parcel, Party

    return {
        "counts": {
            "parcels": Parcel.objects.count(),
            "parties": Party.objects.count(),
            "districts": District.objects.count(),
        },
        "districts": District.objects.select_related("office").order_by("kind", "name"),
        "recent": AuditEntry.objects.select_related("actor")[:10],
    }
