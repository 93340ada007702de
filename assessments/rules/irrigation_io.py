"""`irrigation-roll` calculation (docs/compute.md): JSON payload → IRR engine → JSON.

Also holds the parcel readers the Lajas calculations share (`parcel_id`, `parameter_source`); the typed
field readers are core.payload's: every refusal is a ComputeInputError naming the JSON path of the field.
"""
from __future__ import annotations

from collections.abc import Hashable
from decimal import Decimal

from assessments.rules.irrigation import (
    CITATIONS,
    IrrigationFigures,
    IrrigationInputError,
    IrrigationParcel,
    IrrigationRules,
    ParcelCharge,
    RollTally,
    charges,
    irrigation_plan,
)
from core.compute_errors import ComputeInputError
from core.daycount import add_months
from core.fiscal import parse_period
from core.money import format_cents
from core.payload import PayloadReader, to_bool, to_date, to_number  # noqa: F401 (re-exported)
from core.rule_parameters import ExplicitParameters, ParameterNotFound, ParameterSource

IRR_FAMILIES = ("irr_assessment", "irr_schedule")


# --------------------------------------------------------------------------------------------
# Payload readers (shared with lajas_io)


def parcel_id(value: object, where: str) -> Hashable:
    """A parcel id: a non-empty string or a whole number."""
    if isinstance(value, bool) or not isinstance(value, (str, int)) or value == "":
        raise ComputeInputError(where, f"must be a non-empty string or a whole number, got {value!r}")
    return value


def check_ids(ids: list, path: str = "parcels") -> None:
    """Ids must be unique and all of one kind: ties in apportionment go to the lower id."""
    seen: set = set()
    kind = None
    for i, pid in enumerate(ids):
        if kind is None:
            kind = type(pid)
        elif type(pid) is not kind:
            raise ComputeInputError(f"{path}[{i}].id", "ids must be all strings or all numbers")
        if pid in seen:
            raise ComputeInputError(f"{path}[{i}].id", f"duplicate parcel id {pid!r}")
        seen.add(pid)


def parameter_source(payload: dict, params: ParameterSource, families: tuple[str, ...]) -> ParameterSource:
    """The payload's own `parameters` ({family: {key: value}}) make a what-if over `params`."""
    overrides = payload.get("parameters")
    if overrides is None:
        return params
    if not isinstance(overrides, dict):
        raise ComputeInputError("parameters", "must be an object {family: {key: value}}")
    for family, values in overrides.items():
        if family not in families:
            raise ComputeInputError(f"parameters.{family}", f"not a parameter family of this calculation; "
                                    f"one of {', '.join(families)}")
        if not isinstance(values, dict):
            raise ComputeInputError(f"parameters.{family}", "must be an object {key: value}")
    return ExplicitParameters(overrides, fallback=params)


def amount_text(value: Decimal) -> str:
    """Money as the contract prints it: two decimals, never an exponent."""
    return f"{value:.2f}"


def area_text(value: Decimal) -> str:
    """An area or weight exactly, without trailing zeros or exponent ("188.75", "40")."""
    text = f"{value:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def wants_explain(payload: dict) -> bool:
    return to_bool(payload.get("explain", False), "explain")


# --------------------------------------------------------------------------------------------
# irrigation-roll

_MONEY_FIELDS = ("bond_interest", "bond_principal", "bonds_outstanding", "om_cost", "deficit", "surplus",
                 "estimated_hydro_income", "hydro_retained", "other_income")


def read_figures(payload: dict) -> IrrigationFigures:
    r = PayloadReader(payload)
    fiscal_year = r.integer("fiscal_year", minimum=1901, maximum=9999)
    amounts = {name: r.money(name) for name in _MONEY_FIELDS}
    completion = r.date("completion_certified_on", required=False, nullable=True)
    unpaid = r.money("unpaid_bond_amounts", required=False) or Decimal("0.00")   # IRR-3, optional
    return IrrigationFigures(fiscal_year=fiscal_year, completion_certified_on=completion,
                             unpaid_bond_amounts=unpaid, **amounts)


def read_parcel(raw: object, i: int) -> IrrigationParcel:
    r = PayloadReader(raw, f"parcels[{i}]")
    pid = parcel_id(r.raw("id"), r.field("id"))
    acres = r.decimal("acres", places=4, minimum=Decimal(0), what="an area in acres")
    end = r.date("free_period_end", required=False, nullable=True)
    first_water = r.date("first_water_on", required=False, nullable=True)
    included = r.date("included_on", required=False, nullable=True)
    if end is not None and first_water is not None and first_water > add_months(end, -12):
        # Twelve months of water cannot end before first_water_on + 1 year (IRR-4).
        raise ComputeInputError(r.field("first_water_on"), "must be on or before free_period_end − 1 year (IRR-4)")
    if end is not None and included is not None and end < add_months(included, 12):
        raise ComputeInputError(r.field("free_period_end"),
                                "earlier than the inclusion date + 1 year (IRR-4: twelve months after inclusion)")
    water_raw = r.raw("water_af_per_acre", required=False, default={})
    if water_raw is None:
        water_raw = {}
    if not isinstance(water_raw, dict):
        raise ComputeInputError(r.field("water_af_per_acre"), "must be an object {\"FY2026-S1\": \"2.4\", …}")
    water = {}
    for label, value in water_raw.items():
        where = f"{r.field('water_af_per_acre')}.{label}"
        try:
            parse_period(label)
        except ValueError:
            raise ComputeInputError(where, "a semester label like FY2026-S1") from None
        water[label] = to_number(value, where, minimum=Decimal(0), what="acre-feet per acre")
    return IrrigationParcel(id=pid, acres=acres, free_period_end=end, first_water_on=first_water,
                            water_af_per_acre=water)


def charge_json(charge: ParcelCharge, explain: bool) -> dict:
    lines = []
    for line in charge.lines:
        item = {"period": line.period, "kind": line.kind, "year": line.year, "basis": line.basis,
                "due_date": line.due_date.isoformat(), "amount": format_cents(line.amount_cents),
                "exempt_reason": line.exempt_reason, "rule": line.rule, "citation": line.citation}
        if explain:
            item["breakdown"] = line.explain()
        lines.append(item)
    out = {"id": charge.id, "acres": area_text(charge.acres), "share": format_cents(charge.share_cents),
           "total": format_cents(charge.total_cents), "lines": lines}
    if explain:
        share = charge.explain()
        share.pop("lines")
        out["breakdown"] = share
    return out


def compute(payload: dict, params: ParameterSource) -> dict:
    """IRR-1 … IRR-9 over the payload (docs/compute.md, `irrigation-roll`)."""
    explain = wants_explain(payload)
    source = parameter_source(payload, params, IRR_FAMILIES)
    figures = read_figures(payload)
    parcels_raw = PayloadReader(payload).items("parcels")
    parcels = [read_parcel(raw, i) for i, raw in enumerate(parcels_raw)]
    check_ids([p.id for p in parcels])
    try:
        rules = IrrigationRules.from_parameters(source, figures.fiscal_year)
        plan = irrigation_plan(figures, ((p.id, p.acres) for p in parcels), rules)
        tally = RollTally(plan)
        parcels_out = [charge_json(c, explain) for c in charges(plan, parcels, tally)]
    except IrrigationInputError as exc:
        raise ComputeInputError(exc.field, exc.message) from None
    except ParameterNotFound as exc:
        raise ComputeInputError("fiscal_year", str(exc)) from None
    totals = tally.totals()
    return {
        "fiscal_year": totals.fiscal_year,
        "hydro_income_certified": amount_text(totals.hydro_income_certified),
        "hydro_income_deducted": amount_text(totals.hydro_income_deducted),
        "base": amount_text(totals.base),
        "margin": amount_text(totals.margin),
        "total": amount_text(totals.total),
        "surplus_carried": amount_text(totals.surplus_carried),
        "district_acres": area_text(totals.district_acres),
        "parcel_count": totals.parcel_count,
        "billed_total": amount_text(totals.billed_total),
        "appropriation_needed": amount_text(totals.appropriation_needed),
        "exempt_lines": totals.exempt_lines,
        "unpaid_bond_amounts": amount_text(totals.unpaid_bond_amounts),
        "parcels": parcels_out,
        "parameters": [v.describe() for v in rules.versions],
        "citations": dict(CITATIONS),
    }
