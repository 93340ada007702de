"""In a real browser: staff sign in, find a parcel by an owner's surname typed without accents, open it."""
import os
from pathlib import Path

import pytest

from tests import factories
from tests.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
SHOTS = Path(os.environ.get("SCREENSHOT_DIR", "artifacts/screenshots"))


@pytest.fixture
def register():
    p = factories.parcel()
    factories.own(p, factories.person())
    factories.member(factories.district(), p)
    other = factories.parcel(cadastre="371-045-200-01")
    factories.own(other, factories.person(given="María", first="Peña", second="Colón"))
    return p


def test_staff_finds_parcel_by_surname_without_accents(live_server, page, staff_user, register):
    sign_in(page, live_server.url, staff_user.username)
    page.wait_for_url(f"{live_server.url}/")
    assert "Buenos días" in page.content()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "home.png"), full_page=True)

    page.fill("input[name=q]", "rodriguez nunez")
    page.click("text=Buscar parcela")
    page.wait_for_selector("table.data")
    rows = page.locator("table.data tbody tr")
    assert rows.count() == 1
    assert "371-045-123-07" in rows.first.inner_text()
    assert "Rodríguez Núñez" in rows.first.inner_text()

    page.click("text=371-045-123-07")
    page.wait_for_selector("h1:has-text('371-045-123-07')")
    body = page.inner_text("main")
    assert "José Ramón Rodríguez Núñez" in body
    assert "12.5000 cuerdas" in body
    assert "Distrito de Riego de la Costa Sur" in body
    page.screenshot(path=str(SHOTS / "parcel.png"), full_page=True)


def test_language_switch_to_english(live_server, page, staff_user, register):
    sign_in(page, live_server.url, staff_user.username)
    page.wait_for_url(f"{live_server.url}/")
    page.click("button[value=en]")
    page.wait_for_selector("html[lang=en]")
    assert "Find parcel" in page.inner_text("main")
    assert "Due this week" in page.inner_text("main")
    assert "Irrigation district (bonds)" in page.inner_text("main")


def test_anonymous_and_non_staff_are_refused(live_server, page, owner_user, make_user, register):
    page.goto(f"{live_server.url}/registro/parcelas/{register.pk}/")
    assert "/cuentas/login/" in page.url

    sign_in(page, live_server.url, owner_user.username)
    page.goto(f"{live_server.url}/registro/parcelas/{register.pk}/")
    assert "/portal/" in page.url
    assert "371-045-123-07" not in page.content()

    page.context.clear_cookies()
    make_user("sin.rol")
    sign_in(page, live_server.url, "sin.rol")
    response = page.goto(f"{live_server.url}/registro/parcelas/{register.pk}/")
    assert response.status == 403
