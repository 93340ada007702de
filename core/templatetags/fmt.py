"""Puerto Rico number formats on pages and documents: $1,234.56 in both languages."""
from decimal import Decimal, InvalidOperation

from django import template

from core.money import round_half_up, to_decimal

register = template.Library()


@register.filter
def usd(value) -> str:
    if value in (None, ""):
        return "—"
    try:
        amount = round_half_up(Decimal(str(value)))
    except InvalidOperation:
        return str(value)
    sign = "-" if amount < 0 else ""
    return f"{sign}${abs(amount):,.2f}"


@register.filter
def num(value, places: int = 4) -> str:
    if value in (None, ""):
        return "—"
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    return f"{d:,.{int(places)}f}"


@register.filter
def plus(value, arg):
    """Exact sum of two amounts for display. Django's `add` tries int() first: 0.00 + 20.06 gave 20."""
    if value in (None, "") and arg in (None, ""):
        return None
    try:
        return to_decimal(value if value not in (None, "") else 0) + to_decimal(arg if arg not in (None, "") else 0)
    except (TypeError, ValueError):
        return value


@register.filter
def dmy(value) -> str:
    """A date, or an ISO date string kept in an engine's JSON ("2026-07-01"), as dd/mm/aaaa."""
    from datetime import date

    if value in (None, ""):
        return "—"
    if isinstance(value, str):
        try:
            value = date.fromisoformat(value[:10])
        except ValueError:
            return value
    return f"{value:%d/%m/%Y}"


@register.filter(name="word")
def word_filter(code) -> str:
    """`{{ line.exempt_reason|word }}`: the plain word for an engine's code (core/words.py)."""
    from core.words import word

    return word(code)


@register.filter(name="can")
def can_do(user, action: str) -> bool:
    """`{% if user|can:"certify" %}`: show a button only to a role the matrix allows (core.roles)."""
    from core.roles import can

    return can(user, action)
