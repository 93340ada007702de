"""Which receivables a report's fund and district filters select.

A charge knows its fund; its district is known through its source: a roll's charges and water sales
carry `rolls.Roll:<id>` / `rolls.WaterSale:<id>` (assessments.rolls.billing), and the roll names the
district. Charges from other sources (franchise invoices, opening balances) have no district.
"""
from __future__ import annotations

from django.db.models import Q

from assessments.rolls.models import Roll

ROLL_SOURCES = ("rolls.Roll:", "rolls.WaterSale:")


def roll_source_types(district_id: int) -> list[str]:
    ids = Roll.objects.filter(district_id=district_id).values_list("pk", flat=True)
    return [f"{prefix}{pk}" for pk in ids for prefix in ROLL_SOURCES]


def receivable_q(*, fund_code: str | None = None, district_id: int | None = None, prefix: str = "") -> Q:
    """A Q over receivables (or over rows reaching them through `prefix`, e.g. "receivable__")."""
    q = Q()
    if fund_code:
        q &= Q(**{f"{prefix}fund__code": fund_code})
    if district_id:
        q &= Q(**{f"{prefix}source_type__in": roll_source_types(district_id)})
    return q


def roll_of_source(source_type: str) -> int | None:
    for p in ROLL_SOURCES:
        if source_type.startswith(p):
            tail = source_type[len(p):]
            return int(tail) if tail.isdigit() else None
    return None
