"""Issue #17: the roll cycle and a cashier's payment work with the keyboard alone — Tab to reach each
control, type, Enter to follow a link or press a button; no mouse click anywhere after the first page
load. The skip link is the first stop and leads into the page's content."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from tests.conftest import totp_code, totp_device
from tests.ledger.conftest import account, charge, funds, office, parcel  # noqa: F401 (fixtures)
from tests.rolls.conftest import irrigation_figures, irrigation_register  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

FOCUSED = """([selector, text]) => {
    const e = document.activeElement;
    return !!e && e.matches(selector) && (!text || (e.textContent || e.value || '').includes(text));
}"""


def tab_to(page, selector: str, text: str = "", limit: int = 200) -> None:
    """Press Tab until the focused element matches `selector` (and shows `text`); fail if the
    keyboard never gets there. Already there (a field with autofocus): nothing to press."""
    if page.evaluate(FOCUSED, [selector, text]):
        return
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED, [selector, text]):
            return
    raise AssertionError(f"the keyboard never reaches {selector} {text!r} on {page.url}")


def activate(page, selector: str, text: str = "", wait: str = "") -> None:
    """Tab to the control and press Enter (follows a link, presses a button)."""
    tab_to(page, selector, text)
    if wait:
        page.keyboard.press("Enter")
        page.wait_for_selector(wait, timeout=30000)
    else:
        with page.expect_navigation():
            page.keyboard.press("Enter")


def type_into(page, selector: str, value: str) -> None:
    tab_to(page, selector)
    page.keyboard.press("Control+A")
    page.keyboard.type(value)


def sign_in_by_keyboard(page, base: str, username: str, password: str = "pw-Test-12345") -> None:
    """Password, then the second factor's code, both typed with the keyboard alone."""
    from django.contrib.auth.models import User

    from core import otp

    user = User.objects.get(username=username)
    device = totp_device(user) if otp.requires_second_factor(user) else None
    page.context.clear_cookies()
    page.goto(f"{base}/cuentas/login/")
    type_into(page, "#id_username", username)
    type_into(page, "#id_password", password)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    if device is not None and "/cuentas/segundo-factor/" in page.url:
        type_into(page, "#id_code", totp_code(device))
        with page.expect_navigation():
            page.keyboard.press("Enter")


def test_the_skip_link_leads_into_the_content(live_server, page, staff_user):
    sign_in_by_keyboard(page, live_server.url, staff_user.username)
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.classList.contains('skip-link')")
    assert page.locator(".skip-link").is_visible()           # it shows itself when focused
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "contenido"
    page.keyboard.press("Tab")                               # the next stop is in the content, not the menu
    assert page.evaluate("() => !!document.activeElement.closest('main')")
    assert page.locator(".sidebar a[aria-current='page']").inner_text() == "Inicio"


def test_a_cashier_records_a_payment_with_the_keyboard_alone(live_server, page, account, charge, cashier_user):  # noqa: F811
    charge([(date(2025, 7, 1), "250.00")], rule="LAJ-7", lien=True)
    base = live_server.url
    sign_in_by_keyboard(page, base, cashier_user.username)
    page.goto(f"{base}/cobros/cuentas/{account.pk}/pagar/")
    activate(page, "#open-batch")
    page.wait_for_selector("#payment-form")
    tab_to(page, "#id_method")
    page.keyboard.press("Home")                      # the first method, cash, chosen from the keyboard
    type_into(page, "#id_amount", "120.00")
    activate(page, "#payment-form button[type=submit]", "Registrar pago")
    page.wait_for_selector("h1:has-text('Recibo')")
    assert "Pago registrado" in page.inner_text("main")

    from assessments.models import Payment

    payment = Payment.objects.get()
    assert (payment.amount, payment.method) == (Decimal("120.00"), "CASH")


def test_the_roll_cycle_with_the_keyboard_alone(live_server, page, irrigation_figures, staff_user, make_user):  # noqa: F811
    from assessments.rolls.models import Roll, RollOverride

    approver = make_user("beatriz.aprobadora", "approver")
    base = live_server.url
    sign_in_by_keyboard(page, base, staff_user.username)
    page.goto(f"{base}/padrones/")
    activate(page, "button", "Generar padrón", wait="text=Ver el padrón")
    activate(page, "a", "Ver el padrón")
    page.wait_for_selector("h1:has-text('Padrón')")
    activate(page, "table.data a", "Cambiar")
    type_into(page, "#id_new_total", "100.00")
    type_into(page, "#id_reason", "Cabida corregida según mensura de 2026")
    activate(page, "button[type=submit]", "Pedir el cambio")
    page.wait_for_selector("text=Cambios de líneas")

    roll = Roll.objects.get(fiscal_year=2027)
    sign_in_by_keyboard(page, base, approver.username)
    page.goto(f"{base}{roll.get_absolute_url()}")
    activate(page, "button", "Aprobar")
    page.wait_for_selector("text=Aprobado")
    # Certify and finalize each ask first, on a page that says what will happen (issue #17).
    activate(page, "a", "Certificar…")
    activate(page, "button[type=submit]", "Certificar y facturar")
    page.wait_for_selector("text=certificado")
    activate(page, "a", "Finalizar y facturar…")
    activate(page, "button[type=submit]", "Finalizar y constituir los gravámenes")
    page.wait_for_selector(".badge:has-text('Finalizado')")
    roll.refresh_from_db()
    assert roll.status == Roll.Status.FINALIZED
    assert RollOverride.objects.get().status == RollOverride.Status.APPROVED
