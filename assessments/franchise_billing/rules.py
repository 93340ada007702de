"""Pure rules of franchise billing: FRA-3 (what a fiscal year's invoice asks and when), the
FRA-4 periods and the AAA's share, the dates of a metered bill.

No ORM, no settings, no I/O. The tariff itself (FRA-1, FRA-2) comes from the `franchise-tariff`
calculation (assessments.rules.franchise / franchise_io); these functions only place its amounts
on dates, prorate a first year and cut periods.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from assessments.rules.franchise import first_year_amount, fund_split, installment_due_dates
from core.daycount import add_months
from core.fiscal import first_of_next_month, fiscal_year_end, fiscal_year_start
from core.money import ZERO, split_halves

# Why a franchise gets no tariff invoice for a fiscal year (besides FRA-2 and metering).
NOT_ACTIVE = "NOT_ACTIVE"
NOT_YET_ISSUED = "NOT_YET_ISSUED"
EXPIRED = "EXPIRED"
ALREADY_INVOICED = "ALREADY_INVOICED"
SKIP_REASONS = {
    NOT_ACTIVE: "La franquicia no está vigente (suspendida, revocada, cancelada o extinguida).",
    NOT_YET_ISSUED: "Expedida después del año fiscal.",
    EXPIRED: "Vencida antes del año fiscal.",
    ALREADY_INVOICED: "Ya facturada para este año fiscal.",
}


def billable_reason(*, status: str, issue_date: date, expiry_date: date, fiscal_year: int) -> str | None:
    """FRA-3: None when an active franchise's term touches the fiscal year, else why not."""
    if status != "ACTIVE":
        return NOT_ACTIVE
    if issue_date > fiscal_year_end(fiscal_year):
        return NOT_YET_ISSUED
    if expiry_date < fiscal_year_start(fiscal_year):
        return EXPIRED
    return None


@dataclass(frozen=True)
class InvoicePlan:
    """The installments of one franchise's tariff invoice for one fiscal year."""

    fiscal_year: int
    annual: Decimal  # FRA-1 annual tariff, as `franchise-tariff` computes it
    amount: Decimal  # what this invoice asks (the annual tariff, or its pro rata share)
    installments: tuple[tuple[date, Decimal], ...]
    prorated: bool
    days: int | None = None  # pro rata: days billed (issue date to June 30, inclusive)
    days_in_year: int | None = None
    rule: str = "FRA-3"


def tariff_invoice(*, fiscal_year: int, plan: str, annual: Decimal, installments: Sequence[Decimal],
                   issued_on: date) -> InvoicePlan:
    """FRA-3 (sec. 8.14 a, SPEC Decision): paid in advance for the fiscal year, annually (July 1)
    or in halves (July 1 and January 1). `installments` are the calculation's own amounts.

    A franchise issued after July 1 pays its first year pro rata by days (issue date to June 30
    over the year's days, rounded half-up once). Decision: the prorated amount is due on the
    issue date; with the semiannual plan it is split in halves (first = round_half_up(A/2),
    SPEC "Installments") due on the issue date and January 1 when issued before January 1, and
    due whole on the issue date when issued on or after it (both semesters' dates have passed).
    """
    start, end = fiscal_year_start(fiscal_year), fiscal_year_end(fiscal_year)
    if issued_on > end:
        raise ValueError(f"issued {issued_on.isoformat()}, after FY{fiscal_year}")
    if sum(installments, ZERO) != annual:
        raise ValueError("the installments do not add up to the annual tariff")
    if issued_on <= start:
        dues = installment_due_dates(fiscal_year, plan)
        if len(dues) != len(installments):
            raise ValueError(f"{plan} has {len(dues)} due dates, got {len(installments)} installments")
        return InvoicePlan(fiscal_year, annual, annual, tuple(zip(dues, installments, strict=True)), False)
    amount = first_year_amount(annual, issued_on)
    days = (end - issued_on).days + 1
    days_in_year = (end - start).days + 1
    january = date(fiscal_year, 1, 1)
    if plan == "SEMIANNUAL" and issued_on < january:
        first, second = split_halves(amount)
        rows = ((issued_on, first), (january, second))
    else:
        rows = ((issued_on, amount),)
    return InvoicePlan(fiscal_year, annual, amount, rows, True, days, days_in_year)


def month_ended(month: date, on: date) -> bool:
    """A month's reading can be billed once the month is over."""
    return first_of_next_month(month) <= on


def metered_due(billed_on: date, due_days: int) -> date:
    """FRA-3 Decision: a monthly metered bill is due `due_days` (30) calendar days after its date."""
    return billed_on + timedelta(days=due_days)


# --- FRA-4 periods ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Period:
    kind: str  # MONTH, QUARTER (fiscal), FISCAL_YEAR
    label: str  # "2026-11", "FY2027-Q2", "FY2027"
    start: date
    end: date


_MONTH = re.compile(r"^(\d{4})-(\d{2})$")
_QUARTER = re.compile(r"^FY(\d{4})-Q([1-4])$")
_FY = re.compile(r"^FY(\d{4})$")


def period_from_label(label: str) -> Period:
    """"2026-11" (a calendar month), "FY2027-Q2" (a fiscal quarter: Q1 = July-September) or
    "FY2027" (July 1, 2026 - June 30, 2027). Raises ValueError on anything else."""
    label = (label or "").strip().upper()
    if m := _MONTH.match(label):
        year, month = int(m.group(1)), int(m.group(2))
        if not 1 <= month <= 12 or year < 1900:
            raise ValueError(f"not a month: {label!r}")
        start = date(year, month, 1)
        return Period("MONTH", label, start, first_of_next_month(start) - timedelta(days=1))
    if m := _QUARTER.match(label):
        fy, q = int(m.group(1)), int(m.group(2))
        start = add_months(fiscal_year_start(fy), 3 * (q - 1))
        return Period("QUARTER", label, start, add_months(start, 3) - timedelta(days=1))
    if m := _FY.match(label):
        fy = int(m.group(1))
        return Period("FISCAL_YEAR", label, fiscal_year_start(fy), fiscal_year_end(fy))
    raise ValueError(f"not a period (2026-11, FY2027-Q2 or FY2027): {label!r}")


@dataclass(frozen=True)
class ClassShare:
    tariff_class: str
    collected: Decimal
    transferred: Decimal  # to the AAA
    retained: Decimal  # stays in the special fund


def aaa_shares(collected_by_class: Mapping[str, Decimal], *, classes: Sequence[str], transfer_pct: Decimal,
               transfer_classes: Sequence[str]) -> list[ClassShare]:
    """FRA-4 (sec. 8.15): per class, what the period collected, what goes to the AAA (90 % of
    GROUND_INDUSTRIAL) and what stays. The percentage applies to the period's total and is
    rounded half-up once (SPEC conventions), never per payment. Every class of `classes` is
    listed, in that order, with zeros where nothing was collected."""
    full = {code: collected_by_class.get(code, ZERO) for code in classes}
    for code, amount in collected_by_class.items():
        full.setdefault(code, amount)
    split = fund_split(full, transfer_pct, transfer_classes)
    return [ClassShare(code, s.collected, s.transferred, s.retained) for code, s in split.items()]
