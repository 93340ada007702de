"""LAJ-1 … LAJ-7: the Lajas Valley O&M roll engine, the surcharge, and their JSON layer.

Pure (no database). Exact values from string-built Decimals; edge dates in parametrized tables.
"""
from __future__ import annotations

import copy
import json
from datetime import date
from decimal import Decimal as D
from fractions import Fraction
from pathlib import Path

import pytest

from assessments.compute import ComputeInputError, run
from assessments.rules import lajas
from assessments.rules.parameters import ShippedParameters

DATA = Path(__file__).resolve().parent.parent / "data" / "examples"
EXAMPLE = json.loads((DATA / "lajas-roll.laj1.input.json").read_text())
RULES = lajas.LajasRules.from_parameters(ShippedParameters(), date(2026, 7, 1))


def figures(**amounts) -> lajas.LajasFigures:
    base = {"om_estimate": D("1000.00"), "reserve": D("0.00"), "water_right_credits": D("0.00"),
            "deficit": D("0.00"), "surplus": D("0.00"), "misc_income": D("0.00")}
    base.update(amounts)
    return lajas.LajasFigures(fiscal_year=2027, **base)


def parcel(pid, gravity="0", pumped="0", pct="0", completed=date(2000, 1, 1)) -> lajas.LajasParcel:
    return lajas.LajasParcel(id=pid, gravity_acres=D(gravity), pumped_acres=D(pumped), credit_pct=D(pct),
                             twelve_months_completed_on=completed)


def roll(parcels, figs=None):
    figs = figs or figures()
    plan = lajas.lajas_plan(figs, ((p.id, p.gravity_acres, p.pumped_acres) for p in parcels), RULES)
    tally = lajas.RollTally(plan)
    rows = list(lajas.contributions(plan, parcels, tally))
    return plan, rows, tally.totals()


def example_parcels():
    return [lajas.LajasParcel(id=p["id"], gravity_acres=D(p["gravity_acres"]), pumped_acres=D(p["pumped_acres"]),
                              credit_pct=D(p["credit_pct"]),
                              twelve_months_completed_on=(date.fromisoformat(p["twelve_months_completed_on"])
                                                          if p["twelve_months_completed_on"] else None))
            for p in EXAMPLE["parcels"]]


def example_figures(**changes):
    keys = ("om_estimate", "reserve", "water_right_credits", "deficit", "surplus", "misc_income")
    values = {k: D(EXAMPLE[k]) for k in keys}
    values.update(changes)
    return lajas.LajasFigures(fiscal_year=2027, **values)


# ---------------------------------------------------------------------------------------- LAJ-1


def test_laj1_total():
    a = lajas.assess(example_figures(), RULES)
    assert (a.base, a.margin, a.total) == (D("1335721.05"), D("26714.42"), D("1362435.47"))


@pytest.mark.parametrize(("reserve", "ok"), [("25000.00", True), ("25000.01", False), ("0.00", True)])
def test_laj1_reserve_at_most_2_percent(reserve, ok):
    figs = example_figures(reserve=D(reserve))
    if ok:
        lajas.assess(figs, RULES)
    else:
        with pytest.raises(lajas.LajasInputError) as err:
            lajas.assess(figs, RULES)
        assert err.value.field == "reserve"


def test_laj1_margin_rounds_half_up():
    a = lajas.assess(figures(om_estimate=D("0.25")), RULES)     # 2 % of 0.25 = 0.005
    assert (a.margin, a.total) == (D("0.01"), D("0.26"))


# ---------------------------------------------------------------------------------------- LAJ-2/3


def test_laj2_laj3_weights_rates_and_gross():
    plan, rows, totals = roll(example_parcels(), example_figures())
    assert [str(r.weight) for r in rows] == ["150", "40", "51.625", "22", "340.75", "9.3333"]
    assert totals.effective_acres == D("613.7083")
    assert (totals.gravity_rate, totals.pumped_rate) == (D("2220.0050"), D("1110.0025"))
    assert [r.gross for r in rows] == [D(x) for x in ("333000.74", "88800.20", "114607.76", "48840.11",
                                                        "756466.69", "20719.97")]
    assert totals.gross_total == totals.total


def test_laj3_gross_is_apportioned_to_the_cent_with_ties_to_the_lower_id():
    # 10.00 over three equal parcels: 3.34, 3.33, 3.33 — the extra cent to the lowest id
    _, rows, totals = roll([parcel(3, "1"), parcel(1, "1"), parcel(2, "1")], figures(om_estimate=D("9.80")))
    assert totals.total == D("10.00")
    assert {r.id: r.gross for r in rows} == {1: D("3.34"), 2: D("3.33"), 3: D("3.33")}


def test_laj2_pumped_acres_count_half():
    _, rows, totals = roll([parcel("G", gravity="10"), parcel("P", pumped="10")], figures(om_estimate=D("294.12")))
    assert totals.total == D("300.00")            # 294.12 + 5.88
    assert totals.effective_acres == D("15")
    assert [r.gross for r in rows] == [D("200.00"), D("100.00")]
    assert (totals.gravity_rate, totals.pumped_rate) == (D("20.0000"), D("10.0000"))


# ---------------------------------------------------------------------------------------- LAJ-4/5/6


def test_laj4_credit_net_and_laj6_installments():
    _, rows, totals = roll(example_parcels(), example_figures())
    by_id = {r.id: r for r in rows}
    assert (by_id["L-105"].credit, by_id["L-105"].net) == (D("94558.34"), D("661908.35"))   # 94558.33625
    assert [(i.due_date, i.amount) for i in by_id["L-105"].installments] == [
        (date(2026, 7, 1), D("330954.18")), (date(2027, 1, 1), D("330954.17"))]
    assert (totals.credits_total, totals.credits_unfunded) == (D("134671.06"), D("0.01"))
    assert totals.billed_total == D("1158204.33")


@pytest.mark.parametrize(("completed", "liable"), [
    (date(2026, 6, 30), True),        # twelve months done Jun 30 → charged from Jul 1, 2026
    (date(2026, 7, 1), False),        # done Jul 1 → from the July 1 following: 2027
    (date(2025, 7, 1), True),
    (date(2026, 12, 31), False),
    (None, False),
])
def test_laj5_start_of_liability(completed, liable):
    _, rows, totals = roll([parcel("A", gravity="10", pct="50", completed=completed), parcel("B", gravity="10")],
                           figures(om_estimate=D("196.08")))                      # total 200.00
    row = rows[0]
    assert row.gross == D("100.00")
    if liable:
        assert (row.exempt_reason, row.credit, row.net) == (None, D("50.00"), D("50.00"))
        assert [i.amount for i in row.installments] == [D("25.00"), D("25.00")]
        assert totals.uncollected_not_liable == D("0.00")
    else:
        assert (row.exempt_reason, row.credit, row.net, row.installments) == ("NOT_YET_LIABLE", D("0.00"),
                                                                             D("0.00"), ())
        assert totals.uncollected_not_liable == D("100.00")


@pytest.mark.parametrize(("completed", "start"), [
    (date(2026, 6, 30), date(2026, 7, 1)), (date(2026, 7, 1), date(2027, 7, 1)),
    (date(2026, 1, 1), date(2026, 7, 1)), (date(2024, 2, 29), date(2024, 7, 1)), (None, None)])
def test_laj5_liability_start(completed, start):
    assert lajas.liability_start(completed) == start


def test_laj4_balancing_factor_reproduces_the_example():
    plan, rows, _ = roll(example_parcels(), example_figures())
    k = lajas.credit_ratio(plan, example_parcels())
    assert k == Fraction(606625, 6137083)          # (35 × 51.625 + 12.5 × 340.75) / (100 × 613.7083)
    b0 = lajas.base_without_credits(example_figures())
    assert b0 == D("1201050.00")
    assert lajas.balancing_water_right_credits(b0, k) == D("134671.05")
    assert lajas.balancing_factor(example_figures(), example_parcels(), RULES) == D("134671.05")


def test_laj4_balanced_factor_leaves_credits_within_cents():
    parcels = [parcel("A", "100", pct="40"), parcel("B", "50", "20", pct="10"), parcel("C", "75")]
    figs = figures(om_estimate=D("50000.00"))
    factor = lajas.balancing_factor(figs, parcels, RULES)
    _, _, totals = roll(parcels, figures(om_estimate=D("50000.00"), water_right_credits=factor))
    assert abs(totals.credits_unfunded) <= D("0.02")


# ---------------------------------------------------------------------------------------- LAJ-7


@pytest.mark.parametrize(("due", "grace"), [
    (date(2026, 7, 1), date(2026, 8, 30)), (date(2027, 1, 1), date(2027, 3, 2)),
    (date(2028, 1, 1), date(2028, 3, 1)),                                            # through Feb 29
    (date(2026, 7, 2), date(2026, 8, 31)), (date(2026, 12, 2), date(2027, 1, 31)),   # grace ending on month ends
    (date(2026, 12, 30), date(2027, 2, 28)),
])
def test_laj7_grace_end_is_due_plus_60_days(due, grace):
    assert lajas.grace_end(due, RULES) == grace


@pytest.mark.parametrize(("grace", "paid", "months"), [
    (date(2026, 8, 30), date(2026, 8, 30), 0),
    (date(2026, 8, 30), date(2026, 8, 31), 1),
    (date(2026, 8, 30), date(2026, 9, 30), 1),
    (date(2026, 8, 30), date(2026, 10, 1), 2),
    (date(2026, 8, 30), date(2027, 2, 28), 6),      # Aug 30 + 6 months = Feb 28
    (date(2026, 8, 30), date(2027, 3, 1), 7),
    (date(2027, 8, 30), date(2028, 2, 29), 6),      # … = Feb 29 in a leap year
    (date(2027, 8, 30), date(2028, 3, 1), 7),
    # grace ending on month ends
    (date(2026, 8, 31), date(2026, 9, 30), 1),      # Aug 31 + 1 month = Sep 30
    (date(2026, 8, 31), date(2026, 10, 1), 2),
    (date(2027, 1, 31), date(2027, 2, 28), 1),
    (date(2027, 1, 31), date(2027, 3, 1), 2),
    (date(2027, 1, 31), date(2027, 3, 31), 2),
    (date(2027, 1, 31), date(2027, 4, 1), 3),
    (date(2028, 1, 31), date(2028, 2, 29), 1),
    (date(2028, 1, 31), date(2028, 3, 1), 2),
    (date(2027, 2, 28), date(2027, 3, 28), 1),      # from Feb 28 the day stays the 28th
    (date(2027, 2, 28), date(2027, 3, 29), 2),
    (date(2026, 12, 31), date(2027, 12, 31), 12),
    (date(2026, 12, 31), date(2028, 1, 1), 13),
])
def test_laj7_months_or_fractions(grace, paid, months):
    assert lajas.months_late(grace, paid) == months


@pytest.mark.parametrize(("installment", "due", "paid", "months", "amount"), [
    ("1234.56", date(2026, 7, 1), date(2026, 8, 31), 1, "6.17"),      # 6.1728
    ("1234.56", date(2026, 7, 1), date(2026, 11, 2), 3, "18.52"),     # 18.5184
    ("987.65", date(2027, 1, 1), date(2027, 4, 1), 1, "4.94"),        # 4.93825
    ("1.00", date(2027, 1, 1), date(2027, 4, 3), 2, "0.01"),          # 0.01
    ("0.99", date(2027, 1, 1), date(2027, 4, 1), 1, "0.00"),          # 0.00495
    ("1000.00", date(2026, 7, 1), date(2026, 8, 30), 0, "0.00"),
])
def test_laj7_surcharge(installment, due, paid, months, amount):
    result = lajas.surcharge(D(installment), due, paid, RULES)
    assert (result.months, result.surcharge) == (months, D(amount))


def test_laj7_portions_in_input_order_with_the_rest_last():
    result = lajas.portions_surcharge(D("1000.00"), date(2026, 7, 1),
                                      [(D("400"), date(2026, 9, 15)), (D("100"), date(2026, 8, 1))],
                                      RULES, as_of=date(2026, 12, 31))
    assert [(p.amount, p.paid_on, p.months, p.surcharge) for p in result.portions] == [
        (D("400"), date(2026, 9, 15), 1, D("2.00")), (D("100"), date(2026, 8, 1), 0, D("0.00")),
        (D("500.00"), None, 5, D("12.50"))]
    assert (result.surcharge, result.unpaid) == (D("14.50"), D("0.00"))


def test_laj7_portions_without_as_of_leave_the_rest_unpaid():
    result = lajas.portions_surcharge(D("1000.00"), date(2026, 7, 1), [(D("333.33"), date(2026, 10, 31))], RULES)
    assert [(p.months, p.surcharge) for p in result.portions] == [(3, D("5.00"))]       # 4.99995
    assert result.unpaid == D("666.67")


def test_laj7_portions_rounded_each_then_added():
    # three thirds paid the same day: 3 × round(333.33 × 0.5 %) = 3 × 1.67, not round(1000 × 0.5 %) = 5.00
    portions = [(D("333.33"), date(2026, 9, 1))] * 2 + [(D("333.34"), date(2026, 9, 1))]
    result = lajas.portions_surcharge(D("1000.00"), date(2026, 7, 1), portions, RULES)
    assert result.surcharge == D("5.01")


def test_laj7_portions_may_not_exceed_the_installment():
    with pytest.raises(lajas.LajasInputError) as err:
        lajas.portions_surcharge(D("100.00"), date(2026, 7, 1), [(D("60"), date(2026, 9, 1)),
                                                                  (D("40.01"), date(2026, 9, 2))], RULES)
    assert err.value.field == "portions[1].amount"


# ---------------------------------------------------------------------------------------- streaming


def test_streaming_plan_and_explain():
    parcels = [parcel(i, gravity=str(1 + i % 5), pumped=str(i % 3)) for i in range(1, 2001)]
    plan = lajas.lajas_plan(figures(om_estimate=D("123456.78")), iter([(p.id, p.gravity_acres, p.pumped_acres)
                                                                        for p in parcels]), RULES)
    assert not hasattr(plan, "__dict__") and len(plan.apportionment._threshold) == 3
    rows = lajas.contributions(plan, iter(parcels))
    first = next(rows)
    assert sum(r.gross_cents for r in rows) + first.gross_cents == 12592592   # 123456.78 + 2469.14
    steps = first.explain()["steps"]
    assert [s["rule"] for s in steps] == ["LAJ-2", "LAJ-3", "LAJ-5", "LAJ-4", "LAJ-6"]
    assert "Ley del Sistema de Riego del Valle de Lajas" in first.explain()["citation"]


# ---------------------------------------------------------------------------------------- JSON layer


def _error(calc, payload) -> ComputeInputError:
    with pytest.raises(ComputeInputError) as err:
        run(calc, payload)
    return err.value


@pytest.mark.parametrize(("key", "index", "value", "field"), [
    ("reserve", None, "25000.01", "reserve"),
    ("surplus", None, "-1.00", "surplus"),
    ("misc_income", None, None, "misc_income"),
    ("gravity_acres", 1, "-1", "parcels[1].gravity_acres"),
    ("pumped_acres", 2, "1.00001", "parcels[2].pumped_acres"),
    ("credit_pct", 2, "100.5", "parcels[2].credit_pct"),
    ("twelve_months_completed_on", 3, "2026-02-30", "parcels[3].twelve_months_completed_on"),
    ("id", 4, "L-101", "parcels[4].id"),
])
def test_roll_invalid_input_names_the_field(key, index, value, field):
    payload = copy.deepcopy(EXAMPLE)
    target = payload if index is None else payload["parcels"][index]
    if value is None:
        del target[key]
    else:
        target[key] = value
    assert _error("lajas-roll", payload).field == field


def test_roll_output_extras_and_what_if():
    payload = copy.deepcopy(EXAMPLE)
    payload["parameters"] = {"laj_assessment": {"pumped_factor_pct": "40"}}
    payload["explain"] = True
    out = run("lajas-roll", payload)
    assert out["parcels"][1]["weight"] == "32"
    assert out["parameters"][0]["version"] == "what-if"
    assert out["balancing_water_right_credits"]
    assert out["parcels"][0]["breakdown"]["steps"][0]["rule"] == "LAJ-2"
    plain = run("lajas-roll", EXAMPLE)
    assert plain["balancing_water_right_credits"] == "134671.05"
    assert plain["parameters"][0]["family"] == "laj_assessment"
    assert plain["parcels"][3]["rule"] == "LAJ-5"
    assert plain["parcels"][0]["citation"].startswith("Ley del Sistema de Riego del Valle de Lajas")


@pytest.mark.parametrize(("payload", "field"), [
    ({"installment": "10.00", "due_date": "2026-07-01"}, "paid_on"),
    ({"installment": "10.00", "due_date": "2026-07-01", "paid_on": "2026-09-01", "portions": []}, "portions"),
    ({"installment": "10.00", "due_date": "2026-07-01", "paid_on": "2026-09-31"}, "paid_on"),
    ({"installment": "10.001", "due_date": "2026-07-01", "paid_on": "2026-09-01"}, "installment"),
    ({"due_date": "2026-07-01", "paid_on": "2026-09-01"}, "installment"),
    ({"installment": "10.00", "due_date": None, "paid_on": "2026-09-01"}, "due_date"),
    ({"installment": "10.00", "due_date": "2026-07-01", "paid_on": "2026-09-01", "as_of": "2026-10-01"}, "as_of"),
    ({"installment": "10.00", "due_date": "2026-07-01", "portions": [{"amount": "0", "paid_on": "2026-09-01"}]},
     "portions[0].amount"),
    ({"installment": "10.00", "due_date": "2026-07-01", "portions": [{"amount": "6", "paid_on": "2026-09-01"},
                                                                      {"amount": "5", "paid_on": "2026-09-01"}]},
     "portions[1].amount"),
    ({"installment": "10.00", "due_date": "2026-07-01", "portions": [{"amount": "6"}]}, "portions[0].paid_on"),
    ({"installment": "10.00", "due_date": "2026-07-01", "portions": [], "as_of": "soon"}, "as_of"),
])
def test_surcharge_invalid_input_names_the_field(payload, field):
    assert _error("lajas-surcharge", payload).field == field


def test_surcharge_output_extras():
    out = run("lajas-surcharge", {"installment": "1000.00", "due_date": "2026-07-01",
                                  "portions": [{"amount": "250", "paid_on": "2026-10-15"}]})
    assert out["portions"] == [{"amount": "250.00", "paid_on": "2026-10-15", "months": 2, "surcharge": "2.50"}]
    assert (out["surcharge"], out["unpaid"], out["rule"]) == ("2.50", "750.00", "LAJ-7")
    assert out["parameters"][0]["family"] == "laj_assessment"
