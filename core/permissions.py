"""DRF permissions by role: staff read; every write needs the action of the role matrix that the view
declares (core.roles.PERMISSIONS, docs/security/roles.md)."""
from rest_framework.permissions import SAFE_METHODS, BasePermission

from core import roles

NOT_STAFF = "Solo el personal de la oficina puede usar este recurso."


def required_action(request, view) -> str | None:
    """`view.required_actions[method]`, else `view.required_action`; None if the view declares neither."""
    per_method = getattr(view, "required_actions", None) or {}
    return per_method.get(request.method) or getattr(view, "required_action", None)


class HasAction(BasePermission):
    """Reads: any staff role. Writes: `can(user, action)` for the action the view declares, e.g.
    `required_action = roles.DECIDE` or `required_actions = {"POST": roles.PAY}`. A write the view does
    not declare is the administrator's alone. The refusal says why, in Spanish."""

    message = NOT_STAFF

    def has_permission(self, request, view) -> bool:
        user = request.user
        if not roles.is_staff_member(user):
            self.message = NOT_STAFF
            return False
        if request.method in SAFE_METHODS:
            return True
        action = required_action(request, view)
        if roles.can(user, action):
            return True
        self.message = roles.refusal(user, action)
        return False


# The project default (REST_FRAMEWORK["DEFAULT_PERMISSION_CLASSES"]) under its old name.
IsStaffRole = HasAction


class IsStaffReader(BasePermission):
    """Staff (including auditors) for operations that change nothing, e.g. compute previews."""

    message = NOT_STAFF

    def has_permission(self, request, view) -> bool:
        return roles.is_staff_member(request.user)
