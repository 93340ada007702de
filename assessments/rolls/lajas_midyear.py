"""Lajas Valley: a parcel included in the district during the fiscal year (the Lajas Valley law, LAJ-1 … LAJ-6).

Reading. The Lajas Valley law has no mid-year proration. The contribution is a yearly figure fixed before
July 1 (LAJ-6: "the roll is finished no later than July 1"), apportioned over "every acre
permanently included in the district" (LAJ-2) at rates the roll publishes (LAJ-3); a parcel is
charged "from the July 1 following the day it completes twelve months of receiving or being
offered water" (LAJ-5), and "before that it pays the Authority for water actually used".

So a parcel included after the roll is made:
- owes no contribution for the current fiscal year: the roll's effective acres and rates are
  closed (its lines are immutable) and no clause prorates a contribution by months;
- enters the apportionment of the next roll (LAJ-2) as soon as it is permanently included, and is
  charged its contribution from the first July 1 on which LAJ-5 holds — never before the next
  fiscal year;
- until then buys its water (LAJ-5 water sales), which the next roll bills for the water used in
  the year before (billing.bill_water_sales), so nothing is lost between the two.

The supplementary entry is therefore a zero-amount record on the current roll that says so, with
the first fiscal year the contribution can start. These are pure functions; no ORM.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from core.daycount import add_months
from core.fiscal import fiscal_year_of


@dataclass(frozen=True)
class LajasInclusion:
    fiscal_year: int                  # the roll the parcel was included during
    contribution_from_fy: int         # the first fiscal year that may charge the contribution (LAJ-5)
    liable_from: date | None          # July 1 of that year, when LAJ-5's twelve months are known
    water_sales_until_liable: bool    # LAJ-5: water actually used is sold by the acre-foot meanwhile
    permanent: bool                   # LAJ-2 counts only permanently included acres

    def explain(self) -> dict:
        return {
            "rule": "LAJ-5", "fiscal_year": self.fiscal_year, "amount": "0.00",
            "contribution_from_fy": self.contribution_from_fy,
            "liable_from": self.liable_from.isoformat() if self.liable_from else None,
            "water_sales_until_liable": self.water_sales_until_liable, "permanent": self.permanent,
            "reading": "La Ley del Sistema de Riego del Valle de Lajas no prorratea la contribución: el padrón "
                       "del año está cerrado (LAJ-2, LAJ-3, LAJ-6); la parcela entra en el próximo padrón y paga "
                       "la contribución desde el 1 de julio siguiente a doce meses de agua (LAJ-5); mientras "
                       "tanto compra el agua que use (LAJ-5).",
        }


def lajas_inclusion(*, fiscal_year: int, included_on: date, twelve_months_on: date | None,
                    first_water_on: date | None = None, permanent: bool = True) -> LajasInclusion:
    """LAJ-5 start of liability for a parcel included during `fiscal_year`.

    `twelve_months_on` (the day twelve months of water are completed) wins; otherwise it is
    estimated from `first_water_on` + 12 months; unknown → liability unknown (water sales only).
    The contribution never starts before the fiscal year after the inclusion.
    """
    done = twelve_months_on or (add_months(first_water_on, 12) if first_water_on else None)
    next_fy = fiscal_year + 1
    if done is None:
        return LajasInclusion(fiscal_year, next_fy, None, True, permanent)
    # "From the July 1 following the day it completes twelve months": a July 1 completion starts the year after.
    start_fy = fiscal_year_of(done) + 1
    start_fy = max(start_fy, next_fy)
    return LajasInclusion(fiscal_year, start_fy, date(start_fy - 1, 7, 1), True, permanent)
