"""IRR-1 … IRR-9: the bonded-irrigation roll engine, its streaming API and its JSON layer.

Pure (no database). Exact values from string-built Decimals; edge dates in parametrized tables.
"""
from __future__ import annotations

import copy
import json
from datetime import date
from decimal import Decimal as D
from pathlib import Path

import pytest

from assessments.compute import ComputeInputError, run
from assessments.rules import irrigation as irr
from assessments.rules.parameters import ExplicitParameters, ShippedParameters
from core import fiscal

EXAMPLE = json.loads((Path(__file__).resolve().parent.parent / "data" / "examples"
                      / "irrigation-roll.irr1.input.json").read_text())
RULES_2027 = irr.IrrigationRules.from_parameters(ShippedParameters(), 2027)
PLENTY = {f"FY{fy}-S{s}": D("5") for fy in range(2020, 2031) for s in (1, 2)}


def figures(fy: int = 2027, completion: date | None = date(2000, 1, 1), **amounts) -> irr.IrrigationFigures:
    """A district whose total (1,050,000.00) makes every share far above the schedule."""
    base = {"bond_interest": D("1000000.00"), "bond_principal": D("0.00"), "bonds_outstanding": D("0.00"),
            "om_cost": D("0.00"), "deficit": D("0.00"), "surplus": D("0.00"), "estimated_hydro_income": D("0.00"),
            "hydro_retained": D("0.00"), "other_income": D("0.00")}
    base.update(amounts)
    return irr.IrrigationFigures(fiscal_year=fy, completion_certified_on=completion, **base)


def parcel(end, acres="10", pid="P-1", water=None, first_water=None) -> irr.IrrigationParcel:
    return irr.IrrigationParcel(id=pid, acres=D(acres), free_period_end=end, first_water_on=first_water,
                                water_af_per_acre=PLENTY if water is None else water)


def roll(parcels, figs=None):
    figs = figs or figures()
    rules = irr.IrrigationRules.from_parameters(ShippedParameters(), figs.fiscal_year)
    plan = irr.irrigation_plan(figs, ((p.id, p.acres) for p in parcels), rules)
    tally = irr.RollTally(plan)
    out = list(irr.charges(plan, parcels, tally))
    return out, tally.totals()


def lines_of(end, fy=2027, completion=date(2000, 1, 1), **kw):
    charge = roll([parcel(end, **kw)], figures(fy=fy, completion=completion))[0][0]
    return [(ln.kind, ln.year, ln.due_date, ln.amount, ln.exempt_reason) for ln in charge.lines]


# ---------------------------------------------------------------------------------------- IRR-1/2


def test_irr1_total_with_hydro_deducted_while_bonds_remain():
    figs = figures(bond_interest=D("85000.00"), bond_principal=D("150000.00"), bonds_outstanding=D("1.00"),
                   om_cost=D("310000.00"), deficit=D("12500.00"), estimated_hydro_income=D("60000.00"),
                   hydro_retained=D("15000.00"), other_income=D("4250.00"))
    a = irr.assess(figs, RULES_2027)
    assert (a.hydro_income_certified, a.hydro_income_deducted) == (D("45000.00"), D("45000.00"))
    assert (a.base, a.margin, a.total, a.surplus_carried) == (D("508250.00"), D("25412.50"), D("533662.50"),
                                                              D("0.00"))


def test_irr2_hydro_not_deducted_once_bonds_are_paid():
    figs = figures(bond_interest=D("100.00"), bonds_outstanding=D("0.00"), estimated_hydro_income=D("60.00"))
    a = irr.assess(figs, RULES_2027)
    assert (a.hydro_income_certified, a.hydro_income_deducted, a.base) == (D("60.00"), D("0.00"), D("100.00"))


def test_irr1_margin_rounds_half_up():
    a = irr.assess(figures(bond_interest=D("0.10")), RULES_2027)       # 5 % of 0.10 = 0.005
    assert (a.margin, a.total) == (D("0.01"), D("0.11"))


def test_irr1_negative_base_assesses_nothing_and_carries_the_surplus():
    figs = figures(bond_interest=D("100.00"), surplus=D("350.00"))
    a = irr.assess(figs, RULES_2027)
    assert (a.base, a.margin, a.total, a.surplus_carried) == (D("-250.00"), D("0.00"), D("0.00"), D("250.00"))
    charges, totals = roll([parcel(date(2001, 1, 1))], figs)
    assert charges[0].share == D("0.00") and totals.appropriation_needed == D("0.00")


@pytest.mark.parametrize(("retained", "ok"), [("250.00", True), ("250.01", False), ("0.00", True)])
def test_irr2_retention_at_most_25_percent(retained, ok):
    figs = figures(estimated_hydro_income=D("1000.00"), hydro_retained=D(retained))
    if ok:
        irr.assess(figs, RULES_2027)
    else:
        with pytest.raises(irr.IrrigationInputError) as err:
            irr.assess(figs, RULES_2027)
        assert err.value.field == "hydro_retained"


def test_irr1_deficit_and_surplus_cannot_both_be_set():
    with pytest.raises(irr.IrrigationInputError) as err:
        irr.assess(figures(deficit=D("1.00"), surplus=D("1.00")), RULES_2027)
    assert err.value.field == "surplus"


# ---------------------------------------------------------------------------------------- IRR-5


def test_irr5_shares_add_up_and_ties_go_to_the_lower_id():
    # 1.01 over three equal parcels: 33 cents each and 2 left, one each to the two lowest ids.
    figs = figures(bond_interest=D("0.96"), completion=None)      # 0.96 + 5 % (0.048 → 0.05) = 1.01
    parcels = [parcel(None, acres="1", pid=p) for p in ("C", "A", "B")]
    charges, totals = roll(parcels, figs)
    assert [(c.id, c.share) for c in charges] == [("C", D("0.33")), ("A", D("0.34")), ("B", D("0.34"))]
    assert totals.shares_total == totals.total == D("1.01")


def test_irr5_remainder_ties_go_to_the_lower_id():
    # 0.04 over 1, 2, 2 acres: exact 0.8, 1.6, 1.6 cents; the 2 cents left go to .8 ("S"), then to the
    # lower id of the two .6 ("L" before "M").
    plan = irr.irrigation_plan(figures(bond_interest=D("0.04")), [("S", D("1")), ("M", D("2")), ("L", D("2"))],
                               RULES_2027)
    assert plan.apportionment.total_cents == 4
    got = {k: plan.apportionment.cents(k, u) for k, u in (("S", 10000), ("M", 20000), ("L", 20000))}
    assert got == {"S": 1, "M": 1, "L": 2}


def test_irr5_remainder_ties_go_to_the_larger_weight_before_the_lower_id():
    # 0.03 over 1, 3, 2 acres: exact 0.5, 1.5, 1.0 cents; one cent left, tied .5/.5: the 3 acres win over "A".
    plan = irr.irrigation_plan(figures(bond_interest=D("0.03")), [("A", D("1")), ("B", D("3")), ("C", D("2"))],
                               RULES_2027)
    got = {k: plan.apportionment.cents(k, u) for k, u in (("A", 10000), ("B", 30000), ("C", 20000))}
    assert got == {"A": 0, "B": 2, "C": 1}


def test_irr5_district_acres_count_every_parcel_liable_or_not():
    charges, totals = roll([parcel(None, acres="20", pid="A"), parcel(date(2001, 1, 1), acres="5.25", pid="B")])
    assert totals.district_acres == D("25.25")
    assert sum(c.share for c in charges) == totals.total


# ---------------------------------------------------------------------------------------- IRR-6 edge dates

S1, S2 = date(2026, 7, 1), date(2027, 1, 1)


@pytest.mark.parametrize(("end", "expected"), [
    # free period ending on a semester start: no stub, year 1 from E
    (date(2026, 7, 1), [("annual", 1, S1, D("30.00"), None), ("annual", 1, S2, D("30.00"), None)]),
    (date(2027, 1, 1), [("free", None, S1, D("0.00"), "FREE_PERIOD"), ("annual", 1, S2, D("30.00"), None)]),
    # ending on Dec 31: a one-day stub (60 × 1/365 = 0.1644), due Jan 1 (month after Dec 30)
    (date(2026, 12, 31), [("stub", None, S2, D("0.16"), None), ("annual", 1, S2, D("30.00"), None)]),
    # the day after a semester start: 183 days (60 × 183/365 = 30.0822), due Aug 1
    (date(2026, 7, 2), [("stub", None, date(2026, 8, 1), D("30.08"), None), ("annual", 1, S2, D("30.00"), None)]),
    # first of a month: due that same day (the month after E − 1 day); 153 days → 25.1507
    (date(2026, 8, 1), [("stub", None, date(2026, 8, 1), D("25.15"), None), ("annual", 1, S2, D("30.00"), None)]),
    # E on Dec 1: due Dec 1; 31 days → 5.0959
    (date(2026, 12, 1), [("stub", None, date(2026, 12, 1), D("5.10"), None), ("annual", 1, S2, D("30.00"), None)]),
    # mid-S2: S1 free, S2 stub to Jul 1 (Mar 1 – Jun 30 = 122 days → 20.0548), due Mar 1
    (date(2027, 3, 1), [("free", None, S1, D("0.00"), "FREE_PERIOD"),
                        ("stub", None, date(2027, 3, 1), D("20.05"), None)]),
    (date(2027, 2, 28), [("free", None, S1, D("0.00"), "FREE_PERIOD"),
                         ("stub", None, date(2027, 3, 1), D("20.22"), None)]),
    # after the fiscal year: free all year; unknown: free (not yet liable)
    (date(2027, 7, 1), [("free", None, S1, D("0.00"), "FREE_PERIOD"), ("free", None, S2, D("0.00"), "FREE_PERIOD")]),
    (None, [("free", None, S1, D("0.00"), "FREE_PERIOD"), ("free", None, S2, D("0.00"), "FREE_PERIOD")]),
])
def test_irr4_irr6_free_periods_and_stubs(end, expected):
    assert lines_of(end) == expected


L1, L2 = date(2027, 7, 1), date(2028, 1, 1)


@pytest.mark.parametrize(("end", "expected"), [
    # FY2028 has Feb 29, 2028: the stub counts actual days over a fixed 365
    (date(2028, 2, 29), [("free", None, L1, D("0.00"), "FREE_PERIOD"),
                         ("stub", None, date(2028, 3, 1), D("20.22"), None)]),       # 123 days
    (date(2028, 3, 1), [("free", None, L1, D("0.00"), "FREE_PERIOD"),
                        ("stub", None, date(2028, 3, 1), D("20.05"), None)]),        # 122 days, E − 1 = Feb 29
    (date(2028, 1, 2), [("free", None, L1, D("0.00"), "FREE_PERIOD"),
                        ("stub", None, date(2028, 2, 1), D("29.75"), None)]),        # 181 days
    (date(2027, 12, 31), [("stub", None, L2, D("0.16"), None), ("annual", 1, L2, D("30.00"), None)]),
])
def test_irr6_stubs_in_a_leap_year(end, expected):
    assert lines_of(end, fy=2028) == expected


@pytest.mark.parametrize(("end", "years", "amounts"), [
    (date(2011, 8, 1), (15, 16), (D("70.00"), D("75.00"))),     # year 15 → 16: $14 then $15
    (date(2012, 1, 1), (15, 16), (D("70.00"), D("75.00"))),     # E on Jan 1: years run Jan–Dec
    (date(2011, 7, 1), (16, 16), (D("75.00"), D("75.00"))),
    (date(2011, 12, 31), (15, 16), (D("70.00"), D("75.00"))),   # year 1 starts Jan 1, 2012
    (date(2022, 1, 1), (5, 6), (D("45.00"), D("30.00"))),       # $9 then back to $6
    (date(2017, 1, 1), (10, 11), (D("30.00"), D("50.00"))),     # $6 then $10
    (date(2024, 9, 20), (2, 3), (D("30.00"), D("35.00"))),
    (date(2023, 7, 1), (4, 4), (D("40.00"), D("40.00"))),
    (date(1990, 1, 1), (37, 38), (D("75.00"), D("75.00"))),     # 16 and after: $15
])
def test_irr6_schedule_year_and_ceiling(end, years, amounts):
    got = lines_of(end)
    assert tuple(ln[1] for ln in got) == years
    assert tuple(ln[3] for ln in got) == amounts
    assert all(ln[0] == "annual" for ln in got)


def test_irr6_share_binds_and_rounding_is_cumulative_within_the_year():
    # irr2's P-001: share 476.19 → 238.095 a semester: S1 238.10, S2 = round(476.19) − 238.10 = 238.09
    payload = json.loads((Path(__file__).resolve().parent.parent / "data" / "examples"
                          / "irrigation-roll.irr2.input.json").read_text())
    p1 = run("irrigation-roll", payload)["parcels"][0]
    assert [(ln["basis"], ln["amount"]) for ln in p1["lines"]] == [("share", "238.10"), ("share", "238.09")]
    assert p1["total"] == "476.19"


def test_irr6_stub_then_annual_rounds_cumulatively():
    # stub 0.16438… rounds to 0.16; S2 bills round(0.16438 + 30) − 0.16 = 30.00, never a cent over the year
    charge = roll([parcel(date(2026, 12, 31))])[0][0]
    assert charge.total == D("30.16")


def test_irr6_exempt_s1_leaves_s2_exact():
    water = {"FY2026-S2": D("0")}                          # S1 (July 1, (a)) exempt; S2 completion passed
    charge = roll([parcel(date(2001, 1, 1), acres="3.3333", water=water)],
                  figures(completion=date(2026, 12, 15)))[0][0]
    assert [(ln.amount, ln.exempt_reason) for ln in charge.lines] == [(D("0.00"), "WATER_BELOW_MINIMUM"),
                                                                     (D("25.00"), None)]   # 7.5 × 3.3333 = 24.99975


# ---------------------------------------------------------------------------------------- IRR-8


W = "WATER_BELOW_MINIMUM"
F = "FREE_PERIOD"


@pytest.mark.parametrize(("end", "first_water", "water", "expected"), [
    # exactly one year of water before D = Jul 1 (2025-07-01 + 1 year = D, not before): (b), FY2026-S1;
    # on Jan 1 more than a year: (a), both semesters of FY2026
    (date(2026, 7, 1), None, {"FY2026-S1": "2", "FY2026-S2": "0"}, [None, W]),
    (date(2026, 7, 1), None, {"FY2026-S1": "1.99", "FY2026-S2": "9"}, [W, W]),
    (date(2026, 7, 1), None, {"FY2026-S1": "2", "FY2026-S2": "2"}, [None, None]),
    # one day more than a year: (a), and on a July 1 only S2 of the prior FY counts
    (date(2026, 7, 1), date(2025, 6, 30), {"FY2026-S1": "0", "FY2026-S2": "2"}, [None, W]),
    (date(2001, 1, 1), None, {"FY2026-S1": "2", "FY2026-S2": "2"}, [None, None]),
    (date(2001, 1, 1), None, {"FY2026-S1": "2"}, [W, W]),                     # a missing record counts 0
    (date(2001, 1, 1), None, {"FY2026-S2": "2"}, [None, W]),
    # E = Jan 1: for D = Jan 1, (b) is the S2 that ended Jun 30 (Dec 31 ended less than a month before)
    (date(2027, 1, 1), None, {"FY2026-S2": "2", "FY2027-S1": "0"}, [F, None]),
    (date(2027, 1, 1), None, {"FY2026-S2": "0", "FY2027-S1": "5"}, [F, W]),
    # stub due Feb 1 (E = Feb 1): (b) is FY2027-S1, which ended Dec 31, more than a month before
    (date(2027, 2, 1), None, {"FY2027-S1": "2"}, [F, None]),
    (date(2027, 2, 1), None, {"FY2026-S2": "2"}, [F, W]),
    # stub due Nov 1 with E = Oct 15: more than a year of water before Nov 1 → (a): FY2026 S1 and S2
    (date(2026, 10, 15), None, {"FY2026-S1": "2", "FY2026-S2": "2"}, [None, None]),
    (date(2026, 10, 15), None, {"FY2026-S1": "2", "FY2026-S2": "1"}, [W, W]),
])
def test_irr8_water_minimum(end, first_water, water, expected):
    water = {k: D(v) for k, v in water.items()}
    got = lines_of(end, completion=None, water=water, first_water=first_water)
    assert [ln[4] for ln in got] == expected


@pytest.mark.parametrize(("completion", "s1_reason", "s2_reason"), [
    (date(2026, 7, 1), None, None),                                  # certified on D: not applied
    (date(2026, 7, 2), "WATER_BELOW_MINIMUM", None),
    (date(2027, 1, 1), "WATER_BELOW_MINIMUM", None),
    (date(2027, 1, 2), "WATER_BELOW_MINIMUM", "WATER_BELOW_MINIMUM"),
    (None, "WATER_BELOW_MINIMUM", "WATER_BELOW_MINIMUM"),
])
def test_irr8_stops_once_completion_is_certified(completion, s1_reason, s2_reason):
    got = lines_of(date(2001, 1, 1), completion=completion, water={})
    assert [ln[4] for ln in got] == [s1_reason, s2_reason]
    assert [ln[3] for ln in got] == [D("0.00") if s1_reason else D("75.00"), D("0.00") if s2_reason else D("75.00")]


def test_irr8_exempt_lines_keep_kind_year_and_basis():
    charge = roll([parcel(date(2024, 9, 20), water={})], figures(completion=None))[0][0]
    assert [(ln.kind, ln.year, ln.basis, ln.rule) for ln in charge.lines] == [
        ("annual", 2, "schedule", "IRR-8"), ("annual", 3, "schedule", "IRR-8")]


# ---------------------------------------------------------------------------------------- IRR-7, streaming


def test_irr7_appropriation_needed_is_total_minus_billed():
    charges, totals = roll([parcel(date(2001, 1, 1), pid="A"), parcel(None, pid="B")])
    assert totals.billed_total == D("150.00")
    assert totals.appropriation_needed == totals.total - D("150.00") == D("1049850.00")
    assert totals.exempt_lines == {"FREE_PERIOD": 2, "WATER_BELOW_MINIMUM": 0}


def test_streaming_plan_keeps_no_per_parcel_state():
    parcels = [parcel(date(2001, 1, 1), acres=str(1 + i % 7), pid=f"P-{i:05d}") for i in range(3000)]
    plan = irr.irrigation_plan(figures(), iter([(p.id, p.acres) for p in parcels]), RULES_2027)
    assert plan.parcel_count == 3000
    assert not hasattr(plan, "__dict__")
    # the threshold is a single (remainder, weight, id) triple, whatever the number of parcels
    assert len(plan.apportionment._threshold) == 3
    stream = irr.charges(plan, iter(parcels))
    first = next(stream)
    assert first.id == "P-00000"
    total = first.share_cents + sum(c.share_cents for c in stream)
    assert total == 105_000_000


def test_streaming_detects_parcels_that_differ_from_the_plan():
    parcels = [parcel(None, acres="1", pid="A"), parcel(None, acres="2", pid="B")]
    plan = irr.irrigation_plan(figures(bond_interest=D("0.99")), [(p.id, p.acres) for p in parcels], RULES_2027)
    changed = [parcel(None, acres="1", pid="A"), parcel(None, acres="1", pid="B")]
    with pytest.raises(irr.IrrigationInputError):
        list(irr.charges(plan, changed))


def test_single_parcel_charge_matches_the_stream():
    parcels = [parcel(date(2026, 10, 15), pid="A"), parcel(date(2001, 1, 1), pid="B")]
    plan = irr.irrigation_plan(figures(), [(p.id, p.acres) for p in parcels], RULES_2027)
    assert irr.parcel_charge(plan, parcels[1]) == list(irr.charges(plan, parcels))[1]


def test_explain_is_built_on_demand_with_rule_citation_inputs_and_intermediates():
    charge = roll([parcel(date(2026, 10, 15), acres="8")], figures(completion=None))[0][0]
    assert not hasattr(charge.lines[0], "__dict__")
    stub = charge.lines[0].explain()
    assert stub["rule"] == "IRR-6" and "Ley de Riego Público" in stub["citation"]
    assert stub["inputs"]["first_water_on_used"] == "2025-10-15"
    inter = stub["intermediates"]
    assert (inter["days"], inter["schedule_bound"], inter["exact"], inter["basis"]) == (
        78, "10.25753425", "10.25753425", "schedule")
    assert inter["water_check"]["branch"].startswith("(a)")
    assert charge.explain()["rule"] == "IRR-5"
    assert "irr_schedule@1950-1" in stub["parameters"]


# ---------------------------------------------------------------------------------------- parameters


def test_shipped_schedule_table():
    assert [RULES_2027.rate_for_year(n) for n in range(1, 19)] == [D(x) for x in (
        "6", "6", "7", "8", "9", "6", "6", "6", "6", "6", "10", "11", "12", "13", "14", "15", "15", "15")]
    assert RULES_2027.stub_rate == D("6")
    assert (RULES_2027.margin_pct, RULES_2027.hydro_retention_max_pct, RULES_2027.water_minimum) == (
        D("5"), D("25"), D("2"))


def test_what_if_parameters_from_the_payload():
    payload = copy.deepcopy(EXAMPLE)
    payload["parameters"] = {"irr_assessment": {"margin_pct": "6"}}
    out = run("irrigation-roll", payload)
    assert out["margin"] == "30495.00" and out["total"] == "538745.00"
    assert out["parameters"][0]["version"] == "what-if"
    assert out["parameters"][1]["family"] == "irr_schedule"


def test_what_if_schedule():
    source = ExplicitParameters({"irr_schedule": {"stub_rate": "6", "rates": [{"from_year": 1, "rate": "20"}]}})
    rules = irr.IrrigationRules.from_parameters(source, 2027)
    assert rules.rate_for_year(40) == D("20")


# ---------------------------------------------------------------------------------------- the JSON layer


def _error(payload) -> ComputeInputError:
    with pytest.raises(ComputeInputError) as err:
        run("irrigation-roll", payload)
    return err.value


def _with(path_value):
    payload = copy.deepcopy(EXAMPLE)
    for path, value in path_value:
        target = payload
        *parts, last = path
        for part in parts:
            target = target[part]
        if value is KeyError:
            del target[last]
        else:
            target[last] = value
    return payload


@pytest.mark.parametrize(("changes", "field"), [
    ([(("fiscal_year",), KeyError)], "fiscal_year"),
    ([(("om_cost",), "abc")], "om_cost"),
    ([(("om_cost",), 310000.5)], "om_cost"),                        # floats refused
    ([(("om_cost",), "1.005")], "om_cost"),                         # money has 2 decimals
    ([(("deficit",), "-1.00")], "deficit"),
    ([(("hydro_retained",), "15000.01")], "hydro_retained"),        # above 25 % of 60,000
    ([(("parcels", 2, "acres"), "-8")], "parcels[2].acres"),
    ([(("parcels", 2, "acres"), "8.00001")], "parcels[2].acres"),
    ([(("parcels", 1, "acres"), KeyError)], "parcels[1].acres"),
    ([(("parcels", 1, "free_period_end"), "2024-13-20")], "parcels[1].free_period_end"),
    ([(("parcels", 1, "free_period_end"), "20/09/2024")], "parcels[1].free_period_end"),
    ([(("parcels", 0, "water_af_per_acre"), {"FY2026-S3": "2"})], "parcels[0].water_af_per_acre.FY2026-S3"),
    ([(("parcels", 0, "water_af_per_acre"), {"FY2026-S1": "-2"})], "parcels[0].water_af_per_acre.FY2026-S1"),
    ([(("parcels", 0, "first_water_on"), "2000-05-11")], "parcels[0].first_water_on"),   # after E − 1 year
    ([(("parcels", 0, "included_on"), "2000-05-11")], "parcels[0].free_period_end"),     # E < inclusion + 1 year
    ([(("parcels", 3, "id"), "P-001")], "parcels[3].id"),
    ([(("parcels", 3, "id"), 4)], "parcels[3].id"),
    ([(("parcels",), "x")], "parcels"),
    ([(("parameters",), {"laj_assessment": {}})], "parameters.laj_assessment"),
    ([(("parameters",), {"irr_assessment": {"margin_pct": "x"}})], "parameters.irr_assessment.margin_pct"),
    ([(("parameters",), {"irr_schedule": {"rates": [{"from_year": 2, "rate": "6"}]}})],
     "parameters.irr_schedule.rates[0].from_year"),
    ([(("fiscal_year",), 1900)], "fiscal_year"),
])
def test_invalid_input_names_the_field(changes, field):
    assert _error(_with(changes)).field == field


def test_irr3_unpaid_bond_amounts_are_reported_apart_not_as_deficit():
    payload = copy.deepcopy(EXAMPLE)
    payload["unpaid_bond_amounts"] = "1000.00"
    out = run("irrigation-roll", payload)
    assert (out["unpaid_bond_amounts"], out["base"]) == ("1000.00", "508250.00")
    assert run("irrigation-roll", EXAMPLE)["unpaid_bond_amounts"] == "0.00"


def test_first_water_on_exactly_a_year_before_is_accepted():
    payload = _with([(("parcels", 0, "first_water_on"), "2000-05-10")])
    assert run("irrigation-roll", payload)["parcels"][0]["total"] == "600.00"


def test_output_carries_citations_parameters_and_optional_breakdowns():
    payload = copy.deepcopy(EXAMPLE)
    payload["explain"] = True
    out = run("irrigation-roll", payload)
    line = out["parcels"][2]["lines"][0]
    assert line["citation"].startswith("Ley de Riego Público") and line["breakdown"]["intermediates"]["days"] == 78
    assert [p["family"] for p in out["parameters"]] == ["irr_assessment", "irr_schedule"]
    assert out["parcels"][2]["acres"] == "8" and out["district_acres"] == "188.75"
    assert "breakdown" not in run("irrigation-roll", EXAMPLE)["parcels"][0]


def test_period_labels_are_fiscal_semesters():
    assert fiscal.period_label(*fiscal.semester_of(date(2026, 7, 1))) == "FY2027-S1"
    assert fiscal.period_label(*fiscal.semester_of(date(2027, 6, 30))) == "FY2027-S2"
