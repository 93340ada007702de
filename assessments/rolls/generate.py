"""Roll generation: the register streamed from a cursor through the rule engines into the roll lines.

Two passes over the memberships (weights for the global apportionment, then one parcel at a time),
so memory does not grow with the district's size.
"""
from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal

from assessments.rules import irrigation as irr
from assessments.rules import lajas as laj
from core.areas import acres_from_m2, m2_from_cuerdas
from core.money import format_cents
from districts.models import District, Membership, WaterDelivery

CHUNK = 5000


class RollInputError(ValueError):
    """Something in the register or the figures that stops a roll before anything is written."""


@dataclass
class GeneratedRoll:
    totals: dict
    parameters: list
    line_count: int


def _acres(gravity: Decimal, pumped: Decimal, area_value: Decimal, area_unit: str) -> Decimal:
    irrigated = gravity + pumped
    if irrigated > 0:
        return irrigated
    m2 = area_value if area_unit == "M2" else m2_from_cuerdas(area_value)
    return acres_from_m2(m2)


def _members(district: District):
    return (Membership.objects.filter(district=district, excluded_on__isnull=True)
            .order_by("parcel__cadastre"))


def check_register(district: District) -> None:
    """Parcels with no area at all are named before anything is written."""
    qs = _members(district)
    if district.kind == District.Kind.LAJAS:
        qs = qs.filter(status=Membership.Status.PERMANENT)
        missing = qs.filter(gravity_acres=0, pumped_acres=0)
    else:
        missing = qs.filter(gravity_acres=0, pumped_acres=0, parcel__area_value=0)
    names = list(missing.values_list("parcel__cadastre", flat=True)[:20])
    if names:
        more = missing.count() - len(names)
        raise RollInputError(
            f"Parcelas sin cabida en {district.code}: {', '.join(names)}" + (f" y {more} más" if more > 0 else ""))
    if not qs.exists():
        raise RollInputError(f"El distrito {district.code} no tiene parcelas incluidas.")


# ---------------------------------------------------------------------------------------------
# Bonded irrigation (IRR)


def _irr_rows(district: District):
    return _members(district).values_list("parcel_id", "parcel__cadastre", "gravity_acres", "pumped_acres",
                                          "parcel__area_value", "parcel__area_unit", "free_period_end",
                                          "first_water_on").iterator(chunk_size=CHUNK)


def _water_by_cadastre(district: District, fiscal_year: int) -> Iterator[tuple[str, dict]]:
    """(cadastre, {period: af}) in cadastre order, for a merge with the memberships."""
    rows = (WaterDelivery.objects.filter(parcel__memberships__district=district,
                                         fiscal_year__gte=fiscal_year - 2, fiscal_year__lte=fiscal_year)
            .order_by("parcel__cadastre").values_list("parcel__cadastre", "fiscal_year", "semester", "af_per_acre")
            .iterator(chunk_size=CHUNK))
    current, periods = None, {}
    for cadastre, fy, sem, af in rows:
        if cadastre != current:
            if current is not None:
                yield current, periods
            current, periods = cadastre, {}
        periods[f"FY{fy}-S{sem}"] = af
    if current is not None:
        yield current, periods


def generate_irrigation(district, figures: dict, params, write: Callable[[tuple], None], roll_id: int,
                        progress: Callable[[int], None]) -> GeneratedRoll:
    fiscal_year = int(figures["fiscal_year"])
    f = irr.IrrigationFigures(
        fiscal_year=fiscal_year, completion_certified_on=district.completion_certified_on,
        **{k: Decimal(str(figures[k])) for k in ("bond_interest", "bond_principal", "bonds_outstanding", "om_cost",
                                                  "deficit", "surplus", "estimated_hydro_income", "hydro_retained",
                                                  "other_income")})
    rules = irr.IrrigationRules.from_parameters(params, fiscal_year)
    weights = ((cad, _acres(g, p, av, au)) for _, cad, g, p, av, au, _, _ in _irr_rows(district))
    plan = irr.irrigation_plan(f, weights, rules)
    tally = irr.RollTally(plan)
    parcel_ids: deque[int] = deque()

    def parcels():
        water = _water_by_cadastre(district, fiscal_year)
        next_water = next(water, None)
        for pid, cad, g, p, av, au, fpe, fwo in _irr_rows(district):
            while next_water is not None and next_water[0] < cad:
                next_water = next(water, None)
            periods = next_water[1] if next_water is not None and next_water[0] == cad else {}
            parcel_ids.append(pid)
            yield irr.IrrigationParcel(id=cad, acres=_acres(g, p, av, au), free_period_end=fpe, first_water_on=fwo,
                                       water_af_per_acre=periods)

    count = 0
    for charge in irr.charges(plan, parcels(), tally):
        # `rows` are the engine's plain tuples: (period, kind, year, basis, due_date, cents, exempt, rule, …)
        lines = [{"period": r[0], "kind": r[1], "year": r[2], "basis": r[3], "due_date": r[4].isoformat(),
                  "amount": format_cents(r[5]), "exempt_reason": r[6], "rule": r[7]} for r in charge.rows]
        exempt = next((r[6] for r in charge.rows if r[6]), "")
        write((roll_id, parcel_ids.popleft(), charge.id, charge.acres, charge.share, Decimal(0), charge.total,
               exempt, json.dumps(lines)))
        count += 1
        if count % CHUNK == 0:
            progress(count)
    t = tally.totals()
    totals = {
        "fiscal_year": t.fiscal_year, "hydro_income_certified": str(t.hydro_income_certified),
        "hydro_income_deducted": str(t.hydro_income_deducted), "base": str(t.base), "margin": str(t.margin),
        "total": str(t.total), "surplus_carried": str(t.surplus_carried), "district_acres": str(t.district_acres),
        "parcel_count": t.parcel_count, "billed_total": str(t.billed_total),
        "appropriation_needed": str(t.appropriation_needed), "exempt_lines": t.exempt_lines,
        "unpayable_bond_amount": str(figures.get("unpayable_bond_amount") or "0.00"),
    }
    return GeneratedRoll(totals, [v.describe() for v in rules.versions], count)


# ---------------------------------------------------------------------------------------------
# Lajas Valley (LAJ)


def _laj_rows(district: District):
    return (_members(district).filter(status=Membership.Status.PERMANENT)
            .values_list("parcel_id", "parcel__cadastre", "gravity_acres", "pumped_acres", "credit_pct",
                         "twelve_months_on").iterator(chunk_size=CHUNK))


def generate_lajas(district, figures: dict, params, write: Callable[[tuple], None], roll_id: int,
                   progress: Callable[[int], None]) -> GeneratedRoll:
    fiscal_year = int(figures["fiscal_year"])
    f = laj.LajasFigures(fiscal_year=fiscal_year, **{
        k: Decimal(str(figures[k])) for k in ("om_estimate", "reserve", "water_right_credits", "deficit", "surplus",
                                               "misc_income")})
    from core.fiscal import fiscal_year_start

    rules = laj.LajasRules.from_parameters(params, fiscal_year_start(fiscal_year))
    plan = laj.lajas_plan(f, ((cad, g, p) for _, cad, g, p, _, _ in _laj_rows(district)), rules)
    tally = laj.RollTally(plan)
    parcel_ids: deque[int] = deque()

    def parcels():
        for pid, cad, g, p, pct, done in _laj_rows(district):
            parcel_ids.append(pid)
            yield laj.LajasParcel(id=cad, gravity_acres=g, pumped_acres=p, credit_pct=pct,
                                  twelve_months_completed_on=done)

    count = 0
    for row in laj.contributions(plan, parcels(), tally):
        installments = [{"due_date": due.isoformat(), "amount": format_cents(cents), "rule": "LAJ-6"}
                        for due, cents in row.installment_rows]
        write((roll_id, parcel_ids.popleft(), row.id, row.weight, Decimal(row.gross_cents).scaleb(-2),
               Decimal(row.credit_cents).scaleb(-2), Decimal(row.net_cents).scaleb(-2), row.exempt_reason or "",
               json.dumps(installments)))
        count += 1
        if count % CHUNK == 0:
            progress(count)
    t = tally.totals()
    totals = {
        "fiscal_year": t.fiscal_year, "base": str(t.base), "margin": str(t.margin), "total": str(t.total),
        "surplus_carried": str(t.surplus_carried), "effective_acres": str(t.effective_acres),
        "gravity_rate": None if t.gravity_rate is None else f"{t.gravity_rate:.4f}",
        "pumped_rate": None if t.pumped_rate is None else f"{t.pumped_rate:.4f}",
        "parcel_count": t.parcel_count, "gross_total": str(t.gross_total), "billed_total": str(t.billed_total),
        "credits_total": str(t.credits_total), "credits_unfunded": str(t.credits_unfunded),
        "uncollected_not_liable": str(t.uncollected_not_liable),
    }
    return GeneratedRoll(totals, [v.describe() for v in rules.versions], count)
