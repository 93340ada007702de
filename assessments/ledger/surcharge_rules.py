"""Late-payment surcharges over dated events, for every charge kind. Pure: no ORM, Decimal only.

A receivable names its rule (`surcharge_rule`):

- ``NONE`` — no surcharge.
- ``LAJ-7`` — the Lajas engine (`assessments.rules.lajas.surcharge`): 0.5 % per month or fraction
  of a month from grace_end = due + 60 days; each portion paid accrues to its own payment day.
- ``IRR-9`` — irrigation quotas are delinquent "in the form and on the dates" of the property-tax
  law: the administrator enters parameter family ``irr_delinquency`` with its citation. Until it
  exists no surcharge is charged and the result says so.
- ``RESOLUTION`` — SID-1: the resolution's own terms, stored on the receivable.

``irr_delinquency`` and resolution terms share one shape (numbers as strings):
``grace_days`` (days after the due date before the amount is delinquent), ``surcharge_pct``
(charged once when delinquent), ``interest_pct_per_month`` (per month or fraction of a month
from the end of grace, counted as LAJ-7 counts them). For a portion ``x`` paid on day ``d``:
``round_half_up(x × (surcharge_pct + interest_pct_per_month × months) / 100)``, 0 when ``d`` is
on or before the end of grace.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from assessments.rules.lajas import LajasRules, months_late, surcharge
from core.money import CENT, ZERO, round_half_up

NONE = "NONE"
LAJ7 = "LAJ-7"
IRR9 = "IRR-9"
RESOLUTION = "RESOLUTION"
# An `irr_delinquency` version with {"none_apply": "true"}: an administrator recorded that the
# property-tax law gives no delinquency terms to apply (IRR-9; assessments/rolls/irr9.py).
NONE_APPLY = "none_apply"


def records_none_apply(values: dict) -> bool:
    return str((values or {}).get(NONE_APPLY, "")).strip().lower() in {"true", "sí", "si", "yes", "1"}


@dataclass(frozen=True)
class SurchargeTerms:
    """How one installment accrues surcharge: the rule, its figures and where they come from."""

    rule: str
    active: bool
    grace_days: int = 0
    surcharge_pct: Decimal = Decimal(0)
    interest_pct_per_month: Decimal = Decimal(0)
    lajas: LajasRules | None = field(default=None, compare=False)
    citation: str = ""
    parameters: tuple[str, ...] = ()
    note: str = ""          # shown to staff, e.g. why no surcharge is charged

    def grace_end(self, due_date: date) -> date:
        if self.lajas is not None:
            return due_date + timedelta(days=self.lajas.grace_days)
        return due_date + timedelta(days=self.grace_days)


INACTIVE = SurchargeTerms(rule=NONE, active=False)


class TermsError(ValueError):
    pass


def generic_terms(rule: str, values: dict, citation: str = "", parameters: tuple[str, ...] = ()) -> SurchargeTerms:
    """Terms from an ``irr_delinquency`` version or a SID resolution (see the module docstring)."""
    def number(key: str) -> Decimal:
        raw = values.get(key, "0")
        if isinstance(raw, (bool, float)):
            raise TermsError(f"{key}: write numbers as strings")
        try:
            value = Decimal(str(raw).strip())
        except ArithmeticError:
            raise TermsError(f"{key}: not a number: {raw!r}") from None
        if not value.is_finite() or value < 0:
            raise TermsError(f"{key}: must be a number ≥ 0")
        return value

    grace = number("grace_days")
    if grace != grace.to_integral_value():
        raise TermsError("grace_days: a whole number of days")
    return SurchargeTerms(rule=rule, active=True, grace_days=int(grace), surcharge_pct=number("surcharge_pct"),
                          interest_pct_per_month=number("interest_pct_per_month"),
                          citation=citation or str(values.get("citation", "")), parameters=parameters)


def lajas_terms(rules: LajasRules, citation: str) -> SurchargeTerms:
    return SurchargeTerms(rule=LAJ7, active=True, lajas=rules, citation=citation,
                          parameters=tuple(v.label() for v in rules.versions))


def months_after_grace(terms: SurchargeTerms, due_date: date, paid_on: date) -> int:
    return months_late(terms.grace_end(due_date), paid_on)


def portion_surcharge(terms: SurchargeTerms, amount: Decimal, due_date: date, paid_on: date) -> Decimal:
    """The surcharge on `amount` of an installment due `due_date`, paid (or counted) to `paid_on`."""
    if not terms.active or amount <= 0:
        return ZERO
    if terms.lajas is not None:
        return surcharge(amount, due_date, paid_on, terms.lajas).surcharge
    if paid_on <= terms.grace_end(due_date):
        return ZERO
    months = months_after_grace(terms, due_date, paid_on)
    pct = terms.surcharge_pct + terms.interest_pct_per_month * months
    return round_half_up(amount * pct / 100)


def largest_portion(terms: SurchargeTerms, available: Decimal, open_principal: Decimal, due_date: date,
                    paid_on: date) -> tuple[Decimal, Decimal]:
    """(principal, surcharge): the most principal `available` pays together with its own surcharge.

    docs/rules/README.md#payments: within an installment the surcharge is paid first, then the installment;
    with LAJ-7's portions each portion paid carries the surcharge accrued on it to that day. So
    a payment that cannot cover everything pays the largest x ≤ open principal with
    x + surcharge(x) ≤ available (surcharge(x) is non-decreasing in x: binary search on cents).
    """
    if available <= 0 or open_principal <= 0:
        return ZERO, ZERO
    full = portion_surcharge(terms, open_principal, due_date, paid_on)
    if open_principal + full <= available:
        return open_principal, full
    lo, hi = 0, int(min(open_principal, available) / CENT)   # in cents: lo fits, hi may not
    while lo < hi:
        mid = (lo + hi + 1) // 2
        x = Decimal(mid) * CENT
        if x + portion_surcharge(terms, x, due_date, paid_on) <= available:
            lo = mid
        else:
            hi = mid - 1
    x = (Decimal(lo) * CENT).quantize(CENT)
    return x, portion_surcharge(terms, x, due_date, paid_on)
