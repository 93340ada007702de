"""The site's URLs plus one view that fails, for the styled 500 page (tests/web/test_error_pages.py)."""
from django.urls import path

from config.urls import urlpatterns as site


def boom(request):
    raise RuntimeError("a bug, for the 500 page")


urlpatterns = [path("__boom__/", boom), *site]
