"""Every write to the land register: validate first, then save and audit in one transaction."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from core.audit import audit
from districts.models import Ownership, Parcel, Party


@transaction.atomic
def record_save(*, actor, instance, action: str):
    """Validate a register record completely and save it with an audit entry.

    Used by staff forms and imports alike so both apply the same model rules.
    """
    instance.full_clean()
    is_new = instance.pk is None
    instance.save()
    audit(actor=actor, action=f"{action}.{'create' if is_new else 'update'}", target=instance,
          summary=str(instance))
    return instance


@transaction.atomic
def parcel_sell(*, actor, parcel: Parcel, buyers: list[tuple[Party, Decimal]], on: date,
                deed: str = "") -> list[Ownership]:
    """Record a sale: current ownerships end on `on`, the buyers' start. Charges stay with the land."""
    if not buyers:
        raise ValidationError({"buyers": _("Indique al menos un comprador.")})
    total = sum((share for _party, share in buyers), Decimal("0"))
    if total != Decimal("100"):
        raise ValidationError({"buyers": _("Las participaciones deben sumar 100 %%, suman %(total)s %%.") % {
            "total": total}})
    current = list(Ownership.objects.select_for_update().filter(parcel=parcel, end_date__isnull=True))
    for own in current:
        if own.start_date >= on:
            raise ValidationError({"on": _("La venta debe ser posterior al %(date)s.") % {
                "date": own.start_date.isoformat()}})
        own.end_date = on
        own.save(update_fields=["end_date", "updated_at"])
    created = [Ownership.objects.create(parcel=parcel, party=party, share_pct=share, start_date=on, deed=deed)
               for party, share in buyers]
    audit(actor=actor, action="parcel.sell", target=parcel, summary=f"{parcel.cadastre} vendida el {on:%d/%m/%Y}",
          data={"buyers": [[p.pk, str(s)] for p, s in buyers], "deed": deed})
    return created
