"""FRA-3 periods: no fiscal year's day is billed twice, none past the authorization's end.

Reglamento para el Aprovechamiento, Uso, Conservación y Administración de las Aguas de Puerto
Rico, sec. 8.14 a: "los tenedores de franquicias o sus representantes autorizados
remitirán al Departamento anual o semianualmente por adelantado [...] la suma correspondiente a
la cantidad de agua cuyo aprovechamiento haya sido autorizado". FRA-3 as docs/rules/franchises.md reads it: the billing
year is the fiscal year; a franchise issued mid-year is billed pro rata by days for its first
year, and one whose authorization ends mid-year for its last; a renewal never bills a day already
billed to its predecessor; an amendment of the authorized volume mid-year is billed or credited
pro rata from its date.
"""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from assessments.franchise_billing import rules
from assessments.rules.franchise import billing_period, first_year_amount, last_year_amount, prorate, uncovered
from core.daycount import days_inclusive

D = date.fromisoformat
FY27 = (D("2026-07-01"), D("2027-06-30"))


def test_days_are_counted_with_both_ends():
    assert days_inclusive(*FY27) == 365
    assert days_inclusive(D("2027-07-01"), D("2028-06-30")) == 366  # FY2028 holds Feb 29, 2028
    assert days_inclusive(D("2026-07-01"), D("2026-07-01")) == 1
    assert days_inclusive(D("2026-07-02"), D("2026-07-01")) == 0


@pytest.mark.parametrize(("annual", "expiry", "amount"), [
    ("100.00", "2027-03-14", "70.41"),   # 257/365 days
    ("100.00", "2026-07-01", "0.27"),    # one day
    ("100.00", "2027-06-30", "100.00"),  # the whole year
    ("366.00", "2028-02-29", "244.00"),  # leap FY2028: 244/366
])
def test_the_last_year_of_an_authorization_ending_mid_year_is_billed_pro_rata(annual, expiry, amount):
    """sec. 8.14 a bills "la cantidad de agua cuyo aprovechamiento haya sido autorizado": past the
    expiry nothing is authorized, so the last fiscal year pays July 1 to the expiry, by days (FRA-3
    reading), rounded half-up once."""
    assert last_year_amount(Decimal(annual), D(expiry)) == Decimal(amount)


def test_the_first_and_last_years_are_the_same_rule():
    """"pro rata, like the first" (FRA-3, issue #16): issue date to June 30 and July 1 to expiry add up
    to the year when one franchise ends the day before the other starts."""
    annual = Decimal("100.00")
    assert first_year_amount(annual, D("2027-03-15")) + last_year_amount(annual, D("2027-03-14")) == annual
    assert prorate(annual, 108, 365) == Decimal("29.59")


def test_the_billing_period_is_the_part_of_the_year_the_authorization_covers():
    assert billing_period(fy_start=FY27[0], fy_end=FY27[1], issue_date=D("2020-01-15"),
                          expiry_date=D("2029-01-14")) == FY27
    assert billing_period(fy_start=FY27[0], fy_end=FY27[1], issue_date=D("2026-09-10"),
                          expiry_date=D("2027-03-14")) == (D("2026-09-10"), D("2027-03-14"))
    assert billing_period(fy_start=FY27[0], fy_end=FY27[1], issue_date=D("2020-01-15"),
                          expiry_date=D("2026-06-30")) is None


def test_a_renewal_bills_only_the_days_not_billed_to_its_chain():
    """FRA-3 (issue #16): "a renewal or a franchise that succeeds another never bills a day already billed
    to its predecessor"."""
    assert uncovered(FY27, [(D("2026-07-01"), D("2026-11-06"))]) == [(D("2026-11-07"), D("2027-06-30"))]
    assert uncovered(FY27, [FY27]) == []
    assert uncovered(FY27, [(D("2026-10-01"), D("2026-10-31"))]) == [
        (D("2026-07-01"), D("2026-09-30")), (D("2026-11-01"), D("2027-06-30"))]
    assert uncovered(FY27, []) == [FY27]


@pytest.mark.parametrize(("plan", "end", "rows"), [
    ("ANNUAL", "2027-03-14", [("2026-07-01", "70.41")]),
    ("SEMIANNUAL", "2027-03-14", [("2026-07-01", "70.41"), ("2027-01-01", "70.41")]),  # 200 × 257/365 = 140.82
    ("SEMIANNUAL", "2026-11-30", [("2026-07-01", "83.84")]),  # ends before January 1: one installment
])
def test_a_last_year_invoice_is_paid_in_advance_like_a_first_year(plan, end, rows):
    """sec. 8.14 a: "anual o semianualmente por adelantado": the prorated amount is due on the first
    day billed; the semiannual plan halves it when the period runs over January 1."""
    annual = Decimal("100.00") if plan == "ANNUAL" else Decimal("200.00")
    parts = [annual] if plan == "ANNUAL" else [annual / 2, annual / 2]
    inv = rules.tariff_invoice(fiscal_year=2027, plan=plan, annual=annual, installments=parts,
                               issued_on=D("2026-06-01"), period_end=D(end))
    assert inv.prorated and (inv.period_start, inv.period_end) == (D("2026-07-01"), D(end))
    assert [(d.isoformat(), str(a)) for d, a in inv.installments] == rows


def test_a_whole_year_is_the_annual_tariff_on_july_1_and_january_1():
    inv = rules.tariff_invoice(fiscal_year=2027, plan="SEMIANNUAL", annual=Decimal("200.00"),
                               installments=[Decimal("100.00"), Decimal("100.00")], issued_on=D("2026-06-01"))
    assert not inv.prorated and inv.amount == Decimal("200.00")
    assert [d for d, _ in inv.installments] == [D("2026-07-01"), D("2027-01-01")]


def _corrections(**kw):
    base = {"fiscal_year": 2027, "billed": [FY27], "effective_on": D("2026-12-01"),
            "annual_before": Decimal("100.00"), "annual_after": Decimal("100.00"),
            "expiry_before": D("2029-01-14"), "expiry_after": D("2029-01-14")}
    return [(c.cause, c.period_start.isoformat(), c.period_end.isoformat(), c.days, str(c.amount))
            for c in rules.corrections(**{**base, **kw})]


def test_an_amendment_of_the_volume_mid_year_bills_or_credits_the_difference_pro_rata():
    """sec. 8.17 (enmienda del "volumen de aprovechamiento autorizado") with 8.14 a (the tariff is
    on the volume authorized): from the amendment's date the year pays the new volume. FRA-3 (issue #16):
    "an amendment of the authorized volume mid-year is billed or credited pro rata from its date"."""
    up = _corrections(annual_after=Decimal("250.00"))
    assert up == [("VOLUME", "2026-12-01", "2027-06-30", 212, "87.12")]  # 150 × 212/365
    down = _corrections(annual_before=Decimal("250.00"), annual_after=Decimal("100.00"))
    assert down == [("VOLUME", "2026-12-01", "2027-06-30", 212, "-87.12")]
    # effective after the days billed: nothing to correct in this year
    assert _corrections(annual_after=Decimal("250.00"), billed=[(FY27[0], D("2026-11-30"))]) == []


def test_a_term_extended_bills_the_new_days_and_a_term_shortened_credits_the_lost_ones():
    """An in-place renewal (sec. 8.18) or an extension (sec. 8.17) authorizes days the last year's
    invoice did not bill; an amendment that shortens the term takes back days billed in advance."""
    billed_to_expiry = [(FY27[0], D("2027-03-14"))]
    assert _corrections(billed=billed_to_expiry, expiry_before=D("2027-03-14"), expiry_after=D("2029-06-30")) == [
        ("TERM_EXTENDED", "2027-03-15", "2027-06-30", 108, "29.59")]  # 70.41 + 29.59 = the year's 100.00
    assert _corrections(expiry_after=D("2027-03-14")) == [("TERM_SHORTENED", "2027-03-15", "2027-06-30", 108,
                                                           "-29.59")]
    # days another franchise of the chain already billed are not billed again
    assert _corrections(billed=billed_to_expiry, expiry_before=D("2027-03-14"), expiry_after=D("2029-06-30"),
                        chain_billed=[(D("2027-03-15"), D("2027-04-30"))]) == [
        ("TERM_EXTENDED", "2027-05-01", "2027-06-30", 61, "16.71")]


def test_a_shortened_term_with_a_new_volume_reprices_only_the_days_still_authorized():
    got = _corrections(expiry_after=D("2027-03-14"), annual_after=Decimal("250.00"))
    assert got == [("TERM_SHORTENED", "2027-03-15", "2027-06-30", 108, "-29.59"),
                   ("VOLUME", "2026-12-01", "2027-03-14", 104, "42.74")]  # 150 × 104/365
