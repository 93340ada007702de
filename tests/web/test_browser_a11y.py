"""Issue #17: staff pages pass axe-core (no serious or critical violations) for each role — home with
what waits on the role, parcels, rolls, the cashier's payment, franchise applications, liens, the admin
— fit a 1,024 px window with no sideways scrolling, have a skip link and mark the current page in the
menu (aria-current). The world is the demo seeds at a small size, as in tests/web/test_browser_csp.py."""
from __future__ import annotations

import os

import pytest
from django.urls import reverse

from tests.conftest import second_step, sign_in
from tests.web.a11y import axe_violations, layout_problems
from tests.web.test_browser_csp import PASSWORD, staff_paths, world  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.postgres,
              pytest.mark.django_db(transaction=True, serialized_rollback=True)]

SHOTS = os.environ.get("A11Y_SHOTS")


def check(page, base, path, problems, *, menu=True, width=1024):
    response = page.goto(base + path)
    page.wait_for_load_state("networkidle")
    assert response.status == 200, f"{path}: {response.status}"
    if SHOTS:
        name = path.strip("/").replace("/", "_") or "home"
        page.screenshot(path=f"{SHOTS}/a11y-staff-{name[:60]}.png", full_page=True)
    problems.extend(axe_violations(page))
    problems.extend(layout_problems(page, path, menu=menu, width=width))


def _user(django_user_model, username, *groups):
    from django.contrib.auth.models import Group

    user = django_user_model.objects.create_user(username, password=PASSWORD, first_name=username.title())
    user.groups.add(*Group.objects.filter(name__in=groups))
    return user


def test_staff_pages_pass_the_accessibility_check_for_each_role(live_server, browser, world, django_user_model):  # noqa: F811
    from assessments.models import Account
    from franchises.models import Application

    context = browser.new_context(locale="es-PR", viewport={"width": 1024, "height": 800})
    page = context.new_page()
    page.set_default_timeout(20000)
    base, problems = live_server.url, []
    try:
        # Broad staff (staff, cashier, approver, legal reviewer): the main pages of every area.
        sign_in(page, base, world.username, PASSWORD)
        paths = [p for p, _ in staff_paths(world)]
        # Every entry of the staff menu, too (core/context_processors.py).
        from core.context_processors import STAFF_NAV

        paths += [reverse(name) for _, _, name in STAFF_NAV]
        paths += [reverse("franchises:application_list"), reverse("assessments:adjustments"),
                  reverse("assessments:my_batch"), reverse("districts:party_list")]
        paths = list(dict.fromkeys(paths))
        application = Application.objects.order_by("pk").first()
        if application:
            paths.append(reverse("franchises:application_detail", args=[application.pk]))
        for path in paths:
            check(page, base, path, problems)
        # The menu marks where one is.
        page.goto(base + reverse("rolls:list"))
        assert page.locator(".sidebar a[aria-current='page']").inner_text() == "Padrones"

        # Each role's home, and the cashier's payment page.
        account = Account.objects.order_by("pk").first()
        for username, group in [("a11y.aprobadora", "approver"), ("a11y.cajera", "cashier"),
                                ("a11y.legal", "legal_reviewer"), ("a11y.auditora", "auditor")]:
            _user(django_user_model, username, group)
            page.context.clear_cookies()
            sign_in(page, base, username, PASSWORD)
            check(page, base, reverse("home"), problems)
            assert page.locator("#espera-titulo").count() == 1
            if group == "cashier":
                check(page, base, reverse("assessments:payment_create", args=[account.pk]), problems)

        # The admin: index and a changelist (Django's own templates; only the serious and critical count).
        page.context.clear_cookies()
        page.goto(f"{base}/admin/login/")
        page.fill("#id_username", "admin")
        page.fill("#id_password", PASSWORD)
        with page.expect_navigation():
            page.click("input[type=submit]")
        second_step(page, base, "admin", "/admin/")
        for path in ("/admin/", "/admin/districts/parcel/"):
            check(page, base, path, problems, menu=False)
    finally:
        context.close()
    assert not problems, "\n".join(problems)
