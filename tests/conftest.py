"""Shared fixtures: users by role, and the rule that a missing service skips locally but fails in CI."""
from __future__ import annotations

import os
import shutil

import pytest

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
    page.click("form.login-form button[type=submit]")
