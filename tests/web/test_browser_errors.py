"""Issue #17, in the browser: the 404 and 500 pages a person meets are styled, pass axe-core, fit a
phone, and lead back home."""
from __future__ import annotations

import pytest

from tests.conftest import sign_in
from tests.web.a11y import axe_violations, sideways_overflow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.mark.parametrize("width", [360, 1024])
def test_error_pages_are_styled_accessible_and_lead_back(live_server, browser, settings, staff_user, width):
    settings.ROOT_URLCONF = "tests.web.error_urls"
    context = browser.new_context(locale="es-PR", viewport={"width": width, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15000)
    base = live_server.url
    try:
        sign_in(page, base, staff_user.username)
        response = page.goto(f"{base}/no-existe/")
        assert response.status == 404
        assert page.locator("h1").inner_text() == "No encontramos esa página"
        assert axe_violations(page) == [] and sideways_overflow(page) <= 0
        page.screenshot(path=f"/tmp/a11y-404-{width}.png", full_page=True)

        response = page.goto(f"{base}/__boom__/")
        assert response.status == 500
        assert page.locator("h1").inner_text() == "Algo falló de nuestro lado"
        assert axe_violations(page) == [] and sideways_overflow(page) <= 0
        page.screenshot(path=f"/tmp/a11y-500-{width}.png", full_page=True)
        # The message takes the phone's width (not squeezed into a column beside a menu that is not there).
        assert page.locator(".error-card").bounding_box()["width"] >= min(width - 60, 700)
        with page.expect_navigation():
            page.click(".error-ways a:has-text('Ir al inicio')")
        assert page.url == f"{base}/"
    finally:
        context.close()
