"""DRF permissions by role: staff read, auditors only read, writers write."""
from rest_framework.permissions import SAFE_METHODS, BasePermission

from core import roles


class IsStaffRole(BasePermission):
    message = "Solo el personal de la oficina puede usar este recurso."

    def has_permission(self, request, view) -> bool:
        if not roles.is_staff_member(request.user):
            return False
        return request.method in SAFE_METHODS or roles.can_write(request.user)


class IsStaffReader(BasePermission):
    """Staff (including auditors) for operations that change nothing, e.g. compute previews."""

    def has_permission(self, request, view) -> bool:
        return roles.is_staff_member(request.user)
