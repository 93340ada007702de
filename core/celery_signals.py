"""Celery signal handlers: workers write their heartbeat.

Imported by core.apps.CoreConfig.ready(), so the worker connects them; config/celery.py stays as it is.

- worker_ready / worker_shutdown: the heartbeat /readyz looks for (core.health), written at once and then
  every HEARTBEAT_INTERVAL seconds from the worker's own timer, removed on a clean shutdown.
"""
from __future__ import annotations

import logging

from celery import signals
from django.conf import settings

from core import health

logger = logging.getLogger("core.celery")

# --- worker heartbeat ---------------------------------------------------------------------------------

_heartbeat = {"hostname": None, "timer_entry": None}


def _beat() -> None:
    hostname = _heartbeat["hostname"]
    try:
        health.heartbeat_write(health.redis_client(), hostname)
    except Exception:  # noqa: BLE001  (Redis away for a moment: /readyz will show it; try again next time)
        logger.warning("worker heartbeat for %s not written", hostname, exc_info=True)


@signals.worker_ready.connect(dispatch_uid="cargos-worker-heartbeat-start")
def start_heartbeat(sender=None, **kwargs):
    """`sender` is the worker's consumer: its timer runs in the worker's own loop, so a stuck worker stops
    beating."""
    if not settings.REDIS_URL:
        return
    _heartbeat["hostname"] = getattr(sender, "hostname", None) or "celery"
    _beat()
    _heartbeat["timer_entry"] = sender.timer.call_repeatedly(health.HEARTBEAT_INTERVAL, _beat)
    logger.info("worker heartbeat every %s s under %s", health.HEARTBEAT_INTERVAL,
                health.heartbeat_key(_heartbeat["hostname"]))


@signals.worker_shutdown.connect(dispatch_uid="cargos-worker-heartbeat-stop")
def stop_heartbeat(sender=None, **kwargs):
    entry, hostname = _heartbeat["timer_entry"], _heartbeat["hostname"]
    if entry is not None:
        entry.cancel()
    if hostname and settings.REDIS_URL:
        try:
            health.heartbeat_clear(health.redis_client(), hostname)
        except Exception:  # noqa: BLE001  (the key expires by itself)
            logger.warning("worker heartbeat for %s not removed", hostname, exc_info=True)
    _heartbeat.update(hostname=None, timer_entry=None)
