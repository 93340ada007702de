"""FRA-7's debt check and FRA-8's arrears flag, fed by billing."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.apps import apps
from django.contrib.contenttypes.models import ContentType

from assessments.franchise_billing import selectors, services
from assessments.franchise_billing.tasks import franchise_arrears_flags_task
from core.models import Flag
from franchises import selectors as franchise_selectors
from franchises import services as franchise_services
from franchises.models import Franchise

D = date.fromisoformat
pytestmark = pytest.mark.django_db


def arrears(f: Franchise) -> list[Flag]:
    ct = ContentType.objects.get_for_model(Franchise)
    return list(Flag.objects.filter(content_type=ct, object_id=f.pk, kind=Flag.Kind.ARREARS,
                                    resolved_on__isnull=True))


def test_the_provider_is_registered_when_the_app_is_ready(make_franchise):
    franchise_selectors.register_debt_provider(None)
    apps.get_app_config("franchise_billing").ready()
    f = make_franchise()
    assert franchise_selectors._debt_provider is selectors.outstanding_debt
    # never billed: billing cannot vouch for the account, staff verify it (the registry's own path)
    assert franchise_selectors.outstanding_debt(f, D("2026-11-01")) is None


def test_the_debt_is_what_is_unpaid_and_due(make_franchise, pay, holder):
    f = make_franchise(plan="SEMIANNUAL", gallons=2_000_000)  # $50.00 July 1 + $50.00 January 1
    services.franchise_invoice_create(franchise=f, fiscal_year=2027, actor=None, issued_on=D("2026-06-01"))
    debt = franchise_selectors.outstanding_debt
    assert debt(f, D("2026-06-30")) == Decimal("0.00")  # billed in advance, not yet due
    assert debt(f, D("2026-07-01")) == Decimal("50.00")
    pay(holder, "50.00", "2026-07-20")
    assert debt(f, D("2026-12-01")) == Decimal("0.00")
    assert debt(f, D("2027-01-01")) == Decimal("50.00")


def test_a_renewal_is_refused_while_billing_reports_debt(make_franchise, make_user, client):
    f = make_franchise(issue=D("2020-01-15"), expiry=D("2027-03-14"))
    services.franchise_invoice_create(franchise=f, fiscal_year=2027, actor=None, issued_on=D("2026-06-01"))
    app = franchise_services.application_file(actor=None, franchise=f, kind="RENEWAL", received_on=D("2026-11-02"),
                                              requested_expiry_date=D("2029-06-30"),
                                              documents={"RENEWAL_APPLICATION": True})
    client.force_login(make_user("renueva.aprobador", "approver"))
    # the page shows billing's figure, not a field to type in
    page = client.get(f"/franquicias/solicitudes/{app.pk}/decidir/").content.decode()
    assert "deuda según la facturación" in page
    response = client.post(f"/api/v1/franchises/applications/{app.pk}/decide/",
                           {"decided_on": "2026-11-20", "grant": True, "outstanding_debt": "0.00"},
                           content_type="application/json")
    body = response.json()   # billing's figure counts, not the one typed: granting is refused with the debt
    # FY2027 bills July 1 to the expiry on March 14 (257/365 of $100.00, FRA-3): $70.41 owed
    assert response.status_code == 400 and "$70.41" in str(body["grant"])
    response = client.post(f"/api/v1/franchises/applications/{app.pk}/decide/",
                           {"decided_on": "2026-11-20", "grant": False, "outstanding_debt": "0.00",
                            "determination": "Deuda por uso de agua (FRA-7)."}, content_type="application/json")
    body = response.json()
    assert response.status_code == 200
    # FY2027's invoice bills July 1 to the expiry on March 14 (257 of 365 days, FRA-3): 100 × 257/365
    assert (body["status"], body["outstanding_debt"], body["debt_source"]) == ("DENIED", "70.41", "billing")


def test_a_renewal_with_the_account_paid_is_granted(make_franchise, pay, holder):
    f = make_franchise(issue=D("2020-01-15"), expiry=D("2027-03-14"))
    services.franchise_invoice_create(franchise=f, fiscal_year=2027, actor=None, issued_on=D("2026-06-01"))
    pay(holder, "100.00", "2026-07-01")
    app = franchise_services.application_file(actor=None, franchise=f, kind="RENEWAL", received_on=D("2026-11-02"),
                                              requested_expiry_date=D("2029-06-30"),
                                              documents={"RENEWAL_APPLICATION": True})
    debt = franchise_selectors.outstanding_debt(f, D("2026-11-20"))
    decided = franchise_services.application_decide(actor=None, application=app, decided_on=D("2026-11-20"),
                                                    grant=True, outstanding_debt=debt, debt_source="billing")
    assert (debt, decided.status) == (Decimal("0.00"), "GRANTED")


def test_fra8_flag_is_raised_exactly_six_months_after_the_due_date(make_franchise, pay, holder):
    f = make_franchise()
    services.franchise_invoice_create(franchise=f, fiscal_year=2027, actor=None, issued_on=D("2026-06-01"))
    assert selectors.oldest_unpaid_due(on=D("2026-12-31")) == {f.pk: D("2026-07-01")}
    services.franchise_arrears_flags_run(today=D("2026-12-31"))
    assert arrears(f) == []
    result = services.franchise_arrears_flags_run(today=D("2027-01-01"))
    [flag] = arrears(f)
    assert (flag.rule, flag.opened_on, result["raised"]) == ("FRA-8", D("2027-01-01"), 1)
    assert "01/07/2026" in flag.description
    assert services.franchise_arrears_flags_run(today=D("2027-01-01"))["raised"] == 0  # twice: nothing new
    pay(holder, "100.00", "2026-12-01")
    services.franchise_arrears_flags_run(today=D("2027-01-02"))
    assert arrears(f) == []
    assert Flag.objects.get(pk=flag.pk).resolved_on == D("2027-01-02")


def test_fra8_counts_calendar_months_from_a_metered_bill(metered, reading):
    r = reading(metered, "2026-07-01", 1_000_000)
    services.meter_bill_create(reading=r, actor=None, billed_on=D("2026-08-01"))  # due 2026-08-31
    franchise_arrears_flags_task("2027-02-27")
    assert arrears(metered) == []
    franchise_arrears_flags_task("2027-02-28")  # Aug 31 + 6 months = Feb 28
    assert [f.rule for f in arrears(metered)] == ["FRA-8"]
