"""View mixins that enforce roles on staff pages."""
from django.contrib.auth.mixins import AccessMixin
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect

from core import roles


class StaffRequiredMixin(AccessMixin):
    """Office staff only. Anonymous users go to the login page; owners to their portal."""

    write_access = False

    def dispatch(self, request, *args, **kwargs):
        user = request.user
        if not user.is_authenticated:
            return self.handle_no_permission()
        if not roles.is_staff_member(user):
            if roles.is_owner(user):
                return redirect("portal:home")
            raise PermissionDenied
        needs_write = self.write_access or request.method not in ("GET", "HEAD", "OPTIONS")
        if needs_write and not roles.can_write(user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)


class WriterRequiredMixin(StaffRequiredMixin):
    write_access = True
