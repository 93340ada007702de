"""Pure checks on register facts (IRR-4, LAJ-4); no ORM."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.utils.translation import gettext as _


def add_years(day: date, years: int) -> date:
    """Same day `years` later; Feb 29 falls back to Feb 28 in a common year."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)


def membership_errors(*, included_on: date | None, free_period_end: date | None,
                      first_water_on: date | None, credit_pct: Decimal | None) -> dict[str, str]:
    """IRR-4: E may not be earlier than inclusion + 1 year; first water may not precede inclusion."""
    errors: dict[str, str] = {}
    if included_on and included_on.year >= date.max.year:  # a year later would not exist
        errors["included_on"] = _("La fecha %(date)s está fuera de rango.") % {"date": included_on.isoformat()}
    elif included_on and free_period_end and free_period_end < add_years(included_on, 1):
        errors["free_period_end"] = _(
            "IRR-4: el período libre no puede terminar antes de un año después de la inclusión "
            "(%(date)s).") % {"date": add_years(included_on, 1).isoformat()}
    if included_on and first_water_on and first_water_on < included_on:
        errors["first_water_on"] = _("IRR-4: los doce meses se cuentan solo después de la inclusión.")
    if credit_pct is not None and not (Decimal("0") <= credit_pct <= Decimal("100")):
        errors["credit_pct"] = _("LAJ-4: el porcentaje de crédito debe estar entre 0 y 100.")
    return errors
