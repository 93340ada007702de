"""Behind nginx the recorded address is the client's, and only a trusted proxy may say what it is."""
import pytest
from django.test import RequestFactory

from core.proxy import RealIpMiddleware


def _seen(settings, remote, real):
    settings.TRUSTED_PROXY_IPS = ["127.0.0.1"]
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_REAL_IP=real)
    return RealIpMiddleware(lambda r: r.META["REMOTE_ADDR"])(request)


def test_the_trusted_proxys_header_names_the_client(settings):
    assert _seen(settings, "127.0.0.1", "203.0.113.9") == "203.0.113.9"


@pytest.mark.parametrize(("remote", "real", "expected"), [
    ("198.51.100.7", "203.0.113.9", "198.51.100.7"),   # not through the proxy: the header is the client's lie
    ("127.0.0.1", "not-an-address", "127.0.0.1"),
    ("127.0.0.1", "", "127.0.0.1"),
])
def test_anything_else_keeps_the_connection_address(settings, remote, real, expected):
    assert _seen(settings, remote, real) == expected
