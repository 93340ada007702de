"""Celery signal handlers: the request id travels with the tasks; workers write their heartbeat.

Imported by core.apps.CoreConfig.ready(), so the web process (which publishes) and the worker (which runs
tasks) both connect them; config/celery.py stays as it is.

- before_task_publish: the current request id (of the HTTP request, or of the task that publishes) goes in
  the message headers (core.request_id.TASK_HEADER).
- task_prerun / task_postrun: around each task the request id, task id and task name are set in the
  context variables the log filter reads, then reset. A task published without one (beat) gets a new id,
  which the tasks it starts keep.
- worker_ready / worker_shutdown: the heartbeat /readyz looks for (core.health), written at once and then
  every HEARTBEAT_INTERVAL seconds from the worker's own timer, removed on a clean shutdown.
- setup_logging: the worker keeps Django's LOGGING (text or JSON lines with the ids, DJANGO_LOG_FORMAT and
  DJANGO_LOG_LEVEL) instead of Celery's own format; `--loglevel` is not used.
"""
from __future__ import annotations

import logging

from celery import signals
from django.conf import settings

from core import health
from core.request_id import (
    TASK_HEADER,
    new_request_id,
    request_id_var,
    sane_request_id,
    task_id_var,
    task_name_var,
)

logger = logging.getLogger("core.celery")

# task id -> the context variable tokens to reset after it (a task run eagerly inside another nests).
_tokens: dict[str, tuple] = {}


@signals.before_task_publish.connect(dispatch_uid="cargos-request-id-publish")
def put_request_id_in_headers(sender=None, headers=None, **kwargs):
    rid = request_id_var.get()
    if rid and headers is not None and TASK_HEADER not in headers:
        headers[TASK_HEADER] = rid


def _request_id_from(task) -> str | None:
    request = getattr(task, "request", None)
    if request is None:
        return None
    value = getattr(request, TASK_HEADER, None)
    if value is None:
        value = (getattr(request, "headers", None) or {}).get(TASK_HEADER)
    return sane_request_id(value)


@signals.task_prerun.connect(dispatch_uid="cargos-request-id-prerun")
def set_task_context(sender=None, task_id=None, task=None, **kwargs):
    # Eager tasks run where they were started: the context already holds the caller's id.
    rid = _request_id_from(task) or request_id_var.get() or new_request_id()
    key = task_id or ""
    _tokens[key] = (request_id_var.set(rid), task_id_var.set(task_id),
                    task_name_var.set(getattr(task, "name", None) or getattr(sender, "name", None)))


@signals.task_postrun.connect(dispatch_uid="cargos-request-id-postrun")
def reset_task_context(sender=None, task_id=None, **kwargs):
    tokens = _tokens.pop(task_id or "", None)
    if tokens is None:
        return
    rid_token, tid_token, name_token = tokens
    for var, token in ((task_name_var, name_token), (task_id_var, tid_token), (request_id_var, rid_token)):
        try:
            var.reset(token)
        except ValueError:  # set in another context (should not happen): leave a clean slate instead
            var.set(None)


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


# --- worker logging -----------------------------------------------------------------------------------

@signals.setup_logging.connect(dispatch_uid="cargos-worker-logging")
def keep_django_logging(**kwargs):
    """A connected receiver tells Celery not to install its own handlers: the worker logs as the web
    process does (settings.LOGGING: text or JSON lines, with the request id and the task's id and name)."""
    import logging.config

    logging.config.dictConfig(settings.LOGGING)
