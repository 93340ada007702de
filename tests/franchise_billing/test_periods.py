"""FRA-3 (Reglamento de Aguas, sec. 8.14 a): no fiscal year billed twice, none billed past its end.

Sec. 8.14 a: the holders "remitirán al Departamento anual o semianualmente por adelantado [...] la
suma correspondiente a la cantidad de agua cuyo aprovechamiento haya sido autorizado". Sec. 8.17:
an amendment changes "el volumen de aprovechamiento autorizado" or "extensión en el período de
vigencia"; sec. 8.18: a renewal that with the earlier franchises exceeds ten years "se seguirá el
trámite correspondiente a una franquicia nueva". FRA-3 as docs/rules/franchises.md reads it: last year pro rata like the
first; a renewal never bills a day already billed to its predecessor; a mid-year amendment of the
volume is billed or credited pro rata from its date. Issued invoices are never edited: each
correction is a new charge with its own ledger entries.
"""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from assessments.franchise_billing import rules, selectors, services
from assessments.franchise_billing.models import FranchiseCharge
from assessments.ledger.receivables import account_for_party
from assessments.models import LedgerEntry
from franchises import services as franchise_services
from franchises.models import Application, Franchise

D = date.fromisoformat
pytestmark = pytest.mark.django_db


def bill(f: Franchise, fy: int = 2027):
    return services.franchise_invoice_create(franchise=f, fiscal_year=fy, actor=None, issued_on=D("2026-06-01"))


def decide(f: Franchise, kind: str, decided_on: str, **requested) -> Application:
    app = franchise_services.application_file(actor=None, franchise=f, kind=kind, received_on=D("2026-11-02"),
                                              fee_paid=True, **requested)
    app = franchise_services.application_review(actor=None, application=app,
                                                 documents=dict.fromkeys(app.required_documents, True), fee_paid=True,
                                                 controversy=False, changes_conditions=False)
    return franchise_services.application_decide(actor=None, application=app, decided_on=D(decided_on), grant=True,
                                                 outstanding_debt=Decimal("0.00") if kind == "RENEWAL" else None)


def snapshot(charge: FranchiseCharge) -> tuple:
    """What an issued invoice is: its amount, installments and ledger entries."""
    rec = charge.receivable
    rec.refresh_from_db()
    return (rec.amount, [(i.due_date, i.amount) for i in rec.installments.order_by("seq")],
            list(LedgerEntry.objects.filter(receivable=rec, kind="CHARGE").values_list("amount", flat=True)))


def assert_no_day_billed_twice(f: Franchise) -> None:
    by_year: dict[int, list[tuple[date, date]]] = {}
    for c in selectors.chain_invoices(f):
        if selectors.bills_days(c):
            by_year.setdefault(c.fiscal_year, []).append((c.period_start, c.period_end))
    for periods in by_year.values():
        periods.sort()
        for (_, end), (start, _) in zip(periods, periods[1:], strict=False):
            assert start > end, periods


def test_the_last_year_of_an_authorization_ending_mid_year_is_billed_pro_rata(make_franchise):
    """Nothing is authorized after the expiry: FY2027 bills July 1 to March 14 (257/365 days)."""
    f = make_franchise(expiry=D("2027-03-14"))  # DOMESTIC, 2 MG: $100.00 a year
    charge = bill(f).charge
    assert (charge.period_start, charge.period_end, charge.amount) == (D("2026-07-01"), D("2027-03-14"),
                                                                        Decimal("70.41"))
    assert charge.prorated and charge.days == 257
    b = charge.receivable.breakdown
    assert b["period"] == {"start": "2026-07-01", "end": "2027-03-14", "days": 257, "days_in_year": 365,
                           "rule": "FRA-3"}
    assert "último año, hasta el vencimiento" in b["prorated"]["text"]
    assert "01/07/2026–14/03/2027" in charge.receivable.description
    assert bill(f, 2028).reason == rules.EXPIRED


def test_a_renewal_as_a_new_franchise_bills_from_the_day_after_its_predecessor(make_franchise, pay, holder):
    """Sec. 8.18: over ten years the renewal is a new franchise; its first invoice starts the day
    after the last day billed to the one it renews, and the two add up to the year."""
    old = make_franchise(issue=D("2017-03-15"), expiry=D("2027-03-14"))
    assert bill(old).charge.amount == Decimal("70.41")
    app = decide(old, "RENEWAL", "2026-11-20", requested_expiry_date=D("2030-06-30"))
    assert app.status == Application.Status.PROCESSED_AS_NEW
    new = app.resulting_franchise
    assert new.predecessor == old and new.issue_date == D("2027-03-15")
    charge = bill(new).charge
    assert (charge.period_start, charge.period_end, charge.amount) == (D("2027-03-15"), D("2027-06-30"),
                                                                        Decimal("29.59"))
    assert "primer año, desde la expedición" in charge.receivable.breakdown["prorated"]["text"]
    assert bill(new, 2028).charge.amount == Decimal("100.00")
    assert_no_day_billed_twice(new)


def test_a_successor_never_bills_days_its_predecessor_billed(make_franchise):
    """A successor registered with an issue date inside days already billed to its predecessor
    starts billing after them; whichever is billed first keeps its days."""
    old = make_franchise(issue=D("2020-01-15"), expiry=D("2027-03-14"))
    bill(old)
    new = make_franchise(issue=D("2027-01-01"), expiry=D("2030-12-31"), predecessor=old)
    charge = bill(new).charge
    assert (charge.period_start, charge.period_end) == (D("2027-03-15"), D("2027-06-30"))
    assert "siguiente al último facturado" in charge.receivable.breakdown["prorated"]["text"]
    assert_no_day_billed_twice(old)

    first = make_franchise(issue=D("2020-01-15"), expiry=D("2027-06-30"))
    second = make_franchise(issue=D("2026-07-01"), expiry=D("2030-06-30"), predecessor=first)
    assert bill(second).charge.amount == Decimal("100.00")  # the successor billed the whole year first
    outcome = bill(first)
    assert (outcome.status, outcome.reason) == (services.SKIPPED, rules.BILLED_IN_CHAIN)
    assert_no_day_billed_twice(first)


def test_a_renewal_granted_in_place_bills_the_rest_of_the_year_as_a_supplementary_invoice(make_franchise):
    f = make_franchise(issue=D("2020-01-15"), expiry=D("2027-03-14"))
    invoice = bill(f).charge
    before = snapshot(invoice)
    app = decide(f, "RENEWAL", "2026-11-20", requested_expiry_date=D("2029-06-30"))
    assert app.status == Application.Status.GRANTED
    sup = FranchiseCharge.objects.get(franchise=f, kind="SUPPLEMENT")
    assert (sup.cause, sup.period_start, sup.period_end, sup.amount) == (
        "TERM_EXTENDED", D("2027-03-15"), D("2027-06-30"), Decimal("29.59"))
    assert sup.adjusts == invoice and sup.application == app
    assert [(i.due_date, i.amount) for i in sup.receivable.installments.all()] == [(D("2026-11-20"),
                                                                                    Decimal("29.59"))]
    assert invoice.amount + sup.amount == Decimal("100.00")
    assert snapshot(invoice) == before  # the issued invoice is not edited
    assert app.applied_changes["billing"] == [{"kind": "SUPPLEMENT", "fiscal_year": 2027, "cause": "TERM_EXTENDED",
                                               "amount": "29.59"}]
    assert_no_day_billed_twice(f)
    assert FranchiseCharge.objects.filter(franchise=f, fiscal_year=2027).count() == 2


def test_an_amendment_raising_the_volume_mid_year_is_a_supplementary_invoice(make_franchise):
    f = make_franchise()  # 2 MG: $100.00; FY2027 billed whole
    invoice = bill(f).charge
    before = snapshot(invoice)
    decide(f, "AMENDMENT", "2026-12-01", requested_gallons=5_000_000)  # $250.00 a year from Dec 1
    sup = FranchiseCharge.objects.get(franchise=f, kind="SUPPLEMENT")
    assert (sup.cause, sup.period_start, sup.period_end, sup.amount) == (
        "VOLUME", D("2026-12-01"), D("2027-06-30"), Decimal("87.12"))  # 150 × 212/365
    assert sup.receivable.breakdown["annual_before"] == "100.00" and sup.receivable.breakdown["annual_after"] == \
        "250.00"
    assert snapshot(invoice) == before
    assert bill(f, 2028).charge.amount == Decimal("250.00")


def test_an_amendment_lowering_the_volume_mid_year_is_a_credit_applied_to_what_is_open(make_franchise, holder):
    f = make_franchise(gallons=5_000_000)  # $250.00
    invoice = bill(f).charge
    before = snapshot(invoice)
    decide(f, "AMENDMENT", "2026-12-01", requested_gallons=2_000_000)
    credit = FranchiseCharge.objects.get(franchise=f, kind="CREDIT")
    assert (credit.cause, credit.amount, credit.receivable) == ("VOLUME", Decimal("-87.12"), None)
    entry = credit.credit_entry
    assert (entry.kind, entry.component, entry.amount, entry.rule) == ("CREDIT", "CREDIT", Decimal("-87.12"),
                                                                       "FRA-3")
    assert snapshot(invoice) == before  # a new entry, not an edit
    assert selectors.open_amounts([invoice.receivable_id])[invoice.receivable_id] == Decimal("162.88")
    assert account_for_party(holder).balance == Decimal("162.88")


def test_an_amendment_shortening_the_term_credits_the_days_billed_past_the_new_expiry(make_franchise):
    f = make_franchise()
    bill(f)
    decide(f, "AMENDMENT", "2026-12-01", requested_expiry_date=D("2027-03-14"))
    credit = FranchiseCharge.objects.get(franchise=f, kind="CREDIT")
    assert (credit.cause, credit.period_start, credit.period_end, credit.amount) == (
        "TERM_SHORTENED", D("2027-03-15"), D("2027-06-30"), Decimal("-29.59"))
    assert selectors.billed_periods([f.pk], 2027) == {f.pk: [(D("2026-07-01"), D("2027-03-14"))]}


def test_deciding_changes_nothing_for_years_not_invoiced_nor_for_metered_or_exempt(make_franchise, metered):
    f = make_franchise()
    decide(f, "AMENDMENT", "2026-12-01", requested_gallons=5_000_000)
    assert not FranchiseCharge.objects.filter(franchise=f).exists()
    decide(metered, "AMENDMENT", "2026-12-01", requested_gallons=40_000_000)
    assert not FranchiseCharge.objects.filter(franchise=metered).exists()


def test_the_invoices_api_gives_each_period_and_amount_and_no_day_is_billed_twice_on_the_chain(
        postgres_only, make_franchise, make_user, client):
    """GET /api/v1/franchises/{id}/invoices/: period_start, period_end, amount; along a franchise
    and its renewals the invoices that bill days never overlap (PostgreSQL)."""
    f = make_franchise(issue=D("2017-03-15"), expiry=D("2027-03-14"))
    bill(f)
    new = decide(f, "RENEWAL", "2026-11-20", requested_expiry_date=D("2030-06-30")).resulting_franchise
    bill(new)
    bill(new, 2028)
    decide(new, "AMENDMENT", "2027-01-15", requested_gallons=5_000_000)  # a supplement on both years
    client.force_login(make_user("lee.auditor", "auditor"))
    response = client.get(f"/api/v1/franchises/{new.pk}/invoices/?chain=true")
    assert response.status_code == 200
    rows = response.json()["results"] if isinstance(response.json(), dict) else response.json()
    got = sorted((r["franchise"], r["kind"], r["cause"], r["period_start"], r["period_end"], r["amount"],
                  r["bills_days"]) for r in rows)
    assert got == sorted([
        (f.number, "TARIFF", "", "2026-07-01", "2027-03-14", "70.41", True),
        (new.number, "TARIFF", "", "2027-03-15", "2027-06-30", "29.59", True),
        (new.number, "SUPPLEMENT", "VOLUME", "2027-03-15", "2027-06-30", "44.38", False),  # 150 × 108/365
        (new.number, "TARIFF", "", "2027-07-01", "2028-06-30", "100.00", True),
        (new.number, "SUPPLEMENT", "VOLUME", "2027-07-01", "2028-06-30", "150.00", False),
    ])
    billing = sorted((r["period_start"], r["period_end"]) for r in rows if r["bills_days"])
    for (_, end), (start, _) in zip(billing, billing[1:], strict=False):
        assert start > end
    own = client.get(f"/api/v1/franchises/{f.pk}/invoices/").json()
    own = own["results"] if isinstance(own, dict) else own
    assert [(r["period_start"], r["period_end"], r["amount"]) for r in own] == [("2026-07-01", "2027-03-14",
                                                                                 "70.41")]
    assert client.get("/api/v1/franchises/999999/invoices/").status_code == 404


def test_the_franchise_page_shows_each_invoice_period_and_the_corrections(make_franchise, staff_user, client):
    f = make_franchise(issue=D("2020-01-15"), expiry=D("2027-03-14"))
    bill(f)
    decide(f, "RENEWAL", "2026-11-20", requested_expiry_date=D("2029-06-30"))
    client.force_login(staff_user)
    page = client.get(f"/facturacion-franquicias/franquicia/{f.pk}/").content.decode()
    assert "Período facturado (FRA-3)" in page
    assert "01/07/2026 – 14/03/2027" in page and "257 días" in page
    assert "Facturas suplementarias y créditos" in page
    assert "15/03/2027 – 30/06/2027" in page and "108 días" in page and "$29.59" in page
    card = client.get(f"/franquicias/{f.pk}/").content.decode()
    assert "01/07/2026–14/03/2027 (FRA-3)" in card and "Suplementaria FY2027" in card


def test_the_invoice_pdf_names_the_period_billed(make_franchise, staff_user):
    from assessments.notices import services as notice_services
    from tests.notices.conftest import pdf_text

    charge = bill(make_franchise(expiry=D("2027-03-14"))).charge
    text = pdf_text(notice_services.notice_issue(receivable=charge.receivable, actor=staff_user).document)
    assert "Período facturado 01/07/2026 – 14/03/2027 (257 de 365 días, FRA-3)" in text
    assert "Tarifa del 01/07/2026 al 14/03/2027" in text and "semestre" not in text


def test_invoices_issued_before_periods_were_checked_are_credited_for_days_past_the_expiry(make_franchise):
    """Sec. 8.14 a bills "la cantidad de agua cuyo aprovechamiento haya sido autorizado": a whole-year
    invoice of a franchise that expires mid-year (billed before this rule) is credited for the days
    after the expiry, as a new entry; the command lists them first and posts them with --apply."""
    from io import StringIO

    from django.core.management import call_command

    f = make_franchise()
    invoice = bill(f).charge
    before = snapshot(invoice)
    Franchise.objects.filter(pk=f.pk).update(expiry_date=D("2027-03-14"))  # the record as it was billed
    out = StringIO()
    call_command("franchise_overbilling_credits", stdout=out)
    assert "1 credits, -29.59 would be credited" in out.getvalue()
    assert not FranchiseCharge.objects.filter(kind="CREDIT").exists()
    call_command("franchise_overbilling_credits", "--apply", stdout=StringIO())
    credit = FranchiseCharge.objects.get(kind="CREDIT")
    assert (credit.cause, credit.period_start, credit.period_end, credit.amount, credit.adjusts) == (
        "TERM_SHORTENED", D("2027-03-15"), D("2027-06-30"), Decimal("-29.59"), invoice)
    assert snapshot(invoice) == before
    assert services.franchise_overbilling_credits(franchise=f, actor=None) == []  # nothing left
