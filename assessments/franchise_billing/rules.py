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

from assessments.rules.franchise import fund_split, installment_due_dates, prorate, uncovered
from core.daycount import add_days, add_months, days_inclusive
from core.fiscal import first_of_next_month, fiscal_year_end, fiscal_year_start
from core.money import ZERO, split_halves

# Why a franchise gets no tariff invoice for a fiscal year (besides FRA-2 and metering).
NOT_ACTIVE = "NOT_ACTIVE"
NOT_YET_ISSUED = "NOT_YET_ISSUED"
EXPIRED = "EXPIRED"
ALREADY_INVOICED = "ALREADY_INVOICED"
BILLED_IN_CHAIN = "BILLED_IN_CHAIN"
SKIP_REASONS = {
    NOT_ACTIVE: "La franquicia no está vigente (suspendida, revocada, cancelada o extinguida).",
    NOT_YET_ISSUED: "Expedida después del año fiscal.",
    EXPIRED: "Vencida antes del año fiscal.",
    ALREADY_INVOICED: "Ya facturada para este año fiscal.",
    BILLED_IN_CHAIN: "Sus días de este año fiscal ya se facturaron a la franquicia que renueva (FRA-3).",
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
    days: int | None = None  # pro rata: days billed (period start to period end, inclusive)
    days_in_year: int | None = None
    rule: str = "FRA-3"
    period_start: date | None = None
    period_end: date | None = None


def tariff_invoice(*, fiscal_year: int, plan: str, annual: Decimal, installments: Sequence[Decimal],
                   issued_on: date, period_end: date | None = None) -> InvoicePlan:
    """FRA-3 (sec. 8.14 a; the reading in docs/rules/franchises.md): paid in advance for the fiscal
    year, annually (July 1)
    or in halves (July 1 and January 1). `installments` are the calculation's own amounts.

    The invoice bills the days from `issued_on` (the later of July 1, the issue date and the day
    after the last day already billed to the franchise it renews) to `period_end` (the earlier of
    June 30 and the expiry date; June 30 when not given). A whole year asks the annual tariff;
    a part of it (a first year, a last year, a renewal's remainder) asks it pro rata by days
    (days billed over the year's days, rounded half-up once). Decision: a prorated amount is due
    on the first day billed; with the semiannual plan it is split in halves (first =
    round_half_up(A/2), docs/rules/README.md on money) due on that day and January 1 when the period runs
    over January 1, and due whole on that day otherwise.
    """
    start, end = fiscal_year_start(fiscal_year), fiscal_year_end(fiscal_year)
    if issued_on > end:
        raise ValueError(f"issued {issued_on.isoformat()}, after FY{fiscal_year}")
    period_start, period_end = max(issued_on, start), min(period_end or end, end)
    if period_end < period_start:
        raise ValueError(f"FY{fiscal_year}: the period ends ({period_end}) before it starts ({period_start})")
    if sum(installments, ZERO) != annual:
        raise ValueError("the installments do not add up to the annual tariff")
    if period_start == start and period_end == end:
        dues = installment_due_dates(fiscal_year, plan)
        if len(dues) != len(installments):
            raise ValueError(f"{plan} has {len(dues)} due dates, got {len(installments)} installments")
        return InvoicePlan(fiscal_year, annual, annual, tuple(zip(dues, installments, strict=True)), False,
                           period_start=period_start, period_end=period_end)
    days = days_inclusive(period_start, period_end)
    days_in_year = days_inclusive(start, end)
    amount = prorate(annual, days, days_in_year)
    january = date(fiscal_year, 1, 1)
    if plan == "SEMIANNUAL" and period_start < january <= period_end:
        first, second = split_halves(amount)
        rows = ((period_start, first), (january, second))
    else:
        rows = ((period_start, amount),)
    return InvoicePlan(fiscal_year, annual, amount, rows, True, days, days_in_year,
                       period_start=period_start, period_end=period_end)


def prorated_text(plan: InvoicePlan, *, issue_date: date, expiry_date: date) -> str:
    """Why an invoice is prorated, in the office's words (stored on the invoice's breakdown)."""
    start, end = fiscal_year_start(plan.fiscal_year), fiscal_year_end(plan.fiscal_year)
    why = []
    if plan.period_start and plan.period_start > start:
        why.append("primer año, desde la expedición" if plan.period_start == issue_date
                   else "desde el día siguiente al último facturado a la franquicia que renueva")
    if plan.period_end and plan.period_end < end:
        why.append("último año, hasta el vencimiento" if plan.period_end == expiry_date else "hasta el fin del período")
    return f"Prorrateada por días ({'; '.join(why)}): {plan.days}/{plan.days_in_year} (FRA-3)."


@dataclass(frozen=True)
class Correction:
    """A supplementary invoice (amount > 0) or credit (amount < 0) for days of one fiscal year."""

    fiscal_year: int
    cause: str  # VOLUME (authorized volume amended), TERM_EXTENDED, TERM_SHORTENED
    period_start: date
    period_end: date
    days: int
    days_in_year: int
    annual_before: Decimal
    annual_after: Decimal
    amount: Decimal


VOLUME, TERM_EXTENDED, TERM_SHORTENED = "VOLUME", "TERM_EXTENDED", "TERM_SHORTENED"


def corrections(*, fiscal_year: int, billed: Sequence[tuple[date, date]], effective_on: date,
                annual_before: Decimal, annual_after: Decimal, expiry_before: date, expiry_after: date,
                chain_billed: Sequence[tuple[date, date]] = ()) -> list[Correction]:
    """FRA-3 (docs/rules/franchises.md): what an amendment or a renewal effective on `effective_on` changes in
    a fiscal year already invoiced, as new entries (the issued invoice is never edited):

    - the expiry moved earlier: the days billed after the new expiry are credited at the rate
      they were billed (`annual_before`);
    - the authorized volume changed: the days billed from `effective_on` to the (new) expiry are
      billed or credited pro rata at the difference of the annual tariffs;
    - the expiry moved later: the year's days after the old expiry up to the new one, not
      already billed to the franchise or its chain (`chain_billed`), are billed at the new tariff.

    `billed` are the periods this franchise has billed in the year (net of earlier credits).
    Each amount is rounded half-up once.
    """
    start, end = fiscal_year_start(fiscal_year), fiscal_year_end(fiscal_year)
    diy = days_inclusive(start, end)
    out: list[Correction] = []

    def add(cause, p_start, p_end, rate_before, rate_after, rate):
        days = days_inclusive(p_start, p_end)
        if days <= 0:
            return
        amount = prorate(rate, days, diy)
        if amount != 0:
            out.append(Correction(fiscal_year, cause, p_start, p_end, days, diy, rate_before, rate_after, amount))

    if expiry_after < expiry_before:
        for p_start, p_end in billed:
            cut_start = max(p_start, add_days(expiry_after, 1))
            if cut_start <= p_end:
                add(TERM_SHORTENED, cut_start, p_end, annual_before, annual_before, -annual_before)
    if annual_after != annual_before:
        for p_start, p_end in billed:
            v_start, v_end = max(p_start, effective_on), min(p_end, expiry_after)
            if v_start <= v_end:
                add(VOLUME, v_start, v_end, annual_before, annual_after, annual_after - annual_before)
    if expiry_after > expiry_before and billed:
        new_days = (max(start, add_days(expiry_before, 1)), min(end, expiry_after))
        if new_days[0] <= new_days[1]:
            for g_start, g_end in uncovered(new_days, [*billed, *chain_billed]):
                add(TERM_EXTENDED, g_start, g_end, annual_after, annual_after, annual_after)
    return out


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
    rounded half-up once (docs/rules/README.md#money), never per payment. Every class of `classes` is
    listed, in that order, with zeros where nothing was collected."""
    full = {code: collected_by_class.get(code, ZERO) for code in classes}
    for code, amount in collected_by_class.items():
        full.setdefault(code, amount)
    split = fund_split(full, transfer_pct, transfer_classes)
    return [ClassShare(code, s.collected, s.transferred, s.retained) for code, s in split.items()]
