"""Which charges come from a district's rolls: the one "district → roll source types" mapping.

A roll's charges and water sales carry `rolls.Roll:<id>` / `rolls.WaterSale:<id>` as their source
type (assessments.rolls.billing) and the roll names the district. Charges from other sources
(franchise invoices, opening balances) have no district. Used by the ledger's aging and by the
reports' fund/district filters.
"""
from __future__ import annotations

ROLL_SOURCES = ("rolls.Roll:", "rolls.WaterSale:")


def roll_source_types(district_id: int) -> list[str]:
    """The source keys of a district's roll charges and water sales."""
    from assessments.rolls.models import Roll  # rolls sit above the ledger; read their ids only

    ids = list(Roll.objects.filter(district_id=district_id).values_list("pk", flat=True))
    return [f"{prefix}{pk}" for prefix in ROLL_SOURCES for pk in ids]


def roll_of_source(source_type: str) -> int | None:
    """The roll id of a roll charge's or water sale's source type, else None."""
    for prefix in ROLL_SOURCES:
        if source_type.startswith(prefix):
            tail = source_type[len(prefix):]
            return int(tail) if tail.isdigit() else None
    return None
