"""In Chromium, under the strict Content-Security-Policy (core/csp.py): the main pages of staff, owners and
administrators, the API docs and the public pages load without one violation or script error.

Chromium reports a blocked inline style or script on the console ("Refused to apply inline style because
it violates the following Content Security Policy directive…"); every console message and page error of
each visit is collected and none may mention the policy. The demo seeds at a small size are the world.
"""
from __future__ import annotations

import os
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.conftest import require, second_step, sign_in, using_postgres

pytestmark = [pytest.mark.browser, pytest.mark.postgres,
              pytest.mark.django_db(transaction=True, serialized_rollback=True)]

SEEDS = [("seed_demo", "--parcels", "20"), ("seed_franchises",), ("seed_improvement",),
         ("seed_improvement_billing",), ("seed_liens",), ("seed_rolls",), ("seed_franchise_billing",),
         ("issue_demo_notices",), ("seed_dashboard",)]
PASSWORD = "pw-Test-12345"
SHOTS = os.environ.get("CSP_SHOTS")  # a directory: full-page screenshots of a few pages, to compare by eye
VIOLATION = ("Content Security Policy", "Content-Security-Policy", "Refused to")


@pytest.fixture
def world(django_user_model):
    require(using_postgres(), "needs PostgreSQL: set DATABASE_URL=postgres://…")
    for cmd, *args in SEEDS:
        call_command(cmd, *args, stdout=StringIO(), stderr=StringIO())
    from django.contrib.auth.models import Group

    for name in ("admin", "owner"):
        user = django_user_model.objects.get(username=name)
        user.set_password(PASSWORD)
        user.save()
    broad = django_user_model.objects.create_user("csp.staff", password=PASSWORD, first_name="Ana")
    broad.groups.add(*Group.objects.filter(name__in=["staff", "cashier", "approver", "legal_reviewer"]))
    return broad


class Console:
    """Every console message and page error of the page, by the URL being visited."""

    def __init__(self, page):
        self.url, self.seen = "", []
        page.on("console", lambda m: self.seen.append((self.url, f"console.{m.type}: {m.text}")))
        page.on("pageerror", lambda e: self.seen.append((self.url, f"pageerror: {e}")))

    def violations(self):
        return [f"{url} → {text}" for url, text in self.seen if any(v in text for v in VIOLATION)]

    def errors(self):
        return [f"{url} → {text}" for url, text in self.seen if text.startswith("pageerror")]


def visit(page, console, base, path, shot=None):
    console.url = path
    response = page.goto(base + path)
    page.wait_for_load_state("networkidle")
    assert response.status == 200, f"{path}: {response.status}"
    assert "content-security-policy" in response.headers, path
    if SHOTS and shot:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{shot}.png"), full_page=True)


def staff_paths(staff) -> list[tuple[str, str | None]]:
    from assessments.models import Account
    from assessments.rolls.models import Roll, RollJob
    from districts.improvement.models import SidResolution, TidPetition
    from districts.models import District, Parcel
    from franchises.models import Franchise
    from liens.models import Lien

    roll = Roll.objects.order_by("pk").first()
    # A queued job: the roll page shows its progress bar and polls its state (static/js/job-progress.js).
    job = RollJob.objects.create(district_id=roll.district_id, fiscal_year=roll.fiscal_year, operation="certify",
                                 requested_by=staff)
    parcel = Parcel.objects.order_by("pk").first()
    lien_parcel = Lien.objects.order_by("parcel_id").values_list("parcel_id", flat=True).first()
    paths = [
        (reverse("home"), "home"),
        (reverse("districts:parcel_list"), None),
        (reverse("districts:parcel_detail", args=[parcel.pk]), "parcel-detail"),
        (reverse("rolls:list"), None),
        (reverse("rolls:detail", args=[roll.pk]), "roll-detail"),
        (reverse("rolls:job", args=[job.pk]), "roll-job"),
        (reverse("rolls:aging"), "aging"),
        (reverse("liens:queue"), None),
        (reverse("liens:ladder", args=[lien_parcel]), "lien-ladder"),
        (reverse("liens:distribution", args=[lien_parcel]) + "?proceeds=1000", None),
        (reverse("liens:certificate", args=[lien_parcel]), None),
        (reverse("franchises:detail", args=[Franchise.objects.order_by("pk").first().pk]), "franchise-detail"),
        (reverse("reports:index"), None),
        (reverse("assessments:account", args=[Account.objects.order_by("pk").first().pk]), None),
        (reverse("improvement:home"), None),
        (reverse("whatif:page"), None),
    ]
    sid = SidResolution.objects.order_by("pk").first()
    tid = TidPetition.objects.order_by("pk").first()
    if sid:
        paths.append((reverse("improvement:sid_detail", args=[sid.pk]), None))
    if tid:
        paths.append((reverse("improvement:tid_detail", args=[tid.pk]), None))
    district = District.objects.order_by("pk").first()
    paths.append((reverse("districts:district_detail", args=[district.code]), None))
    return paths


def test_pages_load_without_content_security_policy_violations(live_server, page, world, django_user_model):
    from core.models import Document

    base = live_server.url
    console = Console(page)

    # Public pages.
    visit(page, console, base, reverse("login"), "login")
    visit(page, console, base, reverse("core:verify_form"))
    code = Document.objects.order_by("pk").values_list("verification_code", flat=True).first()
    visit(page, console, base, reverse("core:verify", args=[code]), "verify")

    # Staff.
    sign_in(page, base, world.username, PASSWORD)
    for path, shot in staff_paths(world):
        visit(page, console, base, path, shot)
    visit(page, console, base, reverse("api:docs"), "api-docs")
    page.wait_for_selector("#swagger-ui .info .title")  # Swagger UI rendered: its scripts ran under the policy

    # The owner's portal.
    page.context.clear_cookies()
    sign_in(page, base, "owner", PASSWORD)
    visit(page, console, base, reverse("portal:home"), "portal-home")

    # Django admin: sign-in, index, a changelist, a change form and an add form.
    page.context.clear_cookies()
    console.url = "/admin/login/"
    page.goto(f"{base}/admin/login/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("input[type=submit]")
    console.url = "/cuentas/segundo-factor/"
    second_step(page, base, "admin", "/admin/")  # the administrator's second factor (core/otp.py)
    from districts.models import Parcel

    parcel = Parcel.objects.order_by("pk").first()
    for path, shot in [("/admin/", None), ("/admin/districts/parcel/", "admin-changelist"),
                       (f"/admin/districts/parcel/{parcel.pk}/change/", "admin-change"),
                       ("/admin/districts/parcel/add/", None), ("/admin/auth/user/", None),
                       (f"/admin/auth/user/{django_user_model.objects.get(username='admin').pk}/change/", None)]:
        visit(page, console, base, path, shot)

    assert not console.violations(), "\n".join(console.violations())
    assert not console.errors(), "\n".join(console.errors())
