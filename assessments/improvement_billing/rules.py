"""Pure decisions of improvement-district billing (SID-1, SID-2, TID-2, TID-3, TID-4). No ORM.

Which fiscal years may be billed, the installments an owner actually gets (due dates the
resolution or ordinance sets, moved when already past at billing time), the mailing class by
collector, and how a day's collections net into a SID-3 batch or a TID-5 deposit.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

# An owner can't be late before being notified: a due date already past when the charge is
# billed (a year billed late, or billed after its first due date) moves to the billing date
# plus this many days, the same grace the notice gives to pay.
LATE_BILLING_DAYS = 30

CRIM = "CRIM"
ASSOCIATION = "ASSOCIATION"
REGULAR = "REGULAR"
CERTIFIED_RR = "CERTIFIED_RR"

# Reasons a fiscal year is not billed (codes stored on the run; messages in services).
NO_INSTRUMENT = "NO_INSTRUMENT"          # no resolution / ordinance in force for the district
BEFORE_TERM = "BEFORE_TERM"              # the year is before the term's first fiscal year
TERM_ENDED = "TERM_ENDED"                # the year is after the term's last fiscal year
NOT_CARRIED_OUT = "NOT_CARRIED_OUT"      # SID-5: the project was not carried out
NOT_RECEIVED = "NOT_RECEIVED"            # SID-1: CRIM has not received the resolution
TOO_FAR = "TOO_FAR"                      # beyond next fiscal year


@dataclass(frozen=True)
class Term:
    """A resolution's or ordinance's term: first and last fiscal year billed."""

    first: int
    last: int


def term_gap(fiscal_year: int, terms: list[Term]) -> str | None:
    """SID-1 / TID-2: why `fiscal_year` lies outside every term (None when a term covers it).

    With no term at all: NO_INSTRUMENT; a year before every term: BEFORE_TERM; otherwise the
    terms ended before it: TERM_ENDED."""
    if not terms:
        return NO_INSTRUMENT
    if any(t.first <= fiscal_year <= t.last for t in terms):
        return None
    if all(fiscal_year < t.first for t in terms):
        return BEFORE_TERM
    return TERM_ENDED


def effective_installments(parts: list[tuple[date, Decimal]], billed_on: date,
                           days: int = LATE_BILLING_DAYS) -> list[tuple[date, Decimal, date | None]]:
    """SID-1 / TID-2: the installments as billed: `(due, amount, moved_from)`.

    A due date on or before the billing date moves to `billed_on + days` (see LATE_BILLING_DAYS);
    `moved_from` keeps the date the resolution set so the notice can show both."""
    late = billed_on + timedelta(days=days)
    out = []
    for due, amount in parts:
        if due <= billed_on:
            out.append((late, amount, due))
        else:
            out.append((due, amount, None))
    return out


def single_installment(amount: Decimal, billed_on: date, days: int = LATE_BILLING_DAYS) -> list[tuple[date, Decimal]]:
    """An ordinance that sets no due dates: one installment `days` after billing."""
    return [(billed_on + timedelta(days=days), amount)]


def mailing_method(collector: str) -> str:
    """SID-2: CRIM notifies by regular mail; TID-4: an authorized association by certified mail
    with return receipt. A TID collected by CRIM follows CRIM's regular mail."""
    return CERTIFIED_RR if collector == ASSOCIATION else REGULAR


def fiscal_year_in_reach(fiscal_year: int, current_fiscal_year: int) -> bool:
    """At most next fiscal year is billed in advance (the yearly run bills it from June 1)."""
    return fiscal_year <= current_fiscal_year + 1


def next_fiscal_year_to_bill(today: date, current_fiscal_year: int) -> int:
    """The daily run: from June 1 it bills next fiscal year (due July 1); the rest of the year
    it catches up the current one (a district whose term started during the year)."""
    return current_fiscal_year + 1 if today.month == 6 else current_fiscal_year


@dataclass(frozen=True)
class BatchPlan:
    """How a day's collections change a batch: the new collected total, or refused when negative."""

    collected: Decimal
    refused: bool


def batch_extension(current: Decimal, net: Decimal) -> BatchPlan:
    """SID-3: a day's net collections (payments less reversals) added to that day's open batch.
    A batch never goes negative: a net reversal larger than what the batch holds is refused
    (staff settle it with CRIM)."""
    total = current + net
    return BatchPlan(collected=total, refused=total < 0)
