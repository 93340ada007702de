"""/healthz and /readyz for the load balancer: no login, no details (the reasons go to the log).

Both are outside the request transaction (a database that is down must give 503, not a 500 while opening
the transaction) and exempt from the HTTPS redirect in production (SECURE_REDIRECT_EXEMPT).
"""
import logging

from django.db import transaction
from django.http import HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from config.version import __version__
from core import health

logger = logging.getLogger("core.health")


@never_cache
@require_safe
@transaction.non_atomic_requests
def healthz(request):
    """The process is alive; it touches nothing else."""
    return HttpResponse("ok", content_type="text/plain; charset=utf-8")


@never_cache
@require_safe
@transaction.non_atomic_requests
def readyz(request):
    """200 when every check of core.health passes, else 503; the body names only the status and version."""
    failed = {name: reason for name, reason in health.run_checks().items() if reason is not None}
    for name, reason in failed.items():
        # A warning, not an error: with Sentry on, errors become events, and the load balancer asks every few
        # seconds. The 503 itself is logged by django.request.
        logger.warning("readyz: check %s failed: %s", name, reason, extra={"check": name})
    status = 503 if failed else 200
    return JsonResponse({"status": "unavailable" if failed else "ok", "version": __version__}, status=status)
