"""Sentry error reporting, only when SENTRY_DSN is set (config/settings/base.py calls init_sentry).

No personal data is sent (send_default_pii=False: no cookies, no user, no IP address); the release is the
application's version and the environment comes from SENTRY_ENVIRONMENT.
"""
from __future__ import annotations


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
        traces_sample_rate=traces_sample_rate,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        **options,
    )
    return True
