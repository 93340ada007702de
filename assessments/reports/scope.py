"""Which receivables a report's fund and district filters select.

A charge knows its fund; its district is known through its source: a roll's charges and water sales
carry `rolls.Roll:<id>` / `rolls.WaterSale:<id>` (assessments.rolls.billing) and the roll names the
district; an improvement district's benefit charges carry `improvement_billing.Run:<id>` and the
billing run names it. Charges from other sources (franchise invoices, opening balances) have no district.
The mapping itself lives in the ledger layer (assessments.ledger.sources), shared with the aging.
"""
from __future__ import annotations

from django.db.models import Q

from assessments.ledger.sources import district_source_types


def receivable_q(*, fund_code: str | None = None, district_id: int | None = None, prefix: str = "") -> Q:
    """A Q over receivables (or over rows reaching them through `prefix`, e.g. "receivable__")."""
    q = Q()
    if fund_code:
        q &= Q(**{f"{prefix}fund__code": fund_code})
    if district_id:
        q &= Q(**{f"{prefix}source_type__in": district_source_types(district_id)})
    return q
