"""In a real browser: staff bill a SID district's fiscal year with "Facturar año", read the run,
then try a year outside the term and see it refused."""
import os

import pytest
from django.utils import timezone

from assessments.improvement_billing.models import BillingRun
from core.fiscal import fiscal_year_of
from tests.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
SHOTS = os.environ.get("SHOTS_DIR", "/tmp")


@pytest.fixture
def long_resolution(charged_resolution, staff_user):
    from datetime import date

    from districts.improvement import services as improvement

    improvement.sid_resolution_update(actor=staff_user, resolution=charged_resolution, term_years=10)
    improvement.sid_crim_receipt_record(actor=staff_user, resolution=charged_resolution, received_on=date(2025, 2, 3))
    return charged_resolution


def test_staff_bill_a_year(live_server, page, approver_user, long_resolution):
    """Billing a year is the approver's (docs/security/roles.md)."""
    fy = fiscal_year_of(timezone.localdate())
    sign_in(page, live_server.url, approver_user.username)
    page.wait_for_url(f"{live_server.url}/")
    page.click("nav >> text=Facturación de mejoramiento")
    page.wait_for_selector("h1:has-text('Facturación de distritos de mejoramiento')")
    page.click("text=Distrito Especial de Prueba")
    page.fill("input[name=fiscal_year]", str(fy))
    with page.expect_navigation():
        page.click("form.stacked button[type=submit]")
    page.wait_for_selector(f"h1:has-text('FY{fy}')")
    assert "$633.33" in page.inner_text(".grid-4")
    assert page.locator("table.data").first.locator("tbody tr").count() == 3
    page.screenshot(path=f"{SHOTS}/improvement_billing_run.png", full_page=True)
    page.click("text=Facturación del distrito")
    page.fill("input[name=fiscal_year]", "2020")
    with page.expect_navigation():
        page.click("form.stacked button[type=submit]")
    assert "No se facturó" in page.inner_text("body")
    page.screenshot(path=f"{SHOTS}/improvement_billing_district.png", full_page=True)
    assert BillingRun.objects.get(fiscal_year=2020).status == "REFUSED"
