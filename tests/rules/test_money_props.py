"""Properties of money, apportionment, areas, months and the IRR/LAJ engines (hypothesis). Pure."""
from __future__ import annotations

import math
from datetime import date, timedelta
from decimal import ROUND_HALF_UP
from decimal import Decimal as D
from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from assessments.rules import irrigation as irr
from assessments.rules import lajas
from assessments.rules.parameters import ShippedParameters
from core import areas, fiscal
from core.money import apportion, plan_apportionment, round_half_up_div, split_halves

IRR_RULES = irr.IrrigationRules.from_parameters(ShippedParameters(), 2027)
LAJ_RULES = lajas.LajasRules.from_parameters(ShippedParameters(), date(2026, 7, 1))

totals = st.integers(min_value=0, max_value=10**11)
weights = st.lists(st.integers(min_value=0, max_value=10**8), min_size=1, max_size=60)
dates = st.dates(min_value=date(1990, 1, 1), max_value=date(2040, 12, 31))


def _reference(total: int, ws: list[int]) -> list[int]:
    """Largest remainder by brute force: sort every part by (remainder desc, weight desc, index asc)."""
    w_sum = sum(ws)
    floors = [total * w // w_sum for w in ws]
    order = sorted(range(len(ws)), key=lambda i: (-(total * ws[i] % w_sum), -ws[i], i))
    for i in order[:total - sum(floors)]:
        floors[i] += 1
    return floors


# ---------------------------------------------------------------------------------------- apportionment


@settings(deadline=None)
@given(totals, weights)
def test_apportioned_parts_add_up_and_stay_within_a_cent(total, ws):
    if sum(ws) == 0:
        ws = ws + [1]
    plan = plan_apportionment(total, enumerate(ws))
    parts = [plan.cents(i, w) for i, w in enumerate(ws)]
    assert sum(parts) == total
    for part, w in zip(parts, ws, strict=True):
        assert abs(Fraction(part) - Fraction(total * w, sum(ws))) < 1
    assert parts == _reference(total, ws)


@settings(deadline=None)
@given(st.integers(min_value=0, max_value=10**8), st.lists(st.integers(min_value=1, max_value=5), min_size=2,
                                                            max_size=40))
def test_streaming_apportionment_matches_money_apportion(total, ws):
    """Few distinct weights make many ties: the threshold must cut inside a tie group by id."""
    keys = [f"P-{i:03d}" for i in range(len(ws))]
    plan = plan_apportionment(total, zip(keys, ws, strict=True))
    expected = apportion(D(total).scaleb(-2), [(k, D(w)) for k, w in zip(keys, ws, strict=True)])
    assert {k: D(plan.cents(k, w)).scaleb(-2) for k, w in zip(keys, ws, strict=True)} == expected


@settings(deadline=None)
@given(st.integers(min_value=-10**12, max_value=10**12), st.integers(min_value=1, max_value=10**9))
def test_integer_half_up_matches_decimal(numerator, denominator):
    """round_half_up_div rounds halves away from zero, like Decimal's ROUND_HALF_UP."""
    exact = Fraction(numerator, denominator)
    expected = math.floor(abs(exact) + Fraction(1, 2)) * (1 if exact >= 0 else -1)
    assert round_half_up_div(numerator, denominator) == expected
    small = D(numerator % 10**6 - 500_000) / D(1000)              # exact in Decimal: 3 places
    assert round_half_up_div(numerator % 10**6 - 500_000, 1000) == int(small.quantize(D(1), rounding=ROUND_HALF_UP))


@settings(deadline=None)
@given(st.integers(min_value=0, max_value=10**10))
def test_split_halves_add_up(cents):
    first, second = split_halves(D(cents).scaleb(-2))
    assert first + second == D(cents).scaleb(-2) and 0 <= first - second <= D("0.01")


# ---------------------------------------------------------------------------------------- IRR


@st.composite
def irr_parcels(draw):
    n = draw(st.integers(min_value=1, max_value=8))
    parcels = []
    for i in range(n):
        acres = D(draw(st.integers(min_value=0, max_value=5_000_000))).scaleb(-4)
        end = draw(st.one_of(st.none(), st.dates(min_value=date(1980, 1, 1), max_value=date(2027, 9, 1))))
        water = {label: D(draw(st.sampled_from(["0", "1.9", "2", "3.5"])))
                 for label in ("FY2026-S1", "FY2026-S2", "FY2027-S1")
                 if draw(st.booleans())}
        parcels.append(irr.IrrigationParcel(id=f"P-{i}", acres=acres, free_period_end=end, water_af_per_acre=water))
    return parcels


@settings(max_examples=150, deadline=None)
@given(irr_parcels(), st.integers(min_value=0, max_value=10**9),
       st.one_of(st.none(), st.dates(min_value=date(2026, 1, 1), max_value=date(2027, 8, 1))))
def test_a_parcel_year_never_bills_more_than_its_exact_amount_rounded(parcels, bond_cents, completion):
    assume(any(p.acres for p in parcels))
    figs = irr.IrrigationFigures(
        fiscal_year=2027, bond_interest=D(bond_cents).scaleb(-2), bond_principal=D("0.00"),
        bonds_outstanding=D("0.00"), om_cost=D("0.00"), deficit=D("0.00"), surplus=D("0.00"),
        estimated_hydro_income=D("0.00"), hydro_retained=D("0.00"), other_income=D("0.00"),
        completion_certified_on=completion)
    plan = irr.irrigation_plan(figs, [(p.id, p.acres) for p in parcels], IRR_RULES)
    tally = irr.RollTally(plan)
    charges = list(irr.charges(plan, parcels, tally))
    assert sum(c.share_cents for c in charges) == (plan.apportionment.total_cents if plan.district_acre_units else 0)
    for charge in charges:
        billed = [ln for ln in charge.lines if ln.exempt_reason is None]
        exact = sum(ln.exact for ln in billed)
        assert charge.total_cents == round_half_up_div(exact, irr.DENOMINATOR)
        assert all(ln.amount_cents >= 0 for ln in charge.lines)
        # never more than the share (IRR-5), nor the year's schedule at the highest rate for these acres
        assert charge.total_cents <= charge.share_cents
        for ln in charge.lines:
            assert abs(Fraction(ln.amount_cents) - Fraction(ln.exact, irr.DENOMINATOR)) <= 1 or ln.exempt_reason
    totals_ = tally.totals()
    assert totals_.billed_total + totals_.appropriation_needed == totals_.total


# ---------------------------------------------------------------------------------------- LAJ


@settings(max_examples=150, deadline=None)
@given(st.decimals(min_value=D("0.01"), max_value=D("99999.99"), places=2), dates,
       dates, st.integers(min_value=0, max_value=400))
def test_surcharge_never_decreases_with_a_later_payment(installment, due, paid, later_by):
    first = lajas.surcharge(installment, due, paid, LAJ_RULES)
    later = lajas.surcharge(installment, due, paid + timedelta(days=later_by), LAJ_RULES)
    assert later.months >= first.months and later.surcharge >= first.surcharge >= 0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(min_value=0, max_value=3_000_000), st.integers(min_value=0, max_value=3_000_000),
                          st.sampled_from(["0", "12.5", "35", "100"]), st.booleans()), min_size=1, max_size=10),
       st.integers(min_value=0, max_value=10**9))
def test_lajas_gross_adds_up_and_installments_add_to_net(rows, om_cents):
    parcels = [lajas.LajasParcel(id=i, gravity_acres=D(g).scaleb(-4), pumped_acres=D(p).scaleb(-4),
                                 credit_pct=D(pct), twelve_months_completed_on=date(2000, 1, 1) if liable else None)
               for i, (g, p, pct, liable) in enumerate(rows)]
    assume(any(g or p for g, p, _, _ in rows))
    figs = lajas.LajasFigures(fiscal_year=2027, om_estimate=D(om_cents).scaleb(-2), reserve=D("0.00"),
                              water_right_credits=D("0.00"), deficit=D("0.00"), surplus=D("0.00"),
                              misc_income=D("0.00"))
    plan = lajas.lajas_plan(figs, [(p.id, p.gravity_acres, p.pumped_acres) for p in parcels], LAJ_RULES)
    tally = lajas.RollTally(plan)
    out = list(lajas.contributions(plan, parcels, tally))
    assert sum(r.gross_cents for r in out) == plan.apportionment.total_cents
    for r in out:
        assert sum(i.amount_cents for i in r.installments) == r.net_cents
        if r.exempt_reason is None:
            assert r.net_cents == r.gross_cents - r.credit_cents and 0 <= r.credit_cents <= r.gross_cents
        else:
            assert (r.net_cents, r.credit_cents, r.installments) == (0, 0, ())
    t = tally.totals()
    assert t.billed_total + t.credits_total + t.uncollected_not_liable == t.total


# ---------------------------------------------------------------------------------------- areas and months


@settings(deadline=None)
@given(st.integers(min_value=0, max_value=10**12))
def test_cuerdas_to_acres_is_exact_through_square_metres(ten_thousandths):
    cuerdas = D(ten_thousandths).scaleb(-4)
    exact = Fraction(cuerdas) * Fraction(D("3930.395625")) / Fraction(D("4046.8564224"))
    expected = Fraction(round_half_up_div((exact * 10_000).numerator, (exact * 10_000).denominator), 10_000)
    assert Fraction(areas.acres_from_cuerdas(cuerdas)) == expected
    assert areas.engine_acres(cuerdas, "cuerdas") == areas.acres_from_cuerdas(cuerdas)


def test_area_constants_and_examples():
    assert areas.acres_from_cuerdas(D("1")) == D("0.9712")               # 0.97122191…
    assert areas.acres_from_m2(D("4046.8564224")) == D("1.0000")
    assert areas.m2_from_cuerdas(D("2.5")) == D("9825.9890625")
    assert areas.engine_acres(D("12.34565"), "acres") == D("12.3457")


@settings(deadline=None)
@given(dates, st.integers(min_value=-240, max_value=240))
def test_add_months_clamps_to_month_end(day, months):
    got = fiscal.add_months(day, months)
    assert fiscal.month_index(got) - fiscal.month_index(day) == months
    assert got.day == day.day or (got.day < day.day and (got + timedelta(days=1)).day == 1)


@settings(deadline=None)
@given(dates)
def test_fiscal_semester_contains_the_day(day):
    fy, sem = fiscal.semester_of(day)
    assert fiscal.semester_start(fy, sem) <= day <= fiscal.semester_end(fy, sem)
    assert fiscal.fiscal_year_start(fy) <= day <= fiscal.fiscal_year_end(fy) and fiscal.fiscal_year_of(day) == fy
    assert fiscal.parse_period(fiscal.period_label(fy, sem)) == (fy, sem)
    start = fiscal.semester_start_on_or_after(day)
    assert fiscal.is_semester_start(start) and day <= start < day + timedelta(days=185)
