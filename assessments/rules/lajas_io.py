"""`lajas-roll` and `lajas-surcharge` calculations (docs/compute.md): JSON → LAJ engine → JSON."""
from __future__ import annotations

from decimal import Decimal

from assessments.rules.irrigation_io import (
    amount_text,
    area_text,
    check_ids,
    parameter_source,
    parcel_id,
    wants_explain,
)
from assessments.rules.lajas import (
    CITATIONS,
    LajasFigures,
    LajasInputError,
    LajasParcel,
    LajasRules,
    ParcelContribution,
    RollTally,
    balancing_water_right_credits,
    base_without_credits,
    contributions,
    credit_ratio,
    lajas_plan,
    portions_surcharge,
    surcharge,
)
from core.compute_errors import ComputeInputError
from core.fiscal import fiscal_year_start
from core.money import format_cents
from core.payload import PayloadReader, to_date
from core.rule_parameters import ParameterNotFound, ParameterSource

LAJ_FAMILIES = ("laj_assessment",)
_MONEY_FIELDS = ("om_estimate", "reserve", "water_right_credits", "deficit", "surplus", "misc_income")


def _rules(source: ParameterSource, on, field: str) -> LajasRules:
    try:
        return LajasRules.from_parameters(source, on)
    except ParameterNotFound as exc:
        raise ComputeInputError(field, str(exc)) from None
    except LajasInputError as exc:
        raise ComputeInputError(exc.field, exc.message) from None


# --------------------------------------------------------------------------------------------
# lajas-roll


def read_figures(payload: dict) -> LajasFigures:
    r = PayloadReader(payload)
    fiscal_year = r.integer("fiscal_year", minimum=1901, maximum=9999)
    return LajasFigures(fiscal_year=fiscal_year, **{name: r.money(name) for name in _MONEY_FIELDS})


def read_parcel(raw: object, i: int) -> LajasParcel:
    r = PayloadReader(raw, f"parcels[{i}]")
    return LajasParcel(
        id=parcel_id(r.raw("id"), r.field("id")),
        gravity_acres=r.decimal("gravity_acres", places=4, minimum=Decimal(0), what="an area in acres"),
        pumped_acres=r.decimal("pumped_acres", places=4, minimum=Decimal(0), what="an area in acres"),
        credit_pct=r.decimal("credit_pct", required=False, minimum=Decimal(0), maximum=Decimal(100),
                             what="a percentage") or Decimal(0),
        twelve_months_completed_on=r.date("twelve_months_completed_on", required=False, nullable=True),
    )


def contribution_json(row: ParcelContribution, explain: bool) -> dict:
    out = {"id": row.id, "weight": area_text(row.weight), "gross": format_cents(row.gross_cents),
           "credit": format_cents(row.credit_cents), "net": format_cents(row.net_cents),
           "installments": [{"due_date": i.due_date.isoformat(), "amount": format_cents(i.amount_cents)}
                            for i in row.installments],
           "exempt_reason": row.exempt_reason, "rule": row.rule, "citation": row.citation}
    if explain:
        out["breakdown"] = row.explain()
    return out


def compute_roll(payload: dict, params: ParameterSource) -> dict:
    """LAJ-1 … LAJ-6 over the payload (docs/compute.md, `lajas-roll`)."""
    explain = wants_explain(payload)
    source = parameter_source(payload, params, LAJ_FAMILIES)
    figures = read_figures(payload)
    parcels = [read_parcel(raw, i) for i, raw in enumerate(PayloadReader(payload).items("parcels"))]
    check_ids([p.id for p in parcels])
    rules = _rules(source, fiscal_year_start(figures.fiscal_year), "fiscal_year")
    try:
        plan = lajas_plan(figures, ((p.id, p.gravity_acres, p.pumped_acres) for p in parcels), rules)
        tally = RollTally(plan)
        parcels_out = [contribution_json(row, explain) for row in contributions(plan, parcels, tally)]
        balancing = balancing_water_right_credits(base_without_credits(figures), credit_ratio(plan, parcels),
                                                  rules.margin_pct)
    except LajasInputError as exc:
        raise ComputeInputError(exc.field, exc.message) from None
    t = tally.totals()
    return {
        "fiscal_year": t.fiscal_year,
        "base": amount_text(t.base),
        "margin": amount_text(t.margin),
        "total": amount_text(t.total),
        "surplus_carried": amount_text(t.surplus_carried),
        "effective_acres": area_text(t.effective_acres),
        "gravity_rate": None if t.gravity_rate is None else f"{t.gravity_rate:.4f}",
        "pumped_rate": None if t.pumped_rate is None else f"{t.pumped_rate:.4f}",
        "parcel_count": t.parcel_count,
        "billed_total": amount_text(t.billed_total),
        "credits_total": amount_text(t.credits_total),
        "credits_unfunded": amount_text(t.credits_unfunded),
        "uncollected_not_liable": amount_text(t.uncollected_not_liable),
        "balancing_water_right_credits": amount_text(balancing),
        "parcels": parcels_out,
        "parameters": [v.describe() for v in rules.versions],
        "citations": {k: v for k, v in CITATIONS.items() if k != "LAJ-7"},
    }


# --------------------------------------------------------------------------------------------
# lajas-surcharge


def compute_surcharge(payload: dict, params: ParameterSource) -> dict:
    """LAJ-7 over the payload (docs/compute.md, `lajas-surcharge`)."""
    r = PayloadReader(payload)
    source = parameter_source(payload, params, LAJ_FAMILIES)
    installment = r.money("installment")
    due = r.date("due_date")
    rules = _rules(source, due, "due_date")
    has_paid, has_portions = r.has("paid_on"), r.has("portions")
    if has_paid == has_portions:
        raise ComputeInputError("paid_on" if not has_paid else "portions",
                                "give either paid_on (paid whole) or portions[] (partial payments)")
    base = {"installment": amount_text(installment), "due_date": due.isoformat(), "rule": "LAJ-7",
            "citation": CITATIONS["LAJ-7"], "parameters": [v.describe() for v in rules.versions]}
    if has_paid:
        if r.has("as_of"):
            raise ComputeInputError("as_of", "only with portions[] (the date the unpaid rest is counted to)")
        result = surcharge(installment, due, r.date("paid_on"), rules)
        return {**base, "grace_end": result.grace_end.isoformat(), "months": result.months,
                "surcharge": amount_text(result.surcharge)}
    portions = []
    for i, raw in enumerate(r.items("portions")):
        pr = PayloadReader(raw, f"portions[{i}]")
        amount = pr.money("amount")
        if amount <= 0:
            raise ComputeInputError(pr.field("amount"), "must be more than 0")
        portions.append((amount, pr.date("paid_on")))
    as_of = r.raw("as_of", required=False)
    as_of = None if as_of is None else to_date(as_of, "as_of")
    try:
        result = portions_surcharge(installment, due, portions, rules, as_of=as_of)
    except LajasInputError as exc:
        raise ComputeInputError(exc.field, exc.message) from None
    return {**base, "grace_end": result.grace_end.isoformat(),
            "portions": [{"amount": amount_text(p.amount), "paid_on": p.paid_on.isoformat() if p.paid_on else None,
                          "months": p.months, "surcharge": amount_text(p.surcharge)} for p in result.portions],
            "surcharge": amount_text(result.surcharge), "unpaid": amount_text(result.unpaid)}
