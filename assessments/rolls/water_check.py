"""Issue #17: a draft irrigation roll whose water records are missing for IRR-8's reference semesters
says so before anyone reviews it.

IRR-8 exempts a semester when the parcel's water is below the minimum, and a missing record counts as
below. When nobody imported the deliveries for a reference semester, nearly every parcel is exempt and
the shortfall silently becomes the legislative appropriation (IRR-7). The page shows "797 of 800 parcels
below the water minimum because no FY2026-S1 deliveries are recorded" with the amount, instead.
"""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.db.models import Count

from assessments.rolls.models import Roll, RollLine
from assessments.rules.irrigation import WATER_BELOW_MINIMUM, water_reference_labels
from core.fiscal import period_label


def reference_periods(fiscal_year: int) -> list[str]:
    """The semesters IRR-8 reads for a fiscal year's two annual charges (due July 1 and January 1)."""
    labels = set()
    for due in (date(fiscal_year - 1, 7, 1), date(fiscal_year, 1, 1)):
        for group in water_reference_labels(due):
            labels.update(group)
    return sorted(labels)


def water_records_warning(roll: Roll) -> dict | None:
    """For a draft irrigation roll with parcels below the water minimum: the reference semesters with
    no delivery recorded for any of its parcels, how many parcels are below, and the appropriation
    (IRR-7) the roll would ask for. None when there is nothing to warn about."""
    if not roll.is_irrigation or roll.status != Roll.Status.DRAFT:
        return None
    if roll.district.completion_certified_on is not None:   # IRR-8 no longer applies once certified complete
        return None
    lines = RollLine.objects.filter(roll=roll)
    below = lines.filter(exempt_reason=WATER_BELOW_MINIMUM).count()
    if not below:
        return None
    from districts.models import WaterDelivery

    labels = reference_periods(roll.fiscal_year)
    counted = (WaterDelivery.objects.filter(parcel__roll_lines__roll=roll,
                                            fiscal_year__gte=roll.fiscal_year - 2, fiscal_year__lte=roll.fiscal_year)
               .values("fiscal_year", "semester").annotate(n=Count("parcel", distinct=True)))
    recorded = {period_label(row["fiscal_year"], row["semester"]): row["n"] for row in counted}
    missing = [label for label in labels if not recorded.get(label)]
    if not missing:
        return None
    return {"below": below, "parcels": lines.count(), "missing": missing,
            "appropriation": Decimal(str(roll.totals.get("appropriation_needed", "0")))}
