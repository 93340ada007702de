"""What a browser or a proxy may keep: nothing of a signed-in person's pages, the portal or the API.

A shared computer at a municipal office or a caching proxy must never hand an owner's balances or a
clerk's roll to the next person, so those responses carry `Cache-Control: no-store` (with Django's
full never-cache set for old proxies). Public pages (sign-in, verification) and static files keep
their own caching.
"""
from __future__ import annotations

from django.utils.cache import add_never_cache_headers

PRIVATE_PREFIXES = ("/portal/", "/api/")


class NoStoreMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if "no-store" in response.get("Cache-Control", ""):
            return response  # the view said so already (document downloads: "private, no-store")
        if (user is not None and user.is_authenticated) or request.path.startswith(PRIVATE_PREFIXES):
            add_never_cache_headers(response)
        return response
