"""The client's address behind nginx.

Behind a reverse proxy every request's REMOTE_ADDR is the proxy's own (127.0.0.1), so download logs,
API token uses and sign-in throttling would all name nginx. nginx sends the address it saw in
X-Real-IP (deploy/nginx/cargos-proxy.conf); it is believed only when the request comes from one of
TRUSTED_PROXY_IPS, so a client cannot choose the address it is recorded under.
"""
from __future__ import annotations

import contextlib
import ipaddress

from django.conf import settings


class RealIpMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.trusted = frozenset(getattr(settings, "TRUSTED_PROXY_IPS", ()))

    def __call__(self, request):
        if request.META.get("REMOTE_ADDR") in self.trusted:
            real = request.META.get("HTTP_X_REAL_IP", "").strip()
            with contextlib.suppress(ValueError):  # absent or not an address: keep the proxy's
                request.META["REMOTE_ADDR"] = str(ipaddress.ip_address(real))
        return self.get_response(request)
