"""In a real browser (issue #17): staff ask for a refund larger than the account's credit. It is refused
when asked, with the credit available, and no request waits for an approver; a refund within it is sent."""
from datetime import date
from decimal import Decimal

import pytest

from assessments.ledger.services import payment_record
from assessments.models import Adjustment
from tests.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_a_refund_larger_than_the_credit_is_refused_when_asked(live_server, page, account, charge, batch, cashier,
                                                                staff_user):
    charge([(date(2025, 7, 1), "100.00")])
    payment_record(account=account, amount=Decimal("125.00"), method="CASH", paid_on=date(2025, 7, 2), payer="x",
                   idempotency_key="p", batch=batch, actor=cashier)   # $25.00 of credit
    sign_in(page, live_server.url, staff_user.username)
    page.goto(f"{live_server.url}{account.get_absolute_url()}")
    page.click("a.btn:has-text('Solicitar ajuste')")
    page.wait_for_selector("h1:has-text('Solicitar ajuste, baja o reembolso')")
    page.select_option("#id_kind", "REFUND")
    page.fill("#id_amount", "40.00")
    page.fill("#id_reason", "Pago doble")
    page.click("form.stacked button[type=submit]")
    page.wait_for_selector(".errorlist")
    refusal = page.inner_text("main")
    assert "excede el crédito disponible" in refusal and "25.00" in refusal
    page.screenshot(path="/tmp/guard-refund-refused.png", full_page=True)
    assert not Adjustment.objects.exists()

    page.fill("#id_amount", "25.00")
    page.click("form.stacked button[type=submit]")
    page.wait_for_selector("text=Solicitud enviada")
    assert Adjustment.objects.get().amount == Decimal("25.00")
