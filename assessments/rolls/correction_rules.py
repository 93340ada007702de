"""Pure arithmetic of roll corrections and supplements (no ORM): IRR-8 re-evaluation, mid-year
inclusion, segregation. Decimal only, ROUND_HALF_UP through core.money.

A finalized roll is never edited (docs/rules/README.md#money; IRR-8 last paragraph): these functions compute the
*difference* a new entry must carry; the services post it.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from core.fiscal import fiscal_year_end, fiscal_year_start
from core.money import ZERO, apportion, round_half_up

# A corrected installment whose original due date has passed is due this many days after the
# correction, the same term the roll gives water sales (billing.bill_water_sales): never in the past.
CORRECTION_TERM_DAYS = 30


@dataclass(frozen=True)
class PeriodAmount:
    """One semester/installment of a parcel's year: what it bills and why."""

    period: str
    due_date: date
    amount: Decimal
    exempt_reason: str = ""
    rule: str = ""


def periods_from_detail(detail: Iterable[Mapping]) -> dict[str, PeriodAmount]:
    """A roll line's `detail` (or a correction's `after`) as {period: PeriodAmount}.

    Lajas lines have no period label: their installments are keyed by due date.
    """
    out = {}
    for item in detail:
        period = item.get("period") or item["due_date"]
        out[period] = PeriodAmount(period, date.fromisoformat(item["due_date"]), Decimal(item["amount"]),
                                   item.get("exempt_reason") or "", item.get("rule") or "")
    return out


def periods_as_detail(periods: Mapping[str, PeriodAmount]) -> list[dict]:
    return [{"period": p.period, "due_date": p.due_date.isoformat(), "amount": str(p.amount),
             "exempt_reason": p.exempt_reason or None, "rule": p.rule} for p in periods.values()]


def period_deltas(before: Mapping[str, PeriodAmount], after: Mapping[str, PeriodAmount]) -> dict[str, Decimal]:
    """{period: after − before} for the periods whose amount changed (IRR-8 re-evaluation)."""
    deltas = {}
    for period in sorted(set(before) | set(after)):
        old = before[period].amount if period in before else ZERO
        new = after[period].amount if period in after else ZERO
        if new != old:
            deltas[period] = new - old
    return deltas


def due_not_in_past(due: date, on: date) -> date:
    """A supplementary installment keeps its statutory due date (IRR-9) unless it has passed."""
    return due if due >= on else on + timedelta(days=CORRECTION_TERM_DAYS)


def months_remaining(included_on: date, fiscal_year: int) -> int:
    """Whole months of `fiscal_year` a parcel included on `included_on` is in the district.

    Reading: the inclusion month counts only when the parcel is included on its first day;
    otherwise counting starts the next month (the statute bills by periods, not by days).
    """
    start, end = fiscal_year_start(fiscal_year), fiscal_year_end(fiscal_year)
    if included_on <= start:
        return 12
    if included_on > end:
        return 0
    first = included_on.month if included_on.day == 1 else included_on.month + 1
    year = included_on.year
    if first == 13:
        first, year = 1, year + 1
    months = (end.year - year) * 12 + end.month - first + 1
    return max(0, min(12, months))


def prorated_share(*, total: Decimal, district_acres: Decimal, acres: Decimal, months: int) -> Decimal:
    """IRR-5 share at the roll's own rate per acre, prorated by months remaining (inclusion mid-year).

    The roll's apportionment is closed (its lines are immutable), so the newcomer is not added to
    the denominator: it pays what an acre pays on that roll, for the months it is in the district.
    """
    if district_acres <= 0 or months <= 0:
        return ZERO
    return round_half_up(total * acres / district_acres * months / 12)


def split_parts(amount: Decimal, weights: Iterable[tuple[str, Decimal]]) -> dict[str, Decimal]:
    """A parent's open amount over its children by area: largest remainder on cents, parts add to the whole
    (docs/rules/README.md#money, apportionment: ties to the larger weight, then the lower identifier)."""
    return apportion(amount, list(weights))
