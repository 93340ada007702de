"""Sentry error reporting, only when SENTRY_DSN is set (config/settings/base.py calls init_sentry).

No personal data is sent: no cookies, user or IP address (send_default_pii=False), no request bodies
(a form holds owners' names and addresses) and no local variables of the stack frames (they hold parcels
and parties). Each event is tagged with the request id (core.request_id), which finds its log lines.
The release is the application's version and the environment comes from SENTRY_ENVIRONMENT.
"""
from __future__ import annotations


def tag_request_id(event: dict, hint: dict) -> dict:
    """Sentry's before_send: the request or task's id as a tag (the same id as in the JSON logs)."""
    from core.request_id import current_request_id

    rid = current_request_id()
    if rid:
        event.setdefault("tags", {})["request_id"] = rid
    return event


def init_sentry(dsn: str, environment: str, release: str, traces_sample_rate: float = 0.0, **options) -> bool:
    """Start Sentry with the Django and Celery integrations; returns False (and does nothing) without a DSN.

    `options` go to sentry_sdk.init as they are (tests pass `transport=` to capture events in memory)."""
    if not dsn:
        return False
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release,
        send_default_pii=False,
        max_request_body_size="never",
        include_local_variables=False,
        traces_sample_rate=traces_sample_rate,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        **{"before_send": tag_request_id, **options},
    )
    return True
