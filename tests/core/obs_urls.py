"""Views for tests/core/test_request_id.py and test_sentry.py only: one logs and starts a task, one fails."""
import logging

from django.db import transaction
from django.http import JsonResponse
from django.urls import include, path

from config.celery import app
from core.request_id import current_request_id, task_id_var, task_name_var

logger = logging.getLogger("tests.obs")


@app.task(name="tests.core.obs_probe")
def obs_probe(depth: int = 0):
    """What the task sees of the context; at depth > 0 it starts itself again (a task started by a task)."""
    logger.info("inside the probe task")
    seen = {"request_id": current_request_id(), "task_id": task_id_var.get(), "task_name": task_name_var.get()}
    if depth:
        seen["child"] = obs_probe.delay(depth - 1).result  # eager here: the result is at hand
    return seen


@transaction.non_atomic_requests
def logs_and_starts_a_task(request):
    logger.warning("hello from the view")
    return JsonResponse({"task": obs_probe.delay(1).get(), "after": current_request_id()})


@transaction.non_atomic_requests
def fails(request):
    raise ZeroDivisionError("boom in a view")


urlpatterns = [
    path("obs/log/", logs_and_starts_a_task),
    path("obs/fail/", fails),
    path("", include("config.urls")),
]
