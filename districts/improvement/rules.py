"""Pure rules of the improvement districts' life cycles (SID-1, SID-2, SID-5, TID-1, TID-4, TID-5).

No ORM, no settings, no I/O: dates, Decimals and frozen dataclasses. The services translate rows
into these and persist the results. The percentage engines (SID-3 retention, TID-5 cap) live in
`assessments.rules.sid`; the clocks in `assessments.rules.deadlines`.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from assessments.rules.deadlines import Clock, Deadline, compute_due, unmoved_due
from assessments.rules.sid import AdminCapCheck, admin_expense_check
from core.daycount import add_months, business_day_on_or_after
from core.money import ZERO, apportion

# --- SID-1: no exemption, exoneration or prompt-payment discount ------------------------------

# Any field whose name carries one of these stems is an attempt to exempt, exonerate or discount
# a benefit charge: refused whatever its value (SID-1).
FORBIDDEN_STEMS = ("exempt", "exenc", "exent", "exoner", "discount", "descuento", "prompt_payment",
                   "pronto_pago", "rebate", "waiver", "condona")


def sid1_forbidden_fields(fields: Iterable[str]) -> list[str]:
    """SID-1: the names among `fields` that would exempt, exonerate or discount a SID charge."""
    found = []
    for name in fields:
        folded = str(name).lower().replace("-", "_")
        if any(stem in folded for stem in FORBIDDEN_STEMS):
            found.append(str(name))
    return sorted(found)


SID1_MESSAGE = ("SID-1: los cargos por beneficio no admiten exención, exoneración ni descuento por pronto "
                "pago; las fechas de pago y penalidades son las que fija la resolución. Campos rechazados: {fields}.")


# --- Due dates fixed by a resolution or ordinance (month-day, every fiscal year) ---------------

_MONTH_DAY = re.compile(r"^\s*(\d{1,2})-(\d{1,2})\s*$")
_DAYS_IN_MONTH = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # Feb 29 refused: not every year has it


def parse_month_day(text: str) -> tuple[int, int]:
    """"MM-DD" → (month, day); raises ValueError with the reason."""
    match = _MONTH_DAY.match(str(text))
    if not match:
        raise ValueError(f"{text!r}: use el formato MM-DD (p. ej. 07-01)")
    month, day = int(match.group(1)), int(match.group(2))
    if not 1 <= month <= 12:
        raise ValueError(f"{text!r}: mes inválido")
    if not 1 <= day <= _DAYS_IN_MONTH[month - 1]:
        raise ValueError(f"{text!r}: día inválido para ese mes (el 29 de febrero no existe todos los años)")
    return month, day


def normalize_month_days(values: Iterable[str]) -> list[str]:
    """Validated, de-duplicated "MM-DD" strings in fiscal-year order (July first)."""
    parsed = {parse_month_day(v) for v in values if str(v).strip()}
    ordered = sorted(parsed, key=lambda md: ((md[0] - 7) % 12, md[1]))
    return [f"{m:02d}-{d:02d}" for m, d in ordered]


def due_dates_in_fiscal_year(month_days: Iterable[str], fiscal_year: int) -> list[date]:
    """The month-days as dates of FY`fiscal_year` (Jul–Dec in the year before, Jan–Jun in its year)."""
    days = []
    for text in month_days:
        month, day = parse_month_day(text)
        days.append(date(fiscal_year - 1 if month >= 7 else fiscal_year, month, day))
    return sorted(days)


def term_fiscal_years(first_fiscal_year: int, term_years: int) -> range:
    """The fiscal years during which a charge is imposed."""
    return range(first_fiscal_year, first_fiscal_year + term_years)


def installments(amount: Decimal, due_dates: list[date]) -> list[tuple[date, Decimal]]:
    """An annual charge over the year's due dates, equal parts to the cent (largest remainder)."""
    if not due_dates:
        return []
    parts = apportion(amount, [(i, Decimal(1)) for i in range(len(due_dates))])
    return [(d, parts[i]) for i, d in enumerate(due_dates)]


# --- SID-2 / TID-4: the first notice within the term, then yearly ------------------------------

def notice_schedule(clock: Clock, start: date, rounds: int, holidays: Set[date]) -> list[Deadline]:
    """SID-2 / TID-4: the first notice round is due `clock` after `start`; each later round on the
    anniversary of that first (unmoved) due date, until the term's rounds are done. Every due date
    moves forward past weekends and holidays (DEADLINES)."""
    first = compute_due(clock, start, holidays)
    schedule = [first]
    base = unmoved_due(clock, start)
    for k in range(1, rounds):
        raw = add_months(base, 12 * k)
        due = business_day_on_or_after(raw, holidays)
        schedule.append(Deadline(clock=clock, start=start, due=due, moved_from=raw if due != raw else None))
    return schedule


def is_late(due: date | None, done_on: date | None, today: date) -> bool:
    """Late when done after the due date, or not done and the due date has passed."""
    if due is None:
        return False
    if done_on is not None:
        return done_on > due
    return today > due


# --- SID-5: refund when the project is not carried out ------------------------------------------

@dataclass(frozen=True)
class PaymentRow:
    """What an owner paid on a parcel (rows come from the payments ledger)."""

    parcel_id: int
    party_id: int
    paid: Decimal


@dataclass(frozen=True)
class RefundLine:
    parcel_id: int
    party_id: int
    paid: Decimal
    from_authority: Decimal  # the Authority's remitted 95 %
    from_fund: Decimal  # undistributed balance of the special fund
    from_crim: Decimal  # CRIM's 5 % retention, to be recovered from CRIM

    @property
    def total(self) -> Decimal:
        return self.from_authority + self.from_fund + self.from_crim


@dataclass(frozen=True)
class RefundPlan:
    lines: tuple[RefundLine, ...]
    total: Decimal
    from_authority: Decimal
    from_fund: Decimal
    from_crim: Decimal


class RefundError(ValueError):
    pass


def refund_plan(payments: Iterable[PaymentRow], *, crim_retained: Decimal, authority_remitted: Decimal) -> RefundPlan:
    """SID-5 (Decision): everything owners paid is refunded, gross; the sources are recorded apart.

    `crim_retained` is CRIM's 5 % kept on the collection batches, `authority_remitted` what CRIM
    already remitted to the Authority; the rest of what was paid is the fund's undistributed
    balance. Each source is apportioned over the owners' payments to the cent (largest remainder):
    first the part not in the fund (retention + remitted) by amount paid, then the retention within
    it by that part, so every line adds up to what that owner paid and every source to its total.
    """
    rows = list(payments)
    if not rows:
        raise RefundError("SID-5: indique los pagos de los dueños (parcela, persona, monto pagado).")
    keys = set()
    for r in rows:
        if r.paid <= 0:
            raise RefundError(f"SID-5: el monto pagado debe ser positivo (parcela {r.parcel_id}).")
        if r.paid != r.paid.quantize(Decimal("0.01")):
            raise RefundError(f"SID-5: monto con más de dos decimales (parcela {r.parcel_id}).")
        key = (r.parcel_id, r.party_id)
        if key in keys:
            raise RefundError(f"SID-5: pago repetido para la parcela {r.parcel_id} y la persona {r.party_id}.")
        keys.add(key)
    if crim_retained < 0 or authority_remitted < 0:
        raise RefundError("SID-5: las fuentes no pueden ser negativas.")
    total = sum((r.paid for r in rows), ZERO)
    outside_fund = crim_retained + authority_remitted
    if outside_fund > total:
        raise RefundError(
            f"SID-5: los pagos indicados ({total}) no cubren lo ya retenido por el CRIM ({crim_retained}) "
            f"y remitido a la Autoridad ({authority_remitted}).")
    outside = apportion(outside_fund, [((r.parcel_id, r.party_id), r.paid) for r in rows])
    crim = apportion(crim_retained, [((r.parcel_id, r.party_id), outside[(r.parcel_id, r.party_id)]) for r in rows]) \
        if outside_fund > 0 else {(r.parcel_id, r.party_id): ZERO for r in rows}
    lines = []
    for r in rows:
        key = (r.parcel_id, r.party_id)
        lines.append(RefundLine(parcel_id=r.parcel_id, party_id=r.party_id, paid=r.paid,
                                from_authority=outside[key] - crim[key], from_fund=r.paid - outside[key],
                                from_crim=crim[key]))
    return RefundPlan(lines=tuple(lines), total=total, from_authority=authority_remitted,
                      from_fund=total - outside_fund, from_crim=crim_retained)


# --- TID-1: the legislature's five factors -------------------------------------------------------

FACTORS = ("a", "b", "c", "d", "e")


def missing_or_unfavorable(findings: Mapping[str, bool]) -> tuple[list[str], list[str]]:
    """TID-1: (factors without a finding, factors found unfavorable)."""
    missing = [f for f in FACTORS if f not in findings]
    unfavorable = [f for f in FACTORS if findings.get(f) is False]
    return missing, unfavorable


# --- TID-5: the 5 % administrative cap, cumulative over the term ---------------------------------

@dataclass(frozen=True)
class AccountEntryFact:
    on: date
    kind: str  # DEPOSIT or EXPENSE
    amount: Decimal
    admin_expense: bool = False


@dataclass(frozen=True)
class CapOnDate:
    """A TID-5 check with the date it was made on and the collections to date it used."""

    on: date
    collected_to_date: Decimal
    check: AdminCapCheck

    @property
    def allowed(self) -> bool:
        return self.check.allowed


def admin_cap_on_timeline(entries: Iterable[AccountEntryFact], *, on: date, proposed: Decimal,
                          cap_pct: Decimal) -> CapOnDate:
    """TID-5 (Decision): an administrative expense dated `on` is allowed only if administrative
    expenses to date stay within `cap_pct` % of collections to date on its date and on every later
    date an administrative expense was already recorded (a back-dated expense cannot break a later
    day's cap). Returns the first check that fails, or the check on `on`."""
    facts = list(entries)
    checkpoints = sorted({on} | {f.on for f in facts if f.kind == "EXPENSE" and f.admin_expense and f.on > on})
    first = None
    for day in checkpoints:
        collected = sum((f.amount for f in facts if f.kind == "DEPOSIT" and f.on <= day), ZERO)
        spent = sum((f.amount for f in facts if f.kind == "EXPENSE" and f.admin_expense and f.on <= day), ZERO)
        result = CapOnDate(on=day, collected_to_date=collected,
                           check=admin_expense_check(collected, spent, proposed, cap_pct))
        if not result.allowed:
            return result
        if first is None:
            first = result
    return first
