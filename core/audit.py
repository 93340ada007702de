"""Audit entries written by services in the same transaction as the change they record."""
from django.contrib.contenttypes.models import ContentType

from core.models import AuditEntry


def audit(*, actor, action: str, target=None, summary: str = "", data: dict | None = None) -> AuditEntry:
    user = actor if getattr(actor, "is_authenticated", False) else None
    return AuditEntry.objects.create(
        actor=user, action=action, summary=summary[:300], data=data or {},
        target_type=ContentType.objects.get_for_model(target) if target is not None else None,
        target_id=str(target.pk) if target is not None else "",
    )
