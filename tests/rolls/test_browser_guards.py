"""In a real browser (issue #17), doing what the clerk did:

- "Finalizar y facturar" on next year's roll in December: the confirmation page says it cannot be done
  before July 1 and offers no button; no lien is constituted;
- certifying: the confirmation page states lines, total, notices and who can undo, and then certifies;
- a certification refused for a pending line change: said at once; the old failure card goes away once
  the change is decided;
- "Generar padrón" is not offered on a certified roll; the page of a job that could not run does not wait.

"Today" is fixed at 2026-12-06 in the server (the live server runs in this process).
"""
from datetime import date

import pytest
from django.utils import timezone

from assessments.rolls import services
from assessments.rolls.models import Roll, RollJob
from assessments.rolls.tasks import roll_certify_task, roll_generate_task
from liens.models import Lien
from tests.conftest import sign_in
from tests.rolls.conftest import IRR_FIGURES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

TODAY = date(2026, 12, 6)


@pytest.fixture(autouse=True)
def today(monkeypatch):
    monkeypatch.setattr(timezone, "localdate", lambda *args, **kwargs: TODAY)


@pytest.fixture
def approver(make_user):
    return make_user("beatriz.aprobadora", "approver")


def test_next_years_roll_is_not_finalized_in_december(live_server, page, irrigation_register, staff_user,
                                                      approver):
    from districts.models import WaterDelivery

    for d in WaterDelivery.objects.filter(fiscal_year=2026):
        WaterDelivery.objects.create(parcel=d.parcel, fiscal_year=2027, semester=d.semester, af_per_acre=d.af_per_acre)
    services.figures_save(district=irrigation_register, fiscal_year=2028, figures=IRR_FIGURES,
                          certified_by="Ing. Carmen Ortiz Vélez, DTOP", certified_on=date(2026, 11, 15),
                          actor=staff_user)
    roll = services.roll_generate(district_code="riego-sur", fiscal_year=2028, actor=staff_user).roll

    sign_in(page, live_server.url, approver.username)
    page.goto(f"{live_server.url}{roll.get_absolute_url()}")
    page.click("a.btn:has-text('Certificar…')")
    page.wait_for_selector("h1:has-text('Certificar el padrón')")
    body = page.inner_text("main")
    assert "Qué pasará" in body and "avisos de cobro" in body and "01/07/2027" in body
    assert "Una vez certificado, las líneas no se pueden modificar" in body and "Aprobador" in body
    page.screenshot(path="/tmp/guard-certify-confirm.png", full_page=True)
    page.click("button:has-text('Certificar y facturar')")
    page.wait_for_selector(".badge:has-text('Certificado')", timeout=30000)

    page.click("a.btn:has-text('Finalizar y facturar…')")
    page.wait_for_selector("h1:has-text('Finalizar el padrón')")
    refusal = page.inner_text("#refusals")
    assert "se finaliza a partir del 01/07/2027" in refusal and "06/12/2026" in refusal
    assert "fechados el 01/07/2027" in page.inner_text("#what-happens")   # the first date they can bear
    assert page.locator("#confirm-form").count() == 0      # nothing to press
    assert "nadie puede deshacer la finalización" in page.inner_text("#who-can-undo")
    page.screenshot(path="/tmp/guard-finalize-refused.png", full_page=True)
    roll.refresh_from_db()
    assert roll.status == Roll.Status.CERTIFIED and not Lien.objects.exists()
    assert not RollJob.objects.filter(operation="finalize").exists()


def test_a_pending_change_stops_certification_at_once_and_its_failure_card_goes_away(
        live_server, page, irrigation_figures, staff_user, approver):
    roll = services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll
    line = roll.lines.filter(total__gt=0).order_by("cadastre").first()
    services.override_request(line=line, new_total=line.total + 1, reason="Cabida corregida", actor=staff_user)
    # What the clerk saw before: a job queued with the change pending, failed ("Falló · 0 / 0").
    old = RollJob.objects.create(district=roll.district, fiscal_year=2027, operation="certify", requested_by=approver)
    assert roll_certify_task.delay(old.pk).get() == "failed"

    sign_in(page, live_server.url, approver.username)
    page.goto(f"{live_server.url}{roll.get_absolute_url()}")
    card = page.locator(f"#job-{old.pk}")
    assert "Falló" in card.inner_text() and "pendientes de aprobación" in card.inner_text()
    page.click("a.btn:has-text('Certificar…')")
    page.wait_for_selector("#refusals")
    assert "pendientes de aprobación" in page.inner_text("#refusals")
    assert page.locator("#confirm-form").count() == 0
    page.screenshot(path="/tmp/guard-certify-refused.png", full_page=True)

    page.click("a.btn:has-text('Volver al padrón')")
    page.click("button:has-text('Aprobar')")
    page.wait_for_selector("text=Aprobado")
    assert page.locator(f"#job-{old.pk}").count() == 0      # its cause is fixed: the failure card is gone
    page.screenshot(path="/tmp/guard-card-gone.png", full_page=True)
    page.click("a.btn:has-text('Certificar…')")
    page.click("button:has-text('Certificar y facturar')")
    page.wait_for_selector(".badge:has-text('Certificado')", timeout=30000)
    roll.refresh_from_db()
    assert roll.status == Roll.Status.CERTIFIED


def test_generate_is_not_offered_on_a_certified_roll_and_an_ended_job_is_not_waited_on(
        live_server, page, irrigation_figures, staff_user, approver):
    roll = services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll
    services.roll_certify(roll=roll, actor=approver)
    # A job queued before the roll was certified (another tab): it ends at once, saying why.
    job = RollJob.objects.create(district=roll.district, fiscal_year=2027, requested_by=staff_user)
    roll_generate_task.delay(job.pk).get()

    sign_in(page, live_server.url, staff_user.username)
    page.goto(f"{live_server.url}/padrones/")
    page.wait_for_selector("h2:has-text('Cifras certificadas')")
    assert page.locator("button:has-text('Generar padrón')").count() == 0
    assert "no se vuelve a generar" in page.inner_text("main")
    page.screenshot(path="/tmp/guard-list.png", full_page=True)

    page.goto(f"{live_server.url}/padrones/trabajos/{job.pk}/")
    assert page.inner_text("#status") == "Falló"
    assert "ya está certificado: no se vuelve a generar" in page.inner_text("#message")
    assert page.get_attribute("#job", "data-running") == ""    # the page does not poll an ended job
    page.screenshot(path="/tmp/guard-job-refused.png", full_page=True)
