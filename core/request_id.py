"""The request id: one token per HTTP request, carried into the log records and the Celery tasks it starts.

`RequestIdMiddleware` takes the incoming `X-Request-ID` when it is a sane token (a load balancer or proxy
may set one) or makes a new one, keeps it in a context variable for the request and returns it in the
response's `X-Request-ID`. core/celery_signals.py puts it in the headers of every task published meanwhile
and sets it again around the task in the worker; core/logs.py adds it (and the task's id and name) to
every log record.
"""
from __future__ import annotations

import re
import uuid
from contextvars import ContextVar

HEADER = "X-Request-ID"
META_KEY = "HTTP_X_REQUEST_ID"
# The Celery message header that carries it to the worker.
TASK_HEADER = "cargos_request_id"

_SANE = re.compile(r"^[A-Za-z0-9._-]{1,64}$")

request_id_var: ContextVar[str | None] = ContextVar("cargos_request_id", default=None)
task_id_var: ContextVar[str | None] = ContextVar("cargos_task_id", default=None)
task_name_var: ContextVar[str | None] = ContextVar("cargos_task_name", default=None)


def new_request_id() -> str:
    return uuid.uuid4().hex


def sane_request_id(value) -> str | None:
    """The value when it is a token of at most 64 characters of [A-Za-z0-9._-], else None."""
    if isinstance(value, bytes):
        try:
            value = value.decode("ascii")
        except UnicodeDecodeError:
            return None
    if isinstance(value, str) and _SANE.match(value):
        return value
    return None


def current_request_id() -> str | None:
    return request_id_var.get()


class RequestIdMiddleware:
    """First in MIDDLEWARE, so that every response (redirects and refusals included) carries the id."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        rid = sane_request_id(request.META.get(META_KEY)) or new_request_id()
        request.request_id = rid
        token = request_id_var.set(rid)
        try:
            response = self.get_response(request)
        finally:
            request_id_var.reset(token)
        response[HEADER] = rid
        return response
