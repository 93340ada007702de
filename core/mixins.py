"""View mixins that enforce roles on staff pages.

Reads (GET/HEAD/OPTIONS) need a staff role. Every write declares the action of the role matrix it needs
(core.roles.PERMISSIONS, docs/security/roles.md): `required_action = roles.CERTIFY`, or per method
`required_actions = {"POST": roles.PAY}`, or `get_required_action()` when it depends on the request. A
write with no declared action is the administrator's alone (tests/web/test_roles.py fails on it)."""
from django.contrib.auth.mixins import AccessMixin
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect

from core import roles

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class StaffRequiredMixin(AccessMixin):
    """Office staff only. Anonymous users go to the login page; owners to their portal."""

    write_access = False  # True: the page's GET is a write too (a form only writers may see)
    required_action: str | None = None
    required_actions: dict[str, str] = {}

    def get_required_action(self, request) -> str | None:
        """The action a write by `request` needs (the page's GET too when `write_access`)."""
        method = "POST" if request.method in SAFE_METHODS else request.method
        return self.required_actions.get(method) or self.required_actions.get(request.method) \
            or self.required_action

    def dispatch(self, request, *args, **kwargs):
        user = request.user
        if not user.is_authenticated:
            return self.handle_no_permission()
        if not roles.is_staff_member(user):
            if roles.is_owner(user):
                return redirect("portal:home")
            raise PermissionDenied
        needs_write = self.write_access or request.method not in SAFE_METHODS
        if needs_write:
            action = self.get_required_action(request)
            if not roles.can(user, action):
                raise PermissionDenied(roles.refusal(user, action))
        return super().dispatch(request, *args, **kwargs)


class WriterRequiredMixin(StaffRequiredMixin):
    write_access = True
