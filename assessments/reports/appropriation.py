"""IRR-7: the appropriation the Legislature must provide, per bonded irrigation district and fiscal
year, read from each roll's totals (the figures the roll page shows); IRR-3's unpayable bond
amounts are reported apart and are never part of the appropriation or of a later deficit."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from assessments.rolls.models import Roll
from core.money import ZERO
from districts.models import District


@dataclass(frozen=True)
class AppropriationRow:
    district_code: str
    district_name: str
    fiscal_year: int
    status: str
    total: Decimal              # IRR-1 total to assess
    billed: Decimal             # sum of all charges billed on the roll (IRR-5/IRR-6)
    needed: Decimal             # IRR-7: total − billed when positive
    excess: Decimal             # IRR-7: billed − total when positive
    unpayable_bonds: Decimal    # IRR-3: shown apart

    @property
    def net(self) -> Decimal:
        return self.needed - self.excess


@dataclass(frozen=True)
class AppropriationReport:
    fiscal_years: list[int]
    rows: list[AppropriationRow]

    @property
    def needed(self) -> Decimal:
        return sum((r.needed for r in self.rows), ZERO)

    @property
    def excess(self) -> Decimal:
        return sum((r.excess for r in self.rows), ZERO)

    @property
    def unpayable_bonds(self) -> Decimal:
        return sum((r.unpayable_bonds for r in self.rows), ZERO)


def _money(totals: dict, key: str) -> Decimal:
    return Decimal(str(totals.get(key) or "0.00"))


def appropriation_row(roll: Roll) -> AppropriationRow:
    t = roll.totals
    total, billed = _money(t, "total"), _money(t, "billed_total")
    gap = _money(t, "appropriation_needed") if "appropriation_needed" in t else total - billed
    return AppropriationRow(
        district_code=roll.district.code, district_name=roll.district.name, fiscal_year=roll.fiscal_year,
        status=roll.get_status_display(), total=total, billed=billed,
        needed=max(gap, ZERO), excess=max(-gap, ZERO), unpayable_bonds=_money(t, "unpayable_bond_amount"))


def appropriation_by_district(*, fiscal_years: list[int], district_id: int | None = None) -> AppropriationReport:
    """One row per bonded district's roll in `fiscal_years` (any status; the status is shown)."""
    rolls = (Roll.objects.filter(district__kind=District.Kind.IRRIGATION, fiscal_year__in=fiscal_years)
             .select_related("district").order_by("fiscal_year", "district__name"))
    if district_id:
        rolls = rolls.filter(district_id=district_id)
    return AppropriationReport(fiscal_years=fiscal_years, rows=[appropriation_row(r) for r in rolls])
