"""Shared fixtures: users by role, and the rule that a missing service skips locally but fails in CI."""
from __future__ import annotations

import os
import shutil
from datetime import date

import pytest

TEST_IRR9_VERSION = "ninguno-pruebas"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def require(condition: bool, reason: str) -> None:
    """Skip with a stated reason when a service is missing; under CI that is a failure, not a skip."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"CI requires it: {reason}", pytrace=False)
    pytest.skip(reason)


def using_postgres() -> bool:
    from django.db import connection

    return connection.vendor == "postgresql"


@pytest.fixture
def postgres_only(db):
    require(using_postgres(), "needs PostgreSQL: set DATABASE_URL=postgres://…")


@pytest.fixture
def make_user(db):
    from django.contrib.auth.models import Group, User

    def make(username: str, *roles: str, password: str = "pw-Test-12345", **extra) -> User:
        user = User.objects.create_user(username=username, password=password, **extra)
        for role in roles:
            user.groups.add(Group.objects.get(name=role))
        return user

    return make


@pytest.fixture
def staff_user(make_user):
    return make_user("ana.staff", "staff", first_name="Ana")


@pytest.fixture
def auditor_user(make_user):
    return make_user("auditor", "auditor")


@pytest.fixture
def owner_user(make_user):
    return make_user("duenio", "owner")


@pytest.fixture
def staff_client(client, staff_user):
    client.force_login(staff_user)
    return client


@pytest.fixture
def approver_user(make_user):
    return make_user("alba.aprobadora", "approver", first_name="Alba")


@pytest.fixture
def approver_client(client, approver_user):
    """Certify, finalize, bill, approve and decide (core.roles.PERMISSIONS)."""
    client.force_login(approver_user)
    return client


@pytest.fixture
def cashier_user(make_user):
    return make_user("carlos.cajero", "cashier", first_name="Carlos")


@pytest.fixture
def cashier_client(client, cashier_user):
    """The cash window: payments, batches, receipts, bank files, transfers (core.roles.PERMISSIONS)."""
    client.force_login(cashier_user)
    return client


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright; never a downloaded browser."""
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    exe = shutil.which("chromium")
    require(exe is not None, "needs Debian's chromium package (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=exe, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="es-PR", viewport={"width": 1366, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(15000)
    yield pg
    context.close()


def sign_in(page, base_url: str, username: str, password: str = "pw-Test-12345") -> None:
    """Sign in through the login form as a person would."""
    page.goto(f"{base_url}/cuentas/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    # Wait for the answer to the form: a page.goto right after the click could cancel the sign-in.
    with page.expect_navigation():
        page.click("form.login-form button[type=submit]")


@pytest.fixture
def celery_worker_process(postgres_only, settings, monkeypatch):
    """A real Celery worker (prefork, one child) on Redis, sharing the test database and media folder.

    It consumes one private queue, and CELERY_SINGLE_QUEUE (config.celery.route_task) sends every task
    there, from this process and from inside the worker alike, instead of the named queues (rolls,
    notices, deadlines, default) that nobody consumes here.
    Tests using it must be `django_db(transaction=True)` so the worker sees committed rows.
    Yields a handle with `.send(task, *args)`, `.child_pids()` and `.stop()`.
    """
    import signal
    import subprocess
    import sys
    import time
    import uuid

    from django.db import connection

    from config.celery import app

    redis_url = os.environ.get("REDIS_URL", "")
    require(bool(redis_url), "needs Redis for a real Celery worker: set REDIS_URL=redis://…")
    db = connection.settings_dict
    database_url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    queue = f"test-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url, "CELERY_VISIBILITY_TIMEOUT": "5",
           "DJANGO_SETTINGS_MODULE": "config.settings.test", "DJANGO_MEDIA_ROOT": str(settings.MEDIA_ROOT),
           "CELERY_SINGLE_QUEUE": queue}
    cmd = [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue, "--pool=prefork",
           "--concurrency=1", "--loglevel=INFO", "--without-gossip", "--without-mingle", "-n", f"{queue}@%h"]
    log = open(os.path.join(str(settings.MEDIA_ROOT), f"{queue}.log"), "w+")  # noqa: SIM115
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    monkeypatch.setenv("CELERY_SINGLE_QUEUE", queue)
    saved = (app.conf.task_always_eager, app.conf.broker_url, app.conf.task_default_queue)
    app.conf.task_always_eager = False
    app.conf.broker_url = redis_url
    app.conf.task_default_queue = queue
    app.conf.broker_transport_options = {"visibility_timeout": 5}

    class Handle:
        process = proc

        @staticmethod
        def send(task, *args):
            return task.apply_async(args=args, queue=queue)

        @staticmethod
        def child_pids() -> list[int]:
            out = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True, check=False).stdout
            return [int(p) for p in out.split()]

        @staticmethod
        def log() -> str:
            log.flush()
            log.seek(0)
            return log.read()

        @staticmethod
        def stop():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()

    deadline = time.time() + 60
    while time.time() < deadline and "ready." not in Handle.log():
        if proc.poll() is not None:
            pytest.fail(f"the Celery worker exited: {Handle.log()[-2000:]}")
        time.sleep(0.3)
    yield Handle
    Handle.stop()
    app.conf.task_always_eager, app.conf.broker_url, app.conf.task_default_queue = saved
    log.close()


def _transactional(request) -> bool:
    marker = request.node.get_closest_marker("django_db")
    if marker is None:
        return False
    return bool(marker.kwargs.get("transaction") or (marker.args and marker.args[0]))


@pytest.fixture(autouse=True)
def _money_guards_vs_flush(request):
    """The database's guards of the money (assessments/ledger/guard.py) would stop the flush after a
    transactional test — PostgreSQL's TRUNCATE (refused by statement triggers), SQLite's DELETE: lift them
    just before that flush; pytest_runtest_teardown below puts them back once the flush is done, so the
    next test, transactional or not, finds them."""
    if not _transactional(request):
        yield
        return
    request.getfixturevalue("_django_db_helper")
    from django.db import connection

    from assessments.ledger.guard import guard_install, guard_remove

    guard_install(connection)
    _ensure_reference_data()
    request.node._money_guards_blocker = request.getfixturevalue("django_db_blocker")
    yield
    guard_remove(connection)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After a transactional test's fixtures are torn down (its flush included), the guards go back."""
    try:
        return (yield)
    finally:
        blocker = getattr(item, "_money_guards_blocker", None)
        if blocker is not None:
            del item._money_guards_blocker
            from django.db import connection

            from assessments.ledger.guard import guard_install

            with blocker.unblock():
                guard_install(connection)


def _ensure_reference_data() -> None:
    """The rows migrations load (content types, roles, municipalities), back after a flush; idempotent.

    Serialized rollback cannot be relied on here: Playwright's event loop gives a browser test another
    `connections["default"]` object, one without the serialized data."""
    from django.contrib.auth.models import Group
    from django.contrib.contenttypes.models import ContentType
    from django.core.management.sql import emit_post_migrate_signal

    from districts.models import Municipality
    from districts.reference import MUNICIPALITIES

    if not ContentType.objects.exists():
        emit_post_migrate_signal(verbosity=0, interactive=False, db="default")
    from core.roles import ROLE_LABELS

    for name in ROLE_LABELS:  # every role of core.roles (core/migrations/0002_roles.py makes the same)
        Group.objects.get_or_create(name=name)
    from core.models import ParameterVersion

    # IRR-9: a roll of a bonded irrigation district is certified only once an administrator entered the
    # property-tax delinquency terms or recorded that none apply. The tests' office has recorded that
    # none apply (no surcharge, as before); tests of the rule itself remove it.
    ParameterVersion.objects.get_or_create(family="irr_delinquency", version=TEST_IRR9_VERSION, defaults={
        "effective_from": date(1900, 7, 1), "citation": "Pruebas: no aplican (IRR-9)",
        "values": {"none_apply": "true"}})
    if Municipality.objects.count() < len(MUNICIPALITIES):
        for i, name in enumerate(MUNICIPALITIES):
            Municipality.objects.get_or_create(name=name, defaults={"code": f"{2 * i + 1:03d}"})


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """With --reuse-db, a run stopped before its transactional test put the reference rows back (or a
    run of a single flushing test) leaves roles, municipalities and content types missing: restore
    them once at session start, before any test reads them."""
    with django_db_blocker.unblock():
        _ensure_reference_data()
        from django.db import connection

        from assessments.ledger.guard import guard_install, guard_installed

        if not guard_installed(connection):  # a run stopped between a flush and the guards' return
            guard_install(connection)


@pytest.fixture(autouse=True)
def _language_reset():
    """Each test starts in Spanish (LANGUAGE_CODE) and leaves no activated language behind: an English
    page or `translation.activate("en")` in one test must not change the next test's strings."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate_all()
    translation.activate(settings.LANGUAGE_CODE)


def pytest_collection_modifyitems(config, items):
    """Every transactional test restores the migrations' reference data (roles, municipalities)
    after its flush, so the tests after it find them: serialized_rollback everywhere."""
    for item in items:
        marker = item.get_closest_marker("django_db")
        if marker is None or not (marker.kwargs.get("transaction") or (marker.args and marker.args[0])):
            continue
        if marker.kwargs.get("serialized_rollback"):
            continue
        kwargs = {**marker.kwargs, "transaction": True, "serialized_rollback": True}
        item.add_marker(pytest.mark.django_db(**kwargs), append=False)
