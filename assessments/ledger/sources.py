"""Which charges belong to a district: the one "district → source types" mapping.

A roll's charges and water sales carry `rolls.Roll:<id>` / `rolls.WaterSale:<id>` as their source
type (assessments.rolls.billing) and the roll names the district. An improvement district's benefit
charges (SID-1, TID-2) carry `improvement_billing.Run:<id>` (assessments.improvement_billing) and the
billing run names the district. Charges from other sources (franchise invoices, opening balances)
have no district. Used by the ledger's aging and by the reports' fund/district filters.

The ledger sits below rolls and improvement billing: their models are imported inside the functions,
and only ids, names and fiscal years are read.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

ROLL_SOURCES = ("rolls.Roll:", "rolls.WaterSale:")
IMPROVEMENT_SOURCES = ("improvement_billing.Run:",)


@dataclass(frozen=True)
class SourceOrigin:
    """The district and fiscal year a source type's charges were billed for."""

    district_id: int
    district_name: str
    fiscal_year: int


def district_source_types(district_id: int) -> list[str]:
    """The source keys of a district's charges: its rolls' charges and water sales, and its
    improvement billing runs' benefit charges."""
    from assessments.improvement_billing.models import BillingRun
    from assessments.rolls.models import Roll

    rolls = list(Roll.objects.filter(district_id=district_id).values_list("pk", flat=True))
    runs = list(BillingRun.objects.filter(district_id=district_id).values_list("pk", flat=True))
    return ([f"{prefix}{pk}" for prefix in ROLL_SOURCES for pk in rolls]
            + [f"{prefix}{pk}" for prefix in IMPROVEMENT_SOURCES for pk in runs])


def _id_after(source_type: str, prefixes: tuple[str, ...]) -> int | None:
    for prefix in prefixes:
        if source_type.startswith(prefix):
            tail = source_type[len(prefix):]
            return int(tail) if tail.isdigit() else None
    return None


def roll_of_source(source_type: str) -> int | None:
    """The roll id of a roll charge's or water sale's source type, else None."""
    return _id_after(source_type, ROLL_SOURCES)


def run_of_source(source_type: str) -> int | None:
    """The improvement billing run id of a benefit charge's source type, else None."""
    return _id_after(source_type, IMPROVEMENT_SOURCES)


def source_origins(source_types: Iterable[str]) -> dict[str, SourceOrigin]:
    """The district and fiscal year of each roll or improvement-billing source type (two queries);
    source types of no district are left out."""
    from assessments.improvement_billing.models import BillingRun
    from assessments.rolls.models import Roll

    source_types = set(source_types)
    roll_ids = {roll_of_source(st) for st in source_types} - {None}
    run_ids = {run_of_source(st) for st in source_types} - {None}
    rolls = {pk: SourceOrigin(district, name, fy) for pk, district, name, fy in Roll.objects.filter(
        pk__in=roll_ids).values_list("pk", "district_id", "district__name", "fiscal_year")} if roll_ids else {}
    runs = {pk: SourceOrigin(district, name, fy) for pk, district, name, fy in BillingRun.objects.filter(
        pk__in=run_ids).values_list("pk", "district_id", "district__name", "fiscal_year")} if run_ids else {}
    out = {}
    for st in source_types:
        origin = rolls.get(roll_of_source(st)) or runs.get(run_of_source(st))
        if origin is not None:
            out[st] = origin
    return out
