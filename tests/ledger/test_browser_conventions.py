"""In a real browser, the Puerto Rico conventions of issue #17 as a clerk and an owner meet them: a batch
closed with "500,00" says why next to the box; dates typed dd/mm/aaaa; a cadastre typed without dashes
is found; the admin writes $19,160.01; the portal shows a surcharge to the cent, as the staff page does.
Screenshots go to /tmp/conv-*.png."""
from datetime import date

import pytest
from django.utils import timezone

from core.templatetags.fmt import usd
from tests.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_closing_a_batch_with_a_comma_says_why_next_to_the_box(live_server, page, account, charge, cashier):
    charge([(date(2025, 9, 1), "80.00")], rule="NONE", fund="irr")
    sign_in(page, live_server.url, cashier.username)
    page.goto(f"{live_server.url}/cobros/cuentas/{account.pk}/pagar/")
    page.click("#open-batch")
    page.wait_for_selector("#payment-form")
    page.fill("#id_amount", "1,2")                                  # ambiguous: refused at the field
    page.click("#payment-form button[type=submit]")
    assert "es ambiguo" in page.inner_text("#payment-form")
    page.fill("#id_amount", "80.00")
    page.click("#payment-form button[type=submit]")
    page.wait_for_selector("h1:has-text('Recibo')")

    page.goto(f"{live_server.url}/cobros/lote/")
    page.wait_for_selector("#close-form")
    page.fill("#id_counted_CASH", "500,00")
    page.fill("#id_counted_CHECK", "abc")
    page.click("#close-batch")
    page.wait_for_selector("#id_counted_CASH_error")
    assert "«500,00» es ambiguo" in page.inner_text("#id_counted_CASH_error")
    assert "«abc» no es un número" in page.inner_text("#id_counted_CHECK_error")
    assert page.input_value("#id_counted_CASH") == "500,00"          # what was typed stays
    assert page.get_attribute("#id_counted_CASH", "aria-invalid") == "true"
    page.screenshot(path="/tmp/conv-batch-error.png", full_page=True)
    page.fill("#id_counted_CASH", "80.00")
    page.fill("#id_counted_CHECK", "")
    page.click("#close-batch")
    page.wait_for_selector("text=Lote cerrado y cuadrado")


def test_dates_are_typed_and_shown_dd_mm_aaaa(live_server, page, account, charge, cashier):
    charge([(date(2025, 9, 1), "80.00")], rule="NONE", fund="irr")
    sign_in(page, live_server.url, cashier.username)
    page.goto(f"{live_server.url}/cobros/cuentas/{account.pk}/pagar/")
    page.click("#open-batch")
    page.wait_for_selector("#payment-form")
    box = page.locator("#id_paid_on")
    today = timezone.localdate()
    assert box.get_attribute("type") == "text" and box.get_attribute("placeholder") == "dd/mm/aaaa"
    assert box.input_value() == f"{today:%d/%m/%Y}"
    page.screenshot(path="/tmp/conv-date-input.png", full_page=True)
    box.fill(f"{today:%d/%m/%Y}")
    page.fill("#id_amount", "80")
    page.click("#payment-form button[type=submit]")
    page.wait_for_selector("h1:has-text('Recibo')")
    assert f"{today:%d/%m/%Y}" in page.inner_text("main")
    from assessments.models import Payment
    assert Payment.objects.get().paid_on == today


def test_a_cadastre_typed_without_dashes_is_found(live_server, page, account, staff_user):
    digits = account.parcel.cadastre.replace("-", "")
    sign_in(page, live_server.url, staff_user.username)
    page.goto(f"{live_server.url}/registro/parcelas/?q={digits}")
    assert account.parcel.cadastre in page.inner_text("main")
    page.goto(f"{live_server.url}/cobros/")
    page.fill("input[name=q]", digits)
    page.press("input[name=q]", "Enter")
    page.wait_for_load_state()
    assert account.number in page.inner_text("main")
    page.screenshot(path="/tmp/conv-cadastre-search.png", full_page=True)


def test_the_admin_writes_amounts_the_puerto_rico_way(live_server, page, account, charge, django_user_model):
    charge([(date(2026, 7, 1), "19160.01")], rule="NONE", fund="irr")
    django_user_model.objects.create_superuser("root.admin", "root@example.pr", "pw-Test-12345")
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "root.admin")
    page.fill("#id_password", "pw-Test-12345")
    page.click("input[type=submit]")
    page.goto(f"{live_server.url}/admin/assessments/receivable/")
    body = page.inner_text("#result_list")
    assert "$19,160.01" in body and "19160,01" not in body
    page.screenshot(path="/tmp/conv-admin-amount.png", full_page=True)
    page.goto(f"{live_server.url}/admin/")
    assert "Historical" not in page.inner_text("body")


def test_the_portal_shows_the_surcharge_to_the_cent_as_the_staff_page(live_server, page, account, charge, make_user,
                                                                     staff_user):
    from assessments.ledger.statements import statement

    charge([(date(2025, 7, 1), "4011.03")], rule="LAJ-7", lien=True)
    owner = make_user("dueno.portal", "owner")
    party = account.parcel.ownerships.get().party
    party.user = owner
    party.save()
    row = [i for i in statement(account=account, as_of=timezone.localdate()).installments if i.principal_open][0]
    surcharge = usd(row.surcharge_open + row.accrued_surcharge)
    assert not surcharge.endswith(".00")                              # cents the old `add` filter dropped

    sign_in(page, live_server.url, owner.username)
    page.goto(f"{live_server.url}/portal/cuentas/{account.pk}/")
    portal = page.inner_text("main")
    page.screenshot(path="/tmp/conv-portal-cents.png", full_page=True)
    assert surcharge in portal

    page.context.clear_cookies()
    sign_in(page, live_server.url, staff_user.username)
    page.goto(f"{live_server.url}/cobros/cuentas/{account.pk}/certificacion/")
    assert surcharge in page.inner_text("main")
