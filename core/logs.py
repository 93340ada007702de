"""Log records with the request id (and the task's id and name inside a task); JSON lines or plain text.

`DJANGO_LOG_FORMAT=json` gives one JSON object per line (timestamp, level, logger, message, request_id,
and task_id / task_name inside a Celery task); `text` (the default outside production) a readable line.
Settings call `logging_config()`; nothing here touches Django's settings or models at import time.
"""
from __future__ import annotations

import logging

from core.request_id import request_id_var, task_id_var, task_name_var

FORMATS = ("json", "text")


class RequestIdFilter(logging.Filter):
    """Adds `request_id` to every record (None outside a request or task), and `task_id` / `task_name`
    inside a Celery task. Never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request_id", None) is None:
            # Django logs a request's 4xx/5xx (django.request) after the middleware has finished: the request
            # it passes along still knows its id.
            record.request_id = request_id_var.get() or getattr(getattr(record, "request", None), "request_id", None)
        task_id = task_id_var.get()
        if task_id is not None:
            record.task_id = task_id
            record.task_name = task_name_var.get()
        return True


class TextFormatter(logging.Formatter):
    """A readable line: time, level, logger, [request id], message; the task in brackets inside a task."""

    def __init__(self):
        super().__init__("%(asctime)s %(levelname)s %(name)s [%(rid)s] %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        rid = getattr(record, "request_id", None) or "-"
        task_name = getattr(record, "task_name", None)
        record.rid = f"{rid} {task_name}[{record.task_id}]" if task_name else rid
        return super().format(record)


def json_formatter():
    """python-json-logger's formatter with the fields named as our log collector expects them."""
    from pythonjsonlogger.json import JsonFormatter

    return JsonFormatter(["levelname", "name", "message", "request_id"], timestamp=True,
                         rename_fields={"levelname": "level", "name": "logger"})


def logging_config(fmt: str = "text", level: str = "INFO") -> dict:
    """Django's LOGGING for the format asked for (`json` or `text`)."""
    fmt = (fmt or "text").strip().lower()
    if fmt not in FORMATS:
        raise ValueError(f"DJANGO_LOG_FORMAT must be one of {', '.join(FORMATS)}, not {fmt!r}")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "core.logs.RequestIdFilter"}},
        "formatters": {"json": {"()": "core.logs.json_formatter"}, "text": {"()": "core.logs.TextFormatter"}},
        "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["request_id"], "formatter": fmt}},
        "root": {"handlers": ["console"], "level": level},
        # WeasyPrint reports every layout step at INFO; only its problems matter here.
        "loggers": {"weasyprint": {"level": "WARNING"}, "fontTools": {"level": "WARNING"}},
    }
