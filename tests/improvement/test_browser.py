"""In a real browser: staff walk a TID from the mayor's petition to an approved, published ordinance,
watching the formula's live preview (each parcel's charge and the total against the expected amount)."""
import pytest

from districts.improvement.models import TidOrdinance, TidPetition
from tests.conftest import sign_in
from tests.improvement.conftest import FORMULA

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
SHOTS = "/tmp"


def submit(page, form_selector):
    with page.expect_navigation():
        page.click(f"{form_selector} button[type=submit]:not([name=preview])")


def test_staff_walk_a_tid_to_a_published_ordinance(live_server, page, staff_user, tid_district):
    sign_in(page, live_server.url, staff_user.username)
    page.wait_for_url(f"{live_server.url}/")
    page.click("nav >> text=Distritos de mejoramiento")
    page.wait_for_selector("h1:has-text('Distritos de mejoramiento')")

    # The mayor's petition reaches the Municipal Legislature (TID-1: ordinance due in 90 days).
    page.click("text=Nueva petición TID")
    page.select_option("select[name=district]", label=str(tid_district))
    page.select_option("select[name=municipality]", label="San Juan")
    page.fill("textarea[name=petition_text]", "Iluminación y seguridad del paseo costero.")
    page.fill("input[name=legislature_received_on]", "2026-03-02")
    with page.expect_navigation():
        page.click("form.stacked button[type=submit]")
    page.wait_for_selector("h1:has-text('Distrito Turístico de Prueba')")
    assert "01/06/2026" in page.inner_text("#peticion")  # Mar 2 + 90 = Sun May 31 → Mon Jun 1

    # The Legislature's findings on the five factors.
    for factor in "abcde":
        page.select_option("#finding-form select[name=factor]", factor)
        page.select_option("#finding-form select[name=finding]", "FAVORABLE")
        submit(page, "#finding-form")
    assert page.locator("#factors-table .badge-ok").count() == 5

    # The ordinance, with the formula previewed live over the member parcels.
    form = "#ordinance-form"
    page.fill(f"{form} input[name=number]", "Ord. 7, Serie 2025-2026")
    page.fill(f"{form} input[name=issued_on]", "2026-05-01")
    page.fill(f"{form} input[name=expected_amount]", "3500.00")
    page.fill(f"{form} input[name=term_years]", "5")
    page.fill(f"{form} input[name=first_fiscal_year]", "2027")
    page.check(f"{form} input[name=association_authorized]")
    page.fill(f"{form} textarea[name=formula]", "max(150, 0.25 * frontag)")
    page.wait_for_selector("#ordinance-preview #preview-error:has-text('posición 16')")
    assert "nombre desconocido (frontag)" in page.inner_text("#ordinance-preview")
    page.fill(f"{form} textarea[name=formula]", FORMULA)
    page.wait_for_selector("#ordinance-preview #preview-table")
    page.wait_for_selector("#ordinance-preview:not([aria-busy])")
    assert page.inner_text("#preview-total") == "$3,400.00"
    rows = page.locator("#preview-table tbody tr")
    assert rows.count() == 3
    assert "$3,000.00" in rows.nth(0).inner_text() and "$150.00" in rows.nth(2).inner_text()
    assert "-$100.00" in page.inner_text("#preview-figures")
    page.screenshot(path=f"{SHOTS}/improvement_tid_preview.png", full_page=True)
    submit(page, form)
    page.wait_for_selector("#ordinance-formula")

    # The mayor receives it (30 days) and approves; then the week to publish.
    page.fill("#mayor-receipt-form input[name=received_on]", "2026-05-04")
    submit(page, "#mayor-receipt-form")
    page.select_option("#mayor-decision-form select[name=decision]", "APPROVED")
    page.fill("#mayor-decision-form input[name=decided_on]", "2026-06-12")
    submit(page, "#mayor-decision-form")
    assert "22/06/2026" in page.inner_text("#publicacion")  # Juneteenth, then the weekend
    page.fill("#publication-form input[name=newspaper]", "El Nuevo Día")
    page.fill("#publication-form input[name=published_on]", "2026-06-22")
    submit(page, "#publication-form")

    page.wait_for_selector("#petition-status:has-text('Ordenanza publicada')")
    assert "El Nuevo Día" in page.inner_text("#newspaper")
    assert page.locator("#preview-table tbody tr").count() == 3
    page.screenshot(path=f"{SHOTS}/improvement_tid.png", full_page=True)

    ordinance = TidOrdinance.objects.get()
    assert (ordinance.formula, ordinance.mayor_decision, str(ordinance.published_on)) == (
        FORMULA, "APPROVED", "2026-06-22")
    assert ordinance.petition.status == TidPetition.Status.PUBLISHED
