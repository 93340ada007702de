"""Roles are Django groups. Pages and endpoints check them through the helpers here."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

ADMINISTRATOR = "administrator"
STAFF = "staff"
CASHIER = "cashier"
APPROVER = "approver"
LEGAL_REVIEWER = "legal_reviewer"
AUDITOR = "auditor"
OWNER = "owner"

ROLE_LABELS = {
    ADMINISTRATOR: _("Administrador"),
    STAFF: _("Personal"),
    CASHIER: _("Cajero"),
    APPROVER: _("Aprobador"),
    LEGAL_REVIEWER: _("Revisor legal"),
    AUDITOR: _("Auditor"),
    OWNER: _("Dueño"),
}
# Everyone who works in the office sees the staff pages; the auditor only reads.
STAFF_ROLES = frozenset({ADMINISTRATOR, STAFF, CASHIER, APPROVER, LEGAL_REVIEWER, AUDITOR})
WRITER_ROLES = STAFF_ROLES - {AUDITOR}


def roles_of(user) -> frozenset[str]:
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return frozenset()
    cached = getattr(user, "_role_cache", None)
    if cached is None:
        cached = frozenset(user.groups.values_list("name", flat=True))
        if user.is_superuser:
            cached |= {ADMINISTRATOR}
        user._role_cache = cached
    return cached


def has_role(user, *roles: str) -> bool:
    return bool(roles_of(user) & set(roles))


def is_staff_member(user) -> bool:
    return bool(roles_of(user) & STAFF_ROLES)


def can_write(user) -> bool:
    return bool(roles_of(user) & WRITER_ROLES)


def is_owner(user) -> bool:
    return OWNER in roles_of(user) and not is_staff_member(user)
