"""Register rows → the rule engines' inputs (the same JSON the `compute` contract takes).

One translation used by the what-if page and the rolls, so a preview and a roll read the
register the same way.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from districts.models import District, Membership, WaterDelivery


def _acres(m: Membership):
    irrigated = m.gravity_acres + m.pumped_acres
    return irrigated if irrigated > 0 else m.parcel.area_acres


def irrigation_parcels(district: District, fiscal_year: int) -> Iterator[dict]:
    """IRR parcels of a district: acres, IRR-4 dates and the water records IRR-8 may need."""
    members = (Membership.objects.filter(district=district, excluded_on__isnull=True)
               .select_related("parcel").order_by("parcel__cadastre"))
    water: dict[int, dict[str, str]] = defaultdict(dict)
    for w in WaterDelivery.objects.filter(parcel__memberships__district=district,
                                          fiscal_year__gte=fiscal_year - 2, fiscal_year__lte=fiscal_year):
        water[w.parcel_id][w.period] = str(w.af_per_acre)
    for m in members.iterator(chunk_size=2000):
        row = {"id": m.parcel.cadastre, "acres": str(_acres(m)),
               "free_period_end": m.free_period_end.isoformat() if m.free_period_end else None,
               "water_af_per_acre": water.get(m.parcel_id, {})}
        if m.first_water_on:
            row["first_water_on"] = m.first_water_on.isoformat()
        yield row


def lajas_parcels(district: District) -> Iterator[dict]:
    """LAJ parcels: gravity and pumped acres, credit percentage and the LAJ-5 date."""
    members = (Membership.objects.filter(district=district, excluded_on__isnull=True,
                                         status=Membership.Status.PERMANENT)
               .select_related("parcel").order_by("parcel__cadastre"))
    for m in members.iterator(chunk_size=2000):
        yield {"id": m.parcel.cadastre, "gravity_acres": str(m.gravity_acres), "pumped_acres": str(m.pumped_acres),
               "credit_pct": str(m.credit_pct),
               "twelve_months_completed_on": m.twelve_months_on.isoformat() if m.twelve_months_on else None}


def roll_payload(district: District, figures: dict) -> dict:
    """The compute payload for a district's roll from its register and the certified figures."""
    if district.kind == District.Kind.IRRIGATION:
        completed = district.completion_certified_on
        return {**figures, "completion_certified_on": completed.isoformat() if completed else None,
                "parcels": list(irrigation_parcels(district, int(figures["fiscal_year"])))}
    if district.kind == District.Kind.LAJAS:
        return {**figures, "parcels": list(lajas_parcels(district))}
    raise ValueError(f"{district.code} is not an irrigation district")
