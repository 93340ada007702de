"""Writes to the lien register (LIEN-1): register, satisfy, release, reinstate.

Every function is keyword-only, atomic and audited. Registering is idempotent on the origin
(`origin_type`, `origin_id`): a roll or a task that runs twice registers one lien.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from core.audit import audit
from core.money import to_decimal
from liens.models import Lien

ORIGIN_FIELDS = ("origin_type", "origin_id")


def lien_by_origin(origin_type: str, origin_id: str) -> Lien | None:
    """The lien a charge registered, if any (a read the charge's app needs before it acts)."""
    if not origin_id:
        return None
    return Lien.objects.filter(origin_type=origin_type, origin_id=str(origin_id)).first()


def _validate(*, kind: str, amount: Decimal, origin_type: str, origin_id: str) -> None:
    errors = {}
    if kind not in Lien.Kind.values:
        errors["kind"] = f"Tipo de gravamen desconocido: {kind!r}."
    if amount < 0:
        errors["amount"] = "La cuantía no puede ser negativa."
    if bool(origin_type) != bool(origin_id):
        errors["origin_id"] = "El origen necesita tipo e identificador."
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def lien_register(*, parcel, kind: str, amount, constituted_on: date, actor, origin_type: str = "",
                  origin_id: str = "", origin_label: str = "", mortgage_terms: dict | None = None,
                  district_cooperative: bool = False, finances_public_infrastructure: bool = False,
                  presented_seq: int | None = None, notes: str = "") -> Lien:
    """LIEN-1: record a lien on `parcel`. With an origin, a second call returns the first lien unchanged."""
    amount = to_decimal(amount)
    origin_id = str(origin_id or "")
    _validate(kind=kind, amount=amount, origin_type=origin_type, origin_id=origin_id)
    if origin_id and (found := lien_by_origin(origin_type, origin_id)) is not None:
        return found
    lien = Lien(parcel=parcel, kind=kind, amount=amount, constituted_on=constituted_on, origin_type=origin_type,
                origin_id=origin_id, origin_label=origin_label[:200], mortgage_terms=mortgage_terms,
                district_cooperative=district_cooperative,
                finances_public_infrastructure=finances_public_infrastructure, presented_seq=presented_seq,
                notes=notes, created_by=actor if getattr(actor, "is_authenticated", False) else None)
    try:
        with transaction.atomic():
            lien.save()
    except IntegrityError:
        # A concurrent call registered the same origin first.
        found = lien_by_origin(origin_type, origin_id)
        if found is None:
            raise
        return found
    audit(actor=actor, action="lien.register", target=lien,
          summary=f"{lien.get_kind_display()} {lien.amount} sobre {parcel}",
          data={"origin": [origin_type, origin_id], "constituted_on": constituted_on.isoformat()})
    return lien


@transaction.atomic
def lien_register_bulk(*, rows: Iterable[dict], actor, batch_size: int = 2000) -> int:
    """LIEN-1 for a roll: many liens at once, skipping origins already registered. Returns how many were new.

    Each row has parcel_id, kind, amount, constituted_on, origin_type, origin_id and optionally
    origin_label and finances_public_infrastructure.
    """
    rows = list(rows)
    if not rows:
        return 0
    for row in rows:
        _validate(kind=row["kind"], amount=to_decimal(row["amount"]), origin_type=row["origin_type"],
                  origin_id=str(row["origin_id"]))
    by_type: dict[str, set[str]] = {}
    for row in rows:
        by_type.setdefault(row["origin_type"], set()).add(str(row["origin_id"]))
    existing: set[tuple[str, str]] = set()
    for origin_type, ids in by_type.items():
        id_list = list(ids)
        for i in range(0, len(id_list), batch_size):
            existing.update(Lien.objects.filter(origin_type=origin_type, origin_id__in=id_list[i:i + batch_size])
                            .values_list("origin_type", "origin_id"))
    user = actor if getattr(actor, "is_authenticated", False) else None
    new = []
    for row in rows:
        key = (row["origin_type"], str(row["origin_id"]))
        if key in existing:
            continue
        existing.add(key)
        new.append(Lien(parcel_id=row["parcel_id"], kind=row["kind"], amount=to_decimal(row["amount"]),
                        constituted_on=row["constituted_on"], origin_type=key[0], origin_id=key[1],
                        origin_label=row.get("origin_label", "")[:200],
                        finances_public_infrastructure=row.get("finances_public_infrastructure", False),
                        created_by=user))
    Lien.objects.bulk_create(new, batch_size=batch_size)
    if new:
        audit(actor=actor, action="lien.register_bulk", summary=f"{len(new)} gravámenes registrados",
              data={"count": len(new), "skipped": len(rows) - len(new)})
    return len(new)


def _set_status(*, lien: Lien, status: str, on: date, reason: str, actor, action: str) -> Lien:
    lien = Lien.objects.select_for_update().get(pk=lien.pk)
    if lien.status == status:
        return lien
    previous = lien.status
    lien.status = status
    lien.status_on = on
    lien.status_reason = reason[:300]
    lien.save(update_fields=["status", "status_on", "status_reason", "updated_at"])
    audit(actor=actor, action=action, target=lien, summary=f"{lien}: {previous} → {status}",
          data={"on": on.isoformat(), "reason": reason, "from": previous})
    return lien


@transaction.atomic
def lien_satisfy(*, lien: Lien, on: date, actor, reason: str = "") -> Lien:
    """The secured charge is paid in full: the lien is satisfied (no-op when it already is)."""
    lien = Lien.objects.select_for_update().get(pk=lien.pk)
    if lien.status == Lien.Status.RELEASED:
        raise ValidationError({"status": "Un gravamen cancelado no puede darse por satisfecho; reinstálelo primero."})
    return _set_status(lien=lien, status=Lien.Status.SATISFIED, on=on, reason=reason or "Pagado en su totalidad",
                       actor=actor, action="lien.satisfy")


@transaction.atomic
def lien_release(*, lien: Lien, on: date, reason: str, actor) -> Lien:
    """Cancel a lien (e.g. the charge was written off or annulled); the reason is required."""
    if not reason.strip():
        raise ValidationError({"reason": "Indique el motivo de la cancelación."})
    return _set_status(lien=lien, status=Lien.Status.RELEASED, on=on, reason=reason, actor=actor,
                       action="lien.release")


@transaction.atomic
def lien_reinstate(*, lien: Lien, on: date, reason: str, actor) -> Lien:
    """Back to active (e.g. the payment that satisfied it was returned); no-op when already active."""
    return _set_status(lien=lien, status=Lien.Status.ACTIVE, on=on, reason=reason, actor=actor,
                       action="lien.reinstate")
