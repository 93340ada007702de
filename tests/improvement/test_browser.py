"""In a real browser: staff walk a TID from the mayor's petition to an approved, published ordinance,
watching the formula's live preview (each parcel's charge and the total against the expected amount),
then record the collector (the authorized association, TID-3) and its receipt of the ordinance (TID-4),
and bill the ordinance's first fiscal year: one charge per parcel, as the formula previewed."""
import os
from decimal import Decimal

import pytest

from assessments.improvement_billing.models import BillingRun
from assessments.models import Receivable
from assessments.notices.models import Notice
from districts.improvement.models import TidNoticeRound, TidOrdinance, TidPetition
from tests.conftest import sign_in
from tests.improvement.conftest import FORMULA

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
SHOTS = os.environ.get("SHOTS_DIR", "/tmp")


def submit(page, form_selector):
    with page.expect_navigation():
        page.click(f"{form_selector} button[type=submit]:not([name=preview])")


def test_staff_walk_a_tid_to_its_first_charges(live_server, page, staff_user, approver_user, tid_district,
                                              association):
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

    # TID-3: the ordinance authorizes the association to collect; the municipality sends CRIM a copy.
    page.select_option("#collector-form select[name=collector]", "ASSOCIATION")
    page.select_option("#collector-form select[name=association]", label=str(association))
    page.fill("#collector-form input[name=copy_sent_to_crim_on]", "2026-06-23")
    submit(page, "#collector-form")
    assert "Asociación de Prueba, Inc." in page.inner_text("#collector")
    assert "23/06/2026" in page.inner_text("#cobrador")
    # TID-4: the association receives it; certified-mail notices to every owner within 30 days.
    page.fill("#association-receipt-form input[name=received_on]", "2026-06-24")
    submit(page, "#association-receipt-form")
    assert "24/07/2026" in page.inner_text("#tid-notices-table tbody tr >> nth=0")
    assert page.locator("#tid-notices-table tbody tr").count() == 5  # one round a year of the term
    page.screenshot(path=f"{SHOTS}/improvement_tid_collector.png", full_page=True)

    # The first charges: FY2027, the ordinance's first fiscal year, issued on a fixed date. Billing is the
    # approver's (docs/security/roles.md): the staff member signs out, the approver signs in.
    page.context.clear_cookies()
    sign_in(page, live_server.url, approver_user.username)
    page.click("nav >> text=Facturación de mejoramiento")
    page.wait_for_selector("h1:has-text('Facturación de distritos de mejoramiento')")
    page.click("text=Distrito Turístico de Prueba")
    page.wait_for_selector("h1:has-text('Distrito Turístico de Prueba')")
    page.fill("input[name=fiscal_year]", "2027")
    page.fill("input[name=issued_on]", "2026-07-15")
    with page.expect_navigation():
        page.click("form.stacked button[type=submit]:has-text('Facturar año')")
    page.wait_for_selector("h1:has-text('FY2027')")
    assert "FY2027: 3 cargos nuevos por $3,400.00." in page.inner_text("body")
    assert "$3,400.00" in page.inner_text(".grid-4")
    rows = page.locator("table.data").first.locator("tbody tr")
    assert rows.count() == 3
    texts = [rows.nth(i).inner_text() for i in range(3)]
    for text, cadastre, amount in zip(texts, ["200-300-400-01", "200-300-400-02", "200-300-400-03"],
                                      ["$3,000.00", "$250.00", "$150.00"], strict=True):
        assert cadastre in text and amount in text
        assert "Asociación de Prueba, Inc." in text                      # TID-3: the association collects
        assert "Correo certificado con acuse de recibo" in text          # TID-4
    # July 1 was past when billed: it moves to the billing date + 30 days; January 1 stays.
    assert "14/08/2026 · $1,500.00" in texts[0] and "01/01/2027 · $1,500.00" in texts[0]
    page.screenshot(path=f"{SHOTS}/improvement_tid_first_charges.png", full_page=True)

    run = BillingRun.objects.get(district=tid_district, fiscal_year=2027)
    assert (run.status, run.charges_count, run.charges_total) == ("BILLED", 3, Decimal("3400.00"))
    receivables = Receivable.objects.filter(source_type=run.source_type).order_by("account__parcel__cadastre")
    assert [r.amount for r in receivables] == [Decimal("3000.00"), Decimal("250.00"), Decimal("150.00")]
    assert {r.office.name for r in receivables} == {"Asociación de Prueba, Inc."}
    notices = Notice.objects.filter(source_type=run.source_type).exclude(status=Notice.Status.REPLACED)
    assert sorted(n.receivable_id for n in notices) == sorted(r.pk for r in receivables)  # a notice per charge
    assert set(notices.values_list("method", "program")) == {("CERTIFIED_RR", "TID")}
    first_round = TidNoticeRound.objects.get(ordinance=ordinance, sequence=1)
    assert all(r.breakdown["notice_round"] == {"kind": "TID", "id": first_round.pk} for r in receivables)
