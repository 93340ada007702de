"""Area conversions, exact through square metres (docs/rules/README.md#areas).

1 cuerda = 3,930.395625 m²; 1 acre = 4,046.8564224 m². Never a rounded factor: an area is
stored as recorded (m² or cuerdas), converted to m² exactly (a product of two finite decimals),
and only then divided once, at high precision, and rounded half-up to 4 decimals — the acres the
irrigation engines take (`engine_acres`). Pure.
"""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Context, Decimal

M2_PER_CUERDA = Decimal("3930.395625")
M2_PER_ACRE = Decimal("4046.8564224")
FOUR_PLACES = Decimal("0.0001")

UNITS = ("m2", "cuerdas", "acres")

# Enough digits that a single division never rounds before the final half-up to 4 places:
# areas are at most ~12 integer digits, so 60 significant digits leave dozens to spare.
_EXACT = Context(prec=60)


def m2_from_cuerdas(cuerdas: Decimal) -> Decimal:
    """Exact: a product of finite decimals."""
    return _EXACT.multiply(cuerdas, M2_PER_CUERDA)


def m2_from_acres(acres: Decimal) -> Decimal:
    """Exact: a product of finite decimals."""
    return _EXACT.multiply(acres, M2_PER_ACRE)


def cuerdas_from_m2(m2: Decimal) -> Decimal:
    """Cuerdas rounded half-up to 4 decimals, for display beside the acres."""
    return _EXACT.divide(m2, M2_PER_CUERDA).quantize(FOUR_PLACES, rounding=ROUND_HALF_UP)


def acres_from_m2(m2: Decimal) -> Decimal:
    """Acres rounded half-up to 4 decimals: what the irrigation engines take."""
    return _EXACT.divide(m2, M2_PER_ACRE).quantize(FOUR_PLACES, rounding=ROUND_HALF_UP)


def acres_from_cuerdas(cuerdas: Decimal) -> Decimal:
    """Acres (4 decimals, half-up) of an area recorded in cuerdas, through exact m²."""
    return acres_from_m2(m2_from_cuerdas(cuerdas))


def cuerdas_from_acres(acres: Decimal) -> Decimal:
    """Cuerdas (4 decimals, half-up) of an area recorded in acres, through exact m²."""
    return cuerdas_from_m2(m2_from_acres(acres))


def to_m2(value: Decimal, unit: str) -> Decimal:
    """Exact square metres of an area recorded in `unit` (one of UNITS)."""
    if unit == "m2":
        return value
    if unit == "cuerdas":
        return m2_from_cuerdas(value)
    if unit == "acres":
        return m2_from_acres(value)
    raise ValueError(f"unknown area unit {unit!r}; one of {', '.join(UNITS)}")


def engine_acres(value: Decimal, unit: str) -> Decimal:
    """The acres an engine is fed: recorded area → exact m² → acres rounded half-up to 4 places.

    An area already recorded in acres is only rounded (no detour through m², which could only
    add digits that the rounding removes again).
    """
    if unit == "acres":
        return value.quantize(FOUR_PLACES, rounding=ROUND_HALF_UP)
    return acres_from_m2(to_m2(value, unit))
