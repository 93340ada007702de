"""In a real browser: staff file and decide a transfer, an amendment and a renewal."""
from datetime import date

import pytest

from franchises.models import Application, Franchise
from tests import factories
from tests.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture
def fixtures_page(make_franchise):
    recipient = factories.person(given="Luis Alberto", first="Rivera", second="Ortiz")
    f = make_franchise(number="DRNA-FE-2020-0042", source="GROUNDWATER", use="INDUSTRIAL_COMMERCIAL",
                       issue=date(2020, 1, 15), expiry=date(2028, 1, 14))
    return f, recipient


def file_and_decide(page, base, franchise, kind_label, fill, decide_fill=None, *, decider):
    """Staff files the application; the approver (`decider`, their own browser) decides it."""
    page.goto(f"{base}/franquicias/{franchise.pk}/")
    page.click(f".card a.btn:has-text('{kind_label}')")
    page.wait_for_selector("h1:has-text('Presentar solicitud')")
    fill(page)
    for box in page.locator("input[name=documents]").all():
        box.check()
    page.click("form.stacked button[type=submit]")
    page.wait_for_selector("h1:has-text('Solicitud de')")
    assert "Recibida" in page.inner_text("main")
    assert page.locator("a.btn:has-text('Decidir')").count() == 0     # staff files; deciding is the approver's
    decider.goto(page.url)
    decider.click("a.btn:has-text('Decidir')")
    decider.wait_for_selector("h1:has-text('Decidir solicitud')")
    if decide_fill:
        decide_fill(decider)
    decider.click("form.stacked button[type=submit]")
    decider.wait_for_selector("h1:has-text('Solicitud de')")
    return decider.inner_text("main")


@pytest.fixture
def decider(live_server, browser, approver_user):
    context = browser.new_context()
    approver_page = context.new_page()
    sign_in(approver_page, live_server.url, approver_user.username)
    yield approver_page
    context.close()


def test_staff_file_and_decide_transfer_amendment_renewal(live_server, page, staff_user, fixtures_page, decider):
    franchise, recipient = fixtures_page
    base = live_server.url
    sign_in(page, base, staff_user.username)
    page.wait_for_url(f"{base}/")

    page.click("nav.sidebar a:has-text('Franquicias')")
    page.fill("input[name=q]", "pena colon")
    page.click("form.searchbar button[type=submit]")
    page.click("text=DRNA-FE-2020-0042")
    page.wait_for_selector("h1:has-text('DRNA-FE-2020-0042')")
    assert "Agua dulce subterránea industrial/comercial (8.13 a)" in page.inner_text("main")   # words, not the code

    def transfer(p):
        p.select_option("#id_recipient", label="Luis Alberto Rivera Ortiz")
        p.fill("#id_reasons", "Venta del negocio y sus instalaciones.")
        p.check("#id_fee_paid")

    body = file_and_decide(page, base, franchise, "Transferencia", transfer, decider=decider)
    assert "Concedida" in body
    franchise.refresh_from_db()
    assert franchise.holder == recipient

    def amendment(p):
        p.fill("#id_requested_gallons", "15000000")
        p.fill("#id_reasons", "Aumento de producción.")
        p.check("#id_fee_paid")

    body = file_and_decide(page, base, franchise, "Enmienda", amendment, decider=decider)
    assert "Concedida" in body
    franchise.refresh_from_db()
    assert franchise.authorized_gallons == 15_000_000

    def renewal(p):
        p.fill("#id_requested_expiry_date", "2033-01-14")

    def no_debt(p):
        p.fill("#id_outstanding_debt", "0.00")

    body = file_and_decide(page, base, franchise, "Renovación", renewal, no_debt, decider=decider)
    assert "Tramitada como franquicia nueva" in body
    new = Franchise.objects.get(predecessor=franchise)
    assert new.number in body
    assert list(Application.objects.order_by("id").values_list("kind", "status")) == [
        ("TRANSFER", "GRANTED"), ("AMENDMENT", "GRANTED"), ("RENEWAL", "PROCESSED_AS_NEW")]

    page.goto(f"{base}/franquicias/{franchise.pk}/")
    page.wait_for_selector("svg, h1")
    page.screenshot(path="/tmp/franchise_page_browser.png", full_page=True)
