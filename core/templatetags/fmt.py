"""Puerto Rico number formats on pages and documents: $1,234.56 in both languages."""
from decimal import Decimal, InvalidOperation

from django import template

from core.money import round_half_up

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


@register.filter(name="can")
def can_do(user, action: str) -> bool:
    """`{% if user|can:"certify" %}`: show a button only to a role the matrix allows (core.roles)."""
    from core.roles import can

    return can(user, action)
