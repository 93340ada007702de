"""Sessions end after 30 minutes without activity and 12 hours in all, whoever signed in.

Django's cookie age gives the absolute limit (SESSION_COOKIE_AGE, 12 h, counted from sign-in because
the session is not re-saved on every request); the idle limit is kept here: the time of the last
request is written at most once a minute, so a busy portal does not write a session row per click.
"""
from __future__ import annotations

import time

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.utils.translation import gettext as _

STARTED = "_session_started"
LAST_SEEN = "_session_last_seen"
REFRESH_SECONDS = 60


@receiver(user_logged_in)
def _mark_start(sender, request, user, **kwargs):
    if request is not None and hasattr(request, "session"):
        now = int(time.time())
        request.session[STARTED] = now
        request.session[LAST_SEEN] = now


def expired(session, now: float) -> str | None:
    """'idle', 'absolute' or None for a signed-in session's timestamps at `now`."""
    started, last = session.get(STARTED), session.get(LAST_SEEN)
    if started is not None and now - started > settings.SESSION_ABSOLUTE_SECONDS:
        return "absolute"
    if last is not None and now - last > settings.SESSION_IDLE_SECONDS:
        return "idle"
    return None


class SessionTimeoutMiddleware:
    """After the authentication and message middlewares: signs out an idle or too-old session before the view runs."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            now = time.time()
            reason = expired(request.session, now)
            if reason:
                logout(request)
                if not request.path.startswith("/api/"):
                    messages.info(request, _("Su sesión terminó tras 30 minutos sin actividad; entre de nuevo.")
                                  if reason == "idle" else
                                  _("Su sesión terminó al cumplir 12 horas; entre de nuevo."))
            else:
                session = request.session
                if session.get(STARTED) is None:
                    session[STARTED] = int(now)  # signed in before this limit existed
                if now - session.get(LAST_SEEN, 0) >= REFRESH_SECONDS:
                    session[LAST_SEEN] = int(now)
        return self.get_response(request)
