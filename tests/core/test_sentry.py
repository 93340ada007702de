"""Sentry: nothing without SENTRY_DSN; with it, a view's exception is captured without personal data."""
from __future__ import annotations

import pytest
import sentry_sdk
from django.test import Client
from sentry_sdk.transport import Transport

from config.sentry import init_sentry
from config.version import __version__

DUMMY_DSN = "http://public@127.0.0.1:9/1"  # nothing is sent there: the transport below keeps the events


class CapturingTransport(Transport):
    def __init__(self, options=None):
        super().__init__(options)
        self.envelopes = []

    def capture_envelope(self, envelope):
        self.envelopes.append(envelope)

    def events(self) -> list[dict]:
        return [e.get_event() for e in self.envelopes if e.get_event() is not None]


@pytest.fixture
def sentry_events():
    """Sentry started as production starts it, with events kept in memory; stopped again afterwards."""
    transport = CapturingTransport({"dsn": DUMMY_DSN})
    assert init_sentry(DUMMY_DSN, "test-env", __version__, transport=transport)
    try:
        yield transport
    finally:
        sentry_sdk.get_client().close()
        sentry_sdk.get_global_scope().set_client(None)
        assert not sentry_sdk.get_client().is_active()


def test_nothing_is_initialised_without_a_dsn(settings):
    if settings.SENTRY_DSN:
        pytest.skip("SENTRY_DSN is set in this environment")
    assert not sentry_sdk.get_client().is_active()
    assert init_sentry("", "production", __version__) is False
    assert not sentry_sdk.get_client().is_active()


def _wsgi_get(path: str, query: str, headers: dict[str, str]) -> tuple[str, bytes]:
    """Through Django's WSGI handler, as gunicorn calls it (Sentry reads the request at that level; the
    test client skips it). As in Django's test client, the request's start and end do not close the test's
    database connection (and its transaction)."""
    from wsgiref.util import setup_testing_defaults

    from django.core import signals
    from django.core.handlers.wsgi import WSGIHandler
    from django.db import close_old_connections

    environ = {"PATH_INFO": path, "QUERY_STRING": query, "REQUEST_METHOD": "GET", "SERVER_NAME": "testserver",
               "REMOTE_ADDR": "198.51.100.7"}
    environ.update({"HTTP_" + k.upper().replace("-", "_"): v for k, v in headers.items()})
    setup_testing_defaults(environ)
    status = []
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        response = WSGIHandler()(environ, lambda s, h, exc_info=None: status.append(s))
        body = b"".join(response)
        response.close()
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)
    return status[0], body


@pytest.mark.django_db
@pytest.mark.urls("tests.core.obs_urls")
def test_an_exception_in_a_view_is_captured_without_personal_data(sentry_events, staff_user, settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    client = Client()
    client.force_login(staff_user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    status, _body = _wsgi_get("/obs/fail/", "q=1", {
        "X-Request-ID": "req-sentry", "Authorization": "Basic c2VjcmV0OnNlY3JldA==",
        "X-Forwarded-For": "203.0.113.9", "Cookie": f"{settings.SESSION_COOKIE_NAME}={session}"})
    assert status.startswith("500")

    events = [e for e in sentry_events.events() if e.get("exception")]
    assert len(events) == 1, sentry_events.events()
    event = events[0]
    assert event["exception"]["values"][-1]["type"] == "ZeroDivisionError"
    assert event["release"] == __version__ and event["environment"] == "test-env"
    request = event["request"]
    assert request["url"] == "http://testserver/obs/fail/" and request["method"] == "GET"
    assert request["headers"]["X-Request-Id"] == "req-sentry"
    text = repr(event)
    for secret in ("203.0.113.9", "198.51.100.7", "c2VjcmV0OnNlY3JldA", session, staff_user.username):
        assert secret not in text, secret
    assert not request.get("cookies") and "REMOTE_ADDR" not in request.get("env", {})
    assert "user" not in event or not (set(event["user"]) & {"ip_address", "username", "email", "id"})
    assert event["tags"]["request_id"] == "req-sentry"                # finds the request's log lines
    frames = event["exception"]["values"][-1]["stacktrace"]["frames"]
    assert not any(f.get("vars") for f in frames)                     # no local variables (parcels, parties)
