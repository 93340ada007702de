"""Failed sign-ins, throttled (django-axes; docs/security/sign-in.md).

Every way in counts its failures in axes' AccessAttempt table, per user name and address and per address
alone: the staff and admin login forms (axes' backend and signals), and here the other doors that take a
secret — a portal activation code, a document's verification code, an API token. Those record a failure
under a marker "user name" with a colon (no account can have one: Django's user names exclude it), so the
admin's "Access attempts" list shows which door was tried.

After AXES_FAILURE_LIMIT failures within AXES_COOLOFF_TIME every door answers 429 with one page
(`lockout_response`): when to try again, and the password-reset link.
"""
from __future__ import annotations

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.db.models import Max
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

# The marker user names of the doors that are not a login form (never a real user name: they hold a colon).
PORTAL_ACTIVATION = "portal:activar"
DOCUMENT_VERIFICATION = "verificar:codigo"
API_TOKEN = "api:token"  # noqa: S105 (a door's name, not a secret)


# --- who is asking ----------------------------------------------------------------------------------

def remote_addr(request) -> str | None:
    """The client's address: REMOTE_ADDR, which core.proxy.RealIpMiddleware sets from nginx's X-Real-IP when
    the request comes through a trusted proxy (production). X-Forwarded-For, written by the client, is
    never read; nor does axes use django-ipware if someone installs it."""
    return request.META.get("REMOTE_ADDR")


def username_key(request, credentials) -> str | None:
    """One counter for «Ana.Staff» and «ana.staff » (accounts are unique regardless of case)."""
    data = credentials or getattr(request, "data", request.POST)
    username = data.get("username")
    return username.strip().lower() if isinstance(username, str) else username


class SignInHandler(AxesDatabaseHandler):
    """axes' database handler, except that a success clears only that user name's failures from that
    address. axes would clear every failure of the address too, so whoever holds one account (an owner's)
    could sign in with it after every nine guesses at someone else's and never be locked out."""

    def reset_user_attempts(self, request, credentials=None) -> int:
        count, _ = AccessAttempt.objects.filter(username=get_client_username(request, credentials),
                                                ip_address=request.axes_ip_address).delete()
        return count


# --- the doors that are not a login form -------------------------------------------------------------

def is_locked(request, marker: str) -> bool:
    """Whether this address (or this marker from this address) has used up its failures."""
    if not settings.AXES_ENABLED:
        return False
    from axes.handlers.proxy import AxesProxyHandler

    return not AxesProxyHandler.is_allowed(request, {"username": marker})


def record_failure(request, marker: str) -> None:
    """Count one failed guess at `marker`'s door from this address.

    The failure is written after the view has answered (SignInFailureMiddleware), outside the request's
    transaction: an API error rolls that transaction back (ATOMIC_REQUESTS), and the count must stay.
    """
    request._signin_failures = [*getattr(request, "_signin_failures", []), marker]


def refused(request):
    """The answer of a locked door: the same page (or JSON for the API) as a locked login form."""
    return lockout_response(request, None, None)


class SignInFailureMiddleware:
    """Writes the failures `record_failure` noted; placed inside axes' middleware, which then answers 429
    for the failure that reaches the limit."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        for marker in getattr(request, "_signin_failures", ()):
            user_login_failed.send(sender=__name__, credentials={"username": marker}, request=request)
        return response


# --- the lockout page ---------------------------------------------------------------------------------

def retry_at(request):
    """When this address may try again: the cool-off after its last recorded failure (an upper bound)."""
    cool_off = get_cool_off(request)
    last = AccessAttempt.objects.filter(ip_address=getattr(request, "axes_ip_address", None)).aggregate(
        last=Max("attempt_time"))["last"]
    return (last or timezone.now()) + cool_off if cool_off else None


def lockout_response(request, original_response=None, credentials=None):
    """AXES_LOCKOUT_CALLABLE: 429 with the time to retry; JSON for the API, a page for people."""
    status = settings.AXES_HTTP_RESPONSE_CODE
    when = retry_at(request)
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    if request.path.startswith("/api/"):
        when_text = timezone.localtime(when).isoformat() if when else None
        response = JsonResponse({"detail": _("Demasiados intentos fallidos desde esta dirección. Vuelva a "
                                             "intentarlo después de %(when)s.") % {"when": when_text},
                                 "retry_after": when_text}, status=status)
    else:
        response = render(request, "registration/locked_out.html",
                          {"retry_at": when, "cooloff_minutes": minutes,
                           "failure_limit": settings.AXES_FAILURE_LIMIT}, status=status)
    if when:
        response["Retry-After"] = str(max(1, int((when - timezone.now()).total_seconds())))
    response["Cache-Control"] = "no-store"
    return response
