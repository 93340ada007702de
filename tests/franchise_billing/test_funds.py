"""FRA-4 (sec. 8.15): collections by tariff class; 90 % of GROUND_INDUSTRIAL to the AAA, rounded
half-up once on the period's total; transfers recorded once per period; the CSV export."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from assessments.franchise_billing import rules, selectors, services
from assessments.franchise_billing.models import AaaTransfer
from assessments.franchise_billing.views import fra4_csv
from assessments.ledger.payments import payment_return
from core.money import round_half_up

D = date.fromisoformat
pytestmark = pytest.mark.django_db


def row(report, code):
    return next(r for r in report.rows if r.tariff_class == code)


@pytest.fixture
def small_bill(metered, reading):
    """A $0.15 metered bill (75 gallons × $0.002), billed October 1, 2026."""
    r = reading(metered, "2026-09-01", 75)
    return services.meter_bill_create(reading=r, actor=None, billed_on=D("2026-10-01"))


def test_the_aaa_share_is_rounded_once_on_the_period_total(small_bill, pay, holder):
    for day in ("2026-10-05", "2026-10-12", "2026-10-20"):
        pay(holder, "0.05", day)
    report = selectors.fra4_report(rules.period_from_label("2026-10"))
    gi = row(report, "GROUND_INDUSTRIAL")
    assert (gi.collected, gi.transferred, gi.retained) == (Decimal("0.15"), Decimal("0.14"), Decimal("0.01"))
    # rounding each payment's 90 % would have sent 0.15: round_half_up(0.045) = 0.05, three times
    assert sum(round_half_up(Decimal("0.05") * 90 / 100) for _ in range(3)) == Decimal("0.15")
    assert (report.collected, report.transferred, report.retained) == (Decimal("0.15"), Decimal("0.14"),
                                                                       Decimal("0.01"))
    assert report.parameters == "fra_tariffs@reglamento-aguas-1" and report.transfer_pct == Decimal("90")
    # each month alone: only its own payments
    assert row(selectors.fra4_report(rules.period_from_label("2026-09")), "GROUND_INDUSTRIAL").collected == 0


def test_collections_are_classified_by_tariff_class(small_bill, make_franchise, pay, holder):
    domestic = make_franchise(gallons=2_000_000)  # $100.00 due 2026-07-01, same holder's account
    services.franchise_invoice_create(franchise=domestic, fiscal_year=2027, actor=None, issued_on=D("2026-06-01"))
    pay(holder, "100.00", "2026-08-10")   # oldest due first: the tariff invoice (due July 1)
    pay(holder, "0.15", "2026-11-02")     # then the metered bill (due October 31)
    q1 = selectors.fra4_report(rules.period_from_label("FY2027-Q1"))
    assert (row(q1, "DOMESTIC").collected, row(q1, "DOMESTIC").transferred, row(q1, "DOMESTIC").retained) == (
        Decimal("100.00"), Decimal("0.00"), Decimal("100.00"))
    assert row(q1, "GROUND_INDUSTRIAL").collected == 0
    q2 = selectors.fra4_report(rules.period_from_label("FY2027-Q2"))
    assert (row(q2, "GROUND_INDUSTRIAL").transferred, row(q2, "DOMESTIC").collected) == (Decimal("0.14"),
                                                                                          Decimal("0.00"))
    fy = selectors.fra4_report(rules.period_from_label("FY2027"))
    assert (fy.collected, fy.transferred, fy.retained) == (Decimal("100.15"), Decimal("0.14"), Decimal("100.01"))
    assert [r.tariff_class for r in fy.rows] == ["GROUND_INDUSTRIAL", "BRACKISH", "DOMESTIC", "INSTITUTIONAL",
                                                 "GOVERNMENTAL", "RECREATIONAL", "SURFACE_INDUSTRIAL", "ARTESIAN"]


def test_a_returned_payment_is_not_collected(small_bill, pay, holder):
    pay(holder, "0.10", "2026-10-05")
    bounced = pay(holder, "0.05", "2026-10-06")
    payment_return(payment=bounced, on=D("2026-10-09"), reason="Cheque devuelto", actor=None)
    gi = row(selectors.fra4_report(rules.period_from_label("2026-10")), "GROUND_INDUSTRIAL")
    assert (gi.collected, gi.transferred, gi.retained) == (Decimal("0.10"), Decimal("0.09"), Decimal("0.01"))


@pytest.mark.parametrize(("label", "start", "end"), [
    ("2026-02", "2026-02-01", "2026-02-28"), ("2028-02", "2028-02-01", "2028-02-29"),
    ("FY2027-Q1", "2026-07-01", "2026-09-30"), ("FY2027-Q3", "2027-01-01", "2027-03-31"),
    ("FY2027", "2026-07-01", "2027-06-30"),
])
def test_periods(label, start, end):
    p = rules.period_from_label(label)
    assert (p.start, p.end) == (D(start), D(end))


def test_bad_periods_are_refused():
    for label in ("2026-13", "FY2027-Q5", "2026", "Q1"):
        with pytest.raises(ValueError):
            rules.period_from_label(label)


def test_the_transfer_is_recorded_once_per_period(small_bill, pay, holder, staff_user):
    for day in ("2026-10-05", "2026-10-12", "2026-10-20"):
        pay(holder, "0.05", day)
    t = services.aaa_transfer_record(period="2026-10", transferred_on=D("2026-11-10"), actor=staff_user,
                                     reference="ACH-123")
    assert (t.period_kind, t.period_start, t.period_end) == ("MONTH", D("2026-10-01"), D("2026-10-31"))
    assert (t.collected, t.transferred, t.retained, t.transfer_pct) == (
        Decimal("0.15"), Decimal("0.14"), Decimal("0.01"), Decimal("90"))
    assert (t.recorded_by, t.transferred_on, t.reference) == (staff_user, D("2026-11-10"), "ACH-123")
    assert selectors.fra4_report(rules.period_from_label("2026-10")).transfer == t
    for period in ("2026-10", "FY2027-Q2", "FY2027"):  # the same period, or one that covers it
        with pytest.raises(ValidationError) as exc:
            services.aaa_transfer_record(period=period, transferred_on=D("2026-11-30"), actor=staff_user)
        assert "period" in exc.value.message_dict
    assert AaaTransfer.objects.count() == 1


def test_a_transfer_needs_a_closed_period_and_something_to_transfer(small_bill, pay, holder):
    with pytest.raises(ValidationError) as exc:
        services.aaa_transfer_record(period="2026-10", transferred_on=D("2026-11-10"), actor=None)
    assert "No hay recaudos" in exc.value.messages[0]
    pay(holder, "0.15", "2026-10-05")
    with pytest.raises(ValidationError) as exc:
        services.aaa_transfer_record(period="2026-10", transferred_on=D("2026-10-31"), actor=None)
    assert "transferred_on" in exc.value.message_dict
    with pytest.raises(ValidationError):
        services.aaa_transfer_record(period="2026-1", transferred_on=D("2026-11-10"), actor=None)
    assert not AaaTransfer.objects.exists()


def test_csv_export(small_bill, pay, holder):
    pay(holder, "0.15", "2026-10-05")
    text = fra4_csv(selectors.fra4_report(rules.period_from_label("2026-10")))
    lines = text.strip().splitlines()
    assert lines[0] == "period,start,end,tariff_class,collected,transferred_to_aaa,retained"
    assert lines[1] == "2026-10,2026-10-01,2026-10-31,GROUND_INDUSTRIAL,0.15,0.14,0.01"
    assert lines[-1] == "2026-10,2026-10-01,2026-10-31,TOTAL,0.15,0.14,0.01"
    assert len(lines) == 10
