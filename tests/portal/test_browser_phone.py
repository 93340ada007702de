"""Issue #17, owners on their phones: the portal, sign-in, activation and the public verification page
work at 360 px with no sideways scrolling — tables become stacked rows, amounts and the download button
stay in view, the header fits — and at a desktop width too; every page passes axe-core (no serious or
critical violations), has a skip link and marks the current page in the portal's menu."""
from __future__ import annotations

import os

import pytest
from django.urls import reverse

from tests.conftest import sign_in
from tests.web.a11y import axe_violations, in_view_horizontally, sideways_overflow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

SHOTS = os.environ.get("A11Y_SHOTS")  # a directory: screenshots of each page at each width, to look at


def _look(page, base, path, name, width, problems):
    response = page.goto(base + path)
    page.wait_for_load_state("networkidle")
    assert response.status == 200, f"{path}: {response.status}"
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/a11y-{name}-{width}.png", full_page=True)
    overflow = sideways_overflow(page)
    if overflow > 0:
        problems.append(f"{path} at {width} px: {overflow} px of sideways scrolling")
    assert page.locator("a.skip-link[href='#contenido']").count() == 1, path
    problems.extend(axe_violations(page))


@pytest.fixture
def phone(browser):
    context = browser.new_context(locale="es-PR", viewport={"width": 360, "height": 780}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    pg = context.new_page()
    pg.set_default_timeout(15000)
    yield pg
    context.close()


@pytest.mark.parametrize("width", [360, 800, 1280])
def test_the_portal_fits_a_phone_and_passes_the_accessibility_check(live_server, browser, world, width):
    context = browser.new_context(locale="es-PR", viewport={"width": width, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15000)
    base, problems = live_server.url, []
    try:
        # Public pages first: sign-in, activation, verification (form and a verified document).
        _look(page, base, reverse("login"), "login", width, problems)
        _look(page, base, reverse("portal:activate"), "activate", width, problems)
        _look(page, base, reverse("core:verify_form"), "verify-form", width, problems)
        code = world.notice_a.document.verification_code
        _look(page, base, reverse("core:verify", args=[code]), "verify", width, problems)

        sign_in(page, base, world.ana_user.username)
        pages = [(reverse("portal:home"), "portal-home"), (reverse("portal:notices"), "portal-notices"),
                 (reverse("portal:payments"), "portal-payments"),
                 (reverse("portal:account", args=[world.account_a.pk]), "portal-statement"),
                 (reverse("portal:parcel", args=[world.parcel_a.pk]), "portal-parcel")]
        for path, name in pages:
            _look(page, base, path, name, width, problems)
            if name == "portal-notices":
                # The download button and the amount stay in view; the menu says where one is.
                assert in_view_horizontally(page, f"a[data-notice='{world.notice_a.pk}']")
                assert in_view_horizontally(page, "#my-notices td.num")
                assert page.locator("nav[aria-label] a[aria-current='page']").inner_text() == "Mis avisos"
            # The content takes the window's width: no empty column where a staff menu would be.
            assert page.locator("main").bounding_box()["width"] >= min(width, 1280) * 0.9, (path, width)
            if name == "portal-home":
                assert in_view_horizontally(page, "#accounts td.num")
                assert in_view_horizontally(page, "#notice-language button[type=submit]")
        # The header fits: the language switch and "Salir" are reachable without scrolling sideways.
        assert in_view_horizontally(page, ".lang-switch button[value=en]")
        assert in_view_horizontally(page, ".topbar-right form button.btn-ghost")
        # The language, on the phone too: the same page in English, still fitting.
        page.goto(base + reverse("portal:notices"))
        with page.expect_navigation():
            page.click(".lang-switch button[value=en]")
        assert "Download PDF" in page.content() or "Descargar PDF" not in page.content()
        if sideways_overflow(page) > 0:
            problems.append(f"notices in English at {width} px: {sideways_overflow(page)} px sideways")
    finally:
        context.close()
    assert not problems, "\n".join(problems)
