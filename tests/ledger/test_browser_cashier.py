"""In a real browser: a cashier opens a batch, records a cash, a check and a card payment, and
closes the batch balanced. Set LEDGER_SCREENSHOTS=/some/dir to keep screenshots."""
import os
from datetime import date
from pathlib import Path

import pytest

from tests.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
SHOTS = os.environ.get("LEDGER_SCREENSHOTS", "")


def shot(page, name):
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=True)


def test_cashier_records_three_payments_and_closes_a_balanced_batch(live_server, page, account, charge, cashier):
    charge([(date(2025, 7, 1), "250.00"), (date(2026, 1, 1), "250.00")], rule="LAJ-7", lien=True)
    charge([(date(2025, 9, 1), "80.00")], rule="NONE", fund="irr")
    sign_in(page, live_server.url, cashier.username)
    page.wait_for_url(f"{live_server.url}/")
    pay_url = f"{live_server.url}/cobros/cuentas/{account.pk}/pagar/"
    page.goto(pay_url)
    page.click("#open-batch")
    page.wait_for_selector("#payment-form")

    for method, amount, check in (("CASH", "120.00", ""), ("CHECK", "150.00", "004512"), ("CARD", "35.75", "")):
        page.goto(pay_url)
        page.select_option("#id_method", method)
        page.fill("#id_amount", amount)
        if check:
            page.fill("#id_check_number", check)
        page.click("#payment-form button[type=submit]")
        page.wait_for_selector("h1:has-text('Recibo')")
        assert "Pago registrado" in page.inner_text("main")

    page.goto(f"{live_server.url}/cobros/cuentas/{account.pk}/")
    page.wait_for_selector("h1:has-text('Cuenta')")
    body = page.inner_text("main")
    assert "Recargo acumulado" in body and "LAJ-7" in body
    shot(page, "ledger-account.png")

    page.goto(f"{live_server.url}/cobros/lote/")
    page.wait_for_selector("#close-form")
    page.fill("#id_counted_CASH", "100.00")          # short by 20: refused with the difference
    page.fill("#id_counted_CHECK", "150.00")
    page.fill("#id_counted_CARD", "35.75")
    page.click("#close-batch")
    page.wait_for_selector(".msg-error")
    assert "no cuadra" in page.inner_text("main").lower()
    shot(page, "ledger-batch-unbalanced.png")
    page.fill("#id_counted_CASH", "120.00")
    page.click("#close-batch")
    page.wait_for_selector("text=Lote cerrado y cuadrado")
    assert "Cerrado" in page.inner_text("#batch-status")
    shot(page, "ledger-batch-closed.png")

    from assessments.models import CashierBatch, Payment
    batch = CashierBatch.objects.get()
    assert batch.status == "CLOSED" and batch.recorded == {"CASH": "120.00", "CHECK": "150.00", "CARD": "35.75"}
    assert sorted(Payment.objects.values_list("method", flat=True)) == ["CARD", "CASH", "CHECK"]
