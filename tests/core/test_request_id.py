"""The request id: header in and out, on every log record, into the Celery tasks a request starts."""
from __future__ import annotations

import io
import json
import logging
import re
from types import SimpleNamespace

import pytest

from core.celery_signals import put_request_id_in_headers, reset_task_context, set_task_context
from core.logs import RequestIdFilter, TextFormatter, json_formatter, logging_config
from core.request_id import TASK_HEADER, request_id_var, sane_request_id, task_id_var, task_name_var

HEX32 = re.compile(r"^[0-9a-f]{32}$")


def test_a_new_id_when_none_comes_in(client):
    first = client.get("/healthz")["X-Request-ID"]
    second = client.get("/healthz")["X-Request-ID"]
    assert HEX32.match(first) and HEX32.match(second) and first != second


def test_a_sane_incoming_id_is_kept(client):
    assert client.get("/healthz", headers={"X-Request-ID": "lb-1.2_3-abc"})["X-Request-ID"] == "lb-1.2_3-abc"
    assert client.get("/healthz", headers={"X-Request-ID": "a" * 64})["X-Request-ID"] == "a" * 64


@pytest.mark.parametrize("bad", ["a" * 65, "has space", "quote\"", "semi;colon", "", "ñandú", "a/b", "<script>"])
def test_an_insane_incoming_id_is_replaced(client, bad):
    assert sane_request_id(bad) is None
    assert HEX32.match(client.get("/healthz", HTTP_X_REQUEST_ID=bad)["X-Request-ID"])


@pytest.mark.django_db
def test_redirects_carry_it_too(client):
    response = client.get("/cuentas/password_change/")  # anonymous: sent to login
    assert response.status_code == 302 and HEX32.match(response["X-Request-ID"])


@pytest.fixture
def console_output():
    """What the configured console handler (settings.LOGGING) writes, for the length of a test."""
    handler = next(h for h in logging.getLogger().handlers if any(isinstance(f, RequestIdFilter) for f in h.filters))
    buf = io.StringIO()
    old, old_formatter = handler.setStream(buf), handler.formatter
    handler.setFormatter(TextFormatter())  # the same lines whatever DJANGO_LOG_FORMAT the run has
    yield buf
    handler.setStream(old)
    handler.setFormatter(old_formatter)


@pytest.mark.urls("tests.core.obs_urls")
def test_log_records_and_tasks_of_a_request_carry_its_id(client, console_output):
    assert request_id_var.get() is None
    response = client.get("/obs/log/", headers={"X-Request-ID": "req-42"})
    assert response["X-Request-ID"] == "req-42"
    body = response.json()
    # The task started by the request (eager here) and the task it started in turn see the request's id.
    assert body["task"]["request_id"] == "req-42" and body["task"]["task_name"] == "tests.core.obs_probe"
    assert body["task"]["child"]["request_id"] == "req-42"
    assert body["task"]["child"]["task_id"] != body["task"]["task_id"]
    assert body["after"] == "req-42"  # the task's context was put back
    lines = console_output.getvalue().splitlines()
    assert any("[req-42]" in x and "hello from the view" in x for x in lines), lines
    assert any("req-42 tests.core.obs_probe[" in x and "inside the probe task" in x for x in lines), lines
    assert request_id_var.get() is None and task_id_var.get() is None  # nothing leaks past the request


@pytest.mark.django_db
def test_djangos_own_request_log_carries_the_id(client, console_output):
    """django.request logs a 404 after the middleware has reset the context: the request still has the id."""
    assert client.get("/no-such-page/", headers={"X-Request-ID": "req-404"}).status_code == 404
    assert any("[req-404]" in x and "Not Found" in x for x in console_output.getvalue().splitlines())


def test_publish_puts_the_current_id_in_the_headers():
    headers = {"id": "t1", "task": "x"}
    put_request_id_in_headers(headers=headers)
    assert TASK_HEADER not in headers  # no request, nothing to carry
    token = request_id_var.set("req-7")
    try:
        put_request_id_in_headers(headers=headers)
    finally:
        request_id_var.reset(token)
    assert headers[TASK_HEADER] == "req-7"


def test_a_real_publish_carries_the_header(settings):
    """apply_async to an in-memory broker: the message's headers hold the request id."""
    from kombu import Connection

    from config.celery import app
    from tests.core.obs_urls import obs_probe

    saved = app.conf.task_always_eager
    app.conf.task_always_eager = False
    token = request_id_var.set("req-pub")
    try:
        with Connection("memory://") as conn:
            obs_probe.apply_async(connection=conn, queue="obs-test")
            message = conn.SimpleQueue("obs-test").get(timeout=5)
    finally:
        request_id_var.reset(token)
        app.conf.task_always_eager = saved
    assert message.headers[TASK_HEADER] == "req-pub"
    assert message.headers["task"] == "tests.core.obs_probe"


def _fake_task(**request_attrs):
    return SimpleNamespace(name="liens.tasks.liens_rank_all_task", request=SimpleNamespace(**request_attrs))


def test_prerun_restores_the_id_from_the_headers_and_postrun_resets_it():
    # In a worker, custom message headers are attributes of task.request.
    set_task_context(task_id="t-1", task=_fake_task(**{TASK_HEADER: "req-9", "headers": None}))
    try:
        assert (request_id_var.get(), task_id_var.get(), task_name_var.get()) == (
            "req-9", "t-1", "liens.tasks.liens_rank_all_task")
    finally:
        reset_task_context(task_id="t-1")
    assert (request_id_var.get(), task_id_var.get(), task_name_var.get()) == (None, None, None)


def test_prerun_reads_request_headers_and_makes_an_id_for_a_task_without_one():
    set_task_context(task_id="t-2", task=_fake_task(headers={TASK_HEADER: "req-10"}))
    assert request_id_var.get() == "req-10"
    reset_task_context(task_id="t-2")
    set_task_context(task_id="t-3", task=_fake_task(headers=None, **{TASK_HEADER: "bad id!"}))  # beat, or junk
    assert HEX32.match(request_id_var.get())
    reset_task_context(task_id="t-3")
    assert request_id_var.get() is None


def _record(msg="hello", **extra):
    record = logging.LogRecord("cargos.test", logging.INFO, __file__, 1, msg, (), None)
    record.__dict__.update(extra)
    return record


def test_json_lines_are_parseable_with_the_ids():
    fmt, flt = json_formatter(), RequestIdFilter()
    token = request_id_var.set("req-json")
    try:
        record = _record("plain «ñ» message")
        assert flt.filter(record)
        out = json.loads(fmt.format(record))
        tokens = (task_id_var.set("t-9"), task_name_var.set("core.tasks.refresh_work_queue"))
        in_task = _record()
        flt.filter(in_task)
        task_out = json.loads(fmt.format(in_task))
        task_name_var.reset(tokens[1])
        task_id_var.reset(tokens[0])
    finally:
        request_id_var.reset(token)
    assert out["request_id"] == "req-json" and out["message"] == "plain «ñ» message"
    assert out["level"] == "INFO" and out["logger"] == "cargos.test" and "timestamp" in out
    assert "task_id" not in out
    assert (task_out["task_id"], task_out["task_name"]) == ("t-9", "core.tasks.refresh_work_queue")


def test_json_line_outside_a_request_and_with_an_exception():
    fmt, flt = json_formatter(), RequestIdFilter()
    try:
        raise ValueError("bad")
    except ValueError:
        import sys

        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    record.request = object()  # Django's request logs add objects JSON cannot hold as they are
    flt.filter(record)
    out = json.loads(fmt.format(record))
    assert out["request_id"] is None and "ValueError: bad" in out["exc_info"]


def test_text_lines_show_the_id_or_a_dash():
    fmt, flt = TextFormatter(), RequestIdFilter()
    record = _record()
    flt.filter(record)
    assert "[-] hello" in fmt.format(record)


def test_logging_config_refuses_an_unknown_format():
    assert logging_config("JSON")["handlers"]["console"]["formatter"] == "json"
    with pytest.raises(ValueError, match="DJANGO_LOG_FORMAT"):
        logging_config("xml")
