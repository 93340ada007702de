"""Staff pages and API of franchise billing; owners and anonymous visitors are refused everywhere."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from assessments.franchise_billing import services
from assessments.franchise_billing.models import AaaTransfer, FranchiseCharge, InvoiceRun
from assessments.models import Receivable
from franchises.models import MeterReading

D = date.fromisoformat
pytestmark = pytest.mark.django_db


@pytest.fixture
def billed(make_franchise, metered, reading):
    f = make_franchise(plan="SEMIANNUAL")
    services.franchise_invoice_create(franchise=f, fiscal_year=2027, actor=None, issued_on=D("2026-06-01"))
    reading(metered, "2026-09-01", 75)
    return f


def urls(f) -> list[str]:
    return [reverse("franchise_billing:run"), reverse("franchise_billing:franchise", args=[f.pk]),
            reverse("franchise_billing:import"), reverse("franchise_billing:transfers"),
            reverse("franchise_billing:transfers") + "?period=2026-10&format=csv"]


API_LIST = "/api/v1/franchise-billing/franchises/{pk}/invoices/"
API_RUN = "/api/v1/franchise-billing/runs/"


def test_anonymous_visitors_and_owners_are_refused(client, owner_user, billed):
    before = (Receivable.objects.count(), InvoiceRun.objects.count())
    for url in urls(billed):
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith(reverse("login")), url
        assert client.post(url, {"fiscal_year": 2027}).status_code == 302
    assert client.get(API_LIST.format(pk=billed.pk)).status_code == 403
    assert client.post(API_RUN, {"fiscal_year": 2027}).status_code == 403
    client.force_login(owner_user)
    for url in urls(billed):
        response = client.get(url)
        assert response.status_code == 302 and response.url == reverse("portal:home"), url
        assert client.post(url, {"fiscal_year": 2027}).status_code == 302
    assert client.get(API_LIST.format(pk=billed.pk)).status_code == 403
    assert client.post(API_RUN, {"fiscal_year": 2027}, content_type="application/json").status_code == 403
    assert (Receivable.objects.count(), InvoiceRun.objects.count()) == before


def test_the_auditor_reads_but_does_not_run(client, auditor_user, billed):
    client.force_login(auditor_user)
    for url in urls(billed):
        assert client.get(url).status_code == 200, url
    assert client.post(reverse("franchise_billing:run"), {"fiscal_year": 2027}).status_code == 403
    assert client.post(API_RUN, {"fiscal_year": 2027}, content_type="application/json").status_code == 403
    assert client.get(API_LIST.format(pk=billed.pk)).status_code == 200


def test_staff_run_the_year_from_the_page_and_read_the_report(approver_client, make_franchise):
    make_franchise(number="DRNA-FE-2020-0101", plan="SEMIANNUAL")
    make_franchise(number="DRNA-FE-2020-0102", exemption="RAINWATER", exemption_basis="Cisterna de lluvia.")
    response = approver_client.post(reverse("franchise_billing:run"), {"fiscal_year": 2027, "issued_on": "2026-06-01"},
                                 follow=True)
    body = response.content.decode()
    assert response.status_code == 200
    assert "FY2027: 1 facturas nuevas por $100.00." in body
    assert "DRNA-FE-2020-0101" in body and "Agua de lluvia" in body and "$50.00" in body
    assert "RAINWATER" not in body                                   # words, not codes (issue #17)
    run = InvoiceRun.objects.get()
    assert (run.created_count, run.trigger, run.run_by.username) == (1, "PAGE", "alba.aprobadora")
    again = approver_client.post(reverse("franchise_billing:run"), {"fiscal_year": 2027}, follow=True)
    assert "FY2027: 0 facturas nuevas" in again.content.decode()
    assert FranchiseCharge.objects.count() == 1


def test_the_franchise_page_lists_invoices_and_bills_pending_readings(approver_client, billed, metered):
    page = approver_client.get(reverse("franchise_billing:franchise", args=[billed.pk])).content.decode()
    assert "FY2027" in page and "01/07/2026" in page and "01/01/2027" in page
    url = reverse("franchise_billing:franchise", args=[metered.pk])
    assert "Facturar 1 lectura pendiente" in approver_client.get(url).content.decode()
    response = approver_client.post(url, {"billed_on": "2026-10-01"}, follow=True)
    assert "1 facturas por contador por $0.15" in response.content.decode()
    assert FranchiseCharge.objects.get(franchise=metered).receivable.amount == Decimal("0.15")


def test_the_franchise_page_of_the_registry_shows_the_invoices_card(staff_client, billed):
    page = staff_client.get(reverse("franchises:detail", args=[billed.pk])).content.decode()
    assert 'id="facturas"' in page and "Tarifa FY2027" in page
    assert reverse("franchise_billing:franchise", args=[billed.pk]) in page
    assert "Facturación de franquicias" in staff_client.get(reverse("home")).content.decode()  # navigation


def test_import_page_refuses_a_bad_file_whole_and_takes_a_good_one(staff_client, metered):
    bad = SimpleUploadedFile("malo.csv", b"franchise_number,month,gallons\nDRNA-FE-2019-0042,2026-09,10\n"
                                         b"DRNA-FE-2019-0042,sept,10\n")
    response = staff_client.post(reverse("franchise_billing:import"), {"file": bad, "billed_on": "2026-10-05"})
    body = response.content.decode()
    assert response.status_code == 200 and "no se registró nada" in body and "sept" in body
    assert not MeterReading.objects.exists()
    good = SimpleUploadedFile("bueno.csv", b"franchise_number,month,gallons\nDRNA-FE-2019-0042,2026-09,75\n")
    response = staff_client.post(reverse("franchise_billing:import"), {"file": good, "billed_on": "2026-10-05"},
                                 follow=True)
    assert "bueno.csv: 1 lecturas, 1 facturas nuevas por $0.15." in response.content.decode()


def test_transfers_page_reports_and_records(cashier_client, billed, metered, pay, holder):
    services.meter_bills_create(franchise=metered, actor=None, billed_on=D("2026-10-01"))
    pay(holder, "50.00", "2026-10-02")  # the semiannual first half (due July 1) first
    for day in ("2026-10-05", "2026-10-12", "2026-10-20"):
        pay(holder, "0.05", day)
    url = reverse("franchise_billing:transfers")
    page = cashier_client.get(url, {"kind": "MONTH", "month": "2026-10"}).content.decode()
    assert "$0.15" in page and "$0.14" in page and "$50.00" in page
    csv_text = cashier_client.get(url, {"period": "2026-10", "format": "csv"}).content.decode()
    assert "2026-10,2026-10-01,2026-10-31,GROUND_INDUSTRIAL,0.15,0.14,0.01" in csv_text
    assert "2026-10,2026-10-01,2026-10-31,DOMESTIC,50.00,0.00,50.00" in csv_text
    response = cashier_client.post(url, {"period": "2026-10", "transferred_on": "2026-11-05", "reference": "ACH-9"},
                                 follow=True)
    assert "Transferencia a la AAA de 2026-10 registrada: $0.14." in response.content.decode()
    t = AaaTransfer.objects.get()
    assert (t.transferred, t.retained, t.recorded_by.username) == (Decimal("0.14"), Decimal("0.01"), "carlos.cajero")
    again = cashier_client.post(url, {"period": "FY2027-Q2", "transferred_on": "2026-11-05"}, follow=True)
    assert "Ya hay una transferencia" in again.content.decode() and AaaTransfer.objects.count() == 1
    quarter = cashier_client.get(url, {"kind": "QUARTER", "fiscal_year": 2027, "quarter": 2}).content.decode()
    assert "FY2027-Q2" in quarter


def test_api_lists_a_franchises_invoices_and_runs_the_year(approver_client, billed, make_franchise):
    body = approver_client.get(API_LIST.format(pk=billed.pk)).json()
    [inv] = body["results"]
    assert (inv["kind"], inv["fiscal_year"], inv["amount"], inv["open_amount"], inv["tariff_class"]) == (
        "TARIFF", 2027, "100.00", "100.00", "DOMESTIC")
    assert inv["installments"] == [{"seq": 1, "due_date": "2026-07-01", "amount": "50.00"},
                                   {"seq": 2, "due_date": "2027-01-01", "amount": "50.00"}]
    assert inv["breakdown"]["rules"] == ["FRA-1", "FRA-3"]
    assert approver_client.get(API_LIST.format(pk=billed.pk) + "?kind=METERED").json()["results"] == []
    assert approver_client.get(API_LIST.format(pk=999999)).status_code == 404
    make_franchise(number="DRNA-FE-2020-0200", gallons=3_000_000)
    response = approver_client.post(API_RUN, {"fiscal_year": 2027, "issued_on": "2026-06-01"},
                                 content_type="application/json")
    assert response.status_code == 201
    out = response.json()
    assert (out["created_count"], out["created_total"], out["trigger"]) == (1, "150.00", "API")
    assert [c["number"] for c in out["report"]["created"]] == ["DRNA-FE-2020-0200"]
    bad = approver_client.post(API_RUN, {"fiscal_year": 2040}, content_type="application/json")
    assert bad.status_code == 400 and "fiscal_year" in bad.json()
