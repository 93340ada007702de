"""In the browser, on a small register: figures → generate → review → override approved by a second
person → certify → finalize, and the roll's totals equal `compute` for the same inputs."""
from decimal import Decimal

import pytest

from assessments.compute import run
from assessments.engine_inputs import roll_payload
from assessments.rolls.models import Roll
from tests.conftest import sign_in
from tests.rolls.conftest import IRR_FIGURES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_staff_run_the_whole_roll_cycle(live_server, page, irrigation_register, staff_user, make_user):
    approver = make_user("beatriz.aprobadora", "approver")
    sign_in(page, live_server.url, staff_user.username)
    page.goto(f"{live_server.url}/padrones/cifras/riego-sur/2027/")
    for field, value in IRR_FIGURES.items():
        page.fill(f"#id_{field}", value)
    page.fill("#id_certified_by", "Ing. Carmen Ortiz Vélez, DTOP")
    page.fill("#id_certified_on", "2026-05-15")
    page.click("text=Guardar cifras")
    page.wait_for_selector("text=Cifras certificadas guardadas")

    page.click("text=Generar padrón")
    page.wait_for_selector("text=Ver el padrón", timeout=30000)
    page.click("text=Ver el padrón")
    page.wait_for_selector("h1:has-text('Padrón')")
    roll = Roll.objects.get(district=irrigation_register, fiscal_year=2027)
    expected = run("irrigation-roll", roll_payload(irrigation_register, {"fiscal_year": 2027, **IRR_FIGURES}))
    body = page.inner_text("main")
    assert f"${Decimal(expected['total']):,.2f}" in body
    assert f"${Decimal(expected['appropriation_needed']):,.2f}" in body

    page.click("table.data >> text=Cambiar >> nth=0")
    page.fill("#id_new_total", "100.00")
    page.fill("#id_reason", "Cabida corregida según mensura de 2026")
    page.click("text=Pedir el cambio")
    page.wait_for_selector("text=Cambios de líneas")
    assert page.locator("button:has-text('Aprobar')").count() == 0   # not by the person who asked

    page.context.clear_cookies()
    sign_in(page, live_server.url, approver.username)
    page.goto(f"{live_server.url}{roll.get_absolute_url()}")
    page.click("button:has-text('Aprobar')")
    page.wait_for_selector("text=Aprobado")
    page.click("a.btn:has-text('Certificar…')")          # the confirmation page states what will happen
    page.wait_for_selector("h2:has-text('Quién puede deshacer qué')")
    page.click("button:has-text('Certificar y facturar')")
    page.wait_for_selector("text=certificado")
    page.click("a.btn:has-text('Finalizar y facturar…')")
    page.click("button:has-text('Finalizar y constituir los gravámenes')")
    page.wait_for_selector(".badge:has-text('Finalizado')")
    roll.refresh_from_db()
    assert roll.status == Roll.Status.FINALIZED
    assert Decimal(roll.totals["total"]) == Decimal(expected["total"])
    page.screenshot(path="artifacts/screenshots/roll.png", full_page=True)

    # The aging page of the roll's district (IRR-12 columns: its widest table) never overflows the window:
    # the table scrolls inside its own box.
    page.goto(f"{live_server.url}/padrones/morosidad/?district=riego-sur&as_of=2027-03-01")
    page.wait_for_selector("h2:has-text('Cuentas morosas')")
    assert page.locator(".table-scroll table.data tbody tr").count() > 1
    for width in (1300, 1024):
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), width
