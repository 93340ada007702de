"""In a real browser: staff read the days each franchise invoice bills (FRA-3, sec. 8.14 a) and the
supplementary invoice a renewal made, on the franchise's billing page and its card."""
from datetime import date

import pytest

from assessments.franchise_billing import services
from franchises import services as franchise_services
from tests.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_staff_see_the_period_of_each_invoice_and_the_renewal_supplement(live_server, page, staff_user,
                                                                         make_franchise):
    f = make_franchise(number="DRNA-FE-2020-0099", issue=date(2020, 1, 15), expiry=date(2027, 3, 14))
    services.franchise_invoice_create(franchise=f, fiscal_year=2027, actor=None, issued_on=date(2026, 6, 1))
    app = franchise_services.application_file(actor=None, franchise=f, kind="RENEWAL",
                                              received_on=date(2026, 11, 2), requested_expiry_date=date(2029, 6, 30),
                                              documents={"RENEWAL_APPLICATION": True}, fee_paid=True)
    franchise_services.application_decide(actor=None, application=app, decided_on=date(2026, 11, 20), grant=True,
                                          outstanding_debt=0)
    base = live_server.url
    sign_in(page, base, staff_user.username)
    page.wait_for_url(f"{base}/")
    page.goto(f"{base}/franquicias/{f.pk}/")
    card = page.inner_text("#facturas")
    assert "01/07/2026–14/03/2027 (FRA-3)" in card and "Suplementaria FY2027" in card
    page.click("#facturas a.btn")
    page.wait_for_selector("h1:has-text('Facturas de la franquicia')")
    main = page.inner_text("main")
    assert "01/07/2026 – 14/03/2027" in main and "257 días" in main and "último año, hasta el vencimiento" in main
    corrections = page.inner_text("#correcciones")
    assert "15/03/2027 – 30/06/2027" in corrections and "$29.59" in corrections
    assert "Vigencia extendida" in corrections
    page.screenshot(path="/tmp/fra-billing-periods.png", full_page=True)
