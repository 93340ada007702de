"""District fund rules: SID-3 (CRIM's 5 % retention and the remittance) and TID-5 (the
association's 5 % cap on administrative expenses).

Percentages of collections are applied to a batch's or period's total and rounded half-up
once, never per payment (docs/rules/README.md#money).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from core.money import round_half_up


@dataclass(frozen=True)
class Remittance:
    collected: Decimal
    retained: Decimal  # CRIM's costs
    remitted: Decimal  # to the Authority, within 90 days of receipt (DEADLINES SID-3)


def remittance(collected: Decimal, retention_pct: Decimal) -> Remittance:
    """SID-3: `retained = round_half_up(collected * pct / 100)`, `remitted = collected - retained`."""
    if collected < 0:
        raise ValueError("collected must not be negative")
    retained = round_half_up(collected * retention_pct / 100)
    return Remittance(collected=collected, retained=retained, remitted=collected - retained)


@dataclass(frozen=True)
class AdminCapCheck:
    allowed: bool
    cap: Decimal  # round_half_up(collections to date * pct / 100)
    spent_to_date: Decimal
    proposed: Decimal
    spent_after: Decimal  # spent_to_date + proposed
    available: Decimal  # cap - spent_to_date (negative if already over)

    @property
    def reason(self) -> str:
        return "within the cap" if self.allowed else "exceeds the administrative cap (TID-5)"


def admin_expense_check(collected_to_date: Decimal, spent_to_date: Decimal, proposed: Decimal,
                        cap_pct: Decimal) -> AdminCapCheck:
    """TID-5 Decision: the 5 % cap is cumulative over the district's term.

    Administrative expenses to date may never exceed 5 % of collections to date; an expense
    that would break it is refused, and the figures are returned so the page can show them.
    """
    if proposed < 0:
        raise ValueError("a proposed expense must not be negative")
    cap = round_half_up(collected_to_date * cap_pct / 100)
    spent_after = spent_to_date + proposed
    return AdminCapCheck(allowed=spent_after <= cap, cap=cap, spent_to_date=spent_to_date, proposed=proposed,
                         spent_after=spent_after, available=cap - spent_to_date)
