"""Typed reads from a calculation's JSON payload (docs/compute.md), shared by every `*_io` module.

Every refusal is a `ComputeInputError` naming the JSON path of the field ("parcels[2].acres",
"liens[0].amount"), which the `compute` command and the API turn into exit 2 / HTTP 400.

Two number readers, because the contracts differ: `to_number` (the roll engines) takes only
strings and integers, never a float; `json_decimal` (tariffs, liens, remittances, TID) also
takes a JSON number and reads it by its decimal literal, so 0.1 is exactly Decimal("0.1").
"""
from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation

from core.compute_errors import ComputeInputError
from core.money import CENT, to_decimal
from core.rule_parameters import ExplicitParameters, ParameterSource

# Beyond these no land charge, area or date is real, and the arithmetic would overflow (a 500, not a 400).
MAX_MAGNITUDE = Decimal("1e15")
FIRST_DATE, LAST_DATE = date(1800, 1, 1), date(2999, 12, 31)


def _bounded(number: Decimal, where: str, value: object) -> Decimal:
    if abs(number) >= MAX_MAGNITUDE:
        raise ComputeInputError(where, f"too large: must be less than 10^15, got {value!r}")
    return number


def to_number(value: object, where: str, *, places: int | None = None, minimum: Decimal | None = None,
              maximum: Decimal | None = None, what: str = "a number") -> Decimal:
    """A number written as a string (or an integer); never a float."""
    if isinstance(value, (bool, float)) or not isinstance(value, (str, int)):
        raise ComputeInputError(where, f"must be {what} written as a string, e.g. \"12.50\"; got {value!r}")
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        raise ComputeInputError(where, f"not a number: {value!r}") from None
    if not number.is_finite():
        raise ComputeInputError(where, f"not a finite number: {value!r}")
    _bounded(number, where, value)
    if places is not None and number != number.quantize(Decimal(1).scaleb(-places)):
        raise ComputeInputError(where, f"at most {places} decimals: {value!r}")
    if minimum is not None and number < minimum:
        raise ComputeInputError(where, "must not be negative" if minimum == 0 else f"must be at least {minimum}")
    if maximum is not None and number > maximum:
        raise ComputeInputError(where, f"must be at most {maximum}")
    return number


def json_decimal(value: object, where: str, *, what: str = "a number", noun: str = "number",
                 non_negative: bool = False) -> Decimal:
    """A JSON number or numeric string; `what`/`noun` word the refusal ("a number of gallons")."""
    if isinstance(value, float):
        value = repr(value)  # a JSON number: read by its decimal literal
    try:
        number = to_decimal(value)
    except (TypeError, ValueError):
        raise ComputeInputError(where, f"must be {what}") from None
    if non_negative and (not number.is_finite() or number < 0):
        raise ComputeInputError(where, f"must be a non-negative {noun}")
    if not number.is_finite():
        raise ComputeInputError(where, f"must be a finite {noun}")
    return _bounded(number, where, value)


def json_cents(value: object, where: str, *, what: str = "a number", noun: str = "number") -> Decimal:
    """A non-negative amount in whole cents, quantized to two places."""
    amount = json_decimal(value, where, what=what, noun=noun, non_negative=True)
    if amount != amount.quantize(CENT):
        raise ComputeInputError(where, "must be a whole number of cents")
    return amount.quantize(CENT)


def to_date(value: object, where: str) -> date:
    """A date written YYYY-MM-DD (exactly ten characters: no week dates, no times)."""
    if not isinstance(value, str):
        raise ComputeInputError(where, f"must be an ISO date written YYYY-MM-DD, got {value!r}")
    try:
        if len(value) != 10:
            raise ValueError
        day = date.fromisoformat(value)
    except ValueError:
        raise ComputeInputError(where, f"not an ISO date (YYYY-MM-DD): {value!r}") from None
    if not FIRST_DATE <= day <= LAST_DATE:
        raise ComputeInputError(where, f"must be between {FIRST_DATE} and {LAST_DATE}, got {value!r}")
    return day


def optional_date(payload: dict, key: str, *, today: date | None = None) -> date:
    """`payload[key]` as a date; absent or null means today (the parameter date of a calculation)."""
    raw = payload.get(key)
    if raw is None or raw == "":
        return today or date.today()
    return to_date(raw, key)


def to_bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise ComputeInputError(where, "must be true or false")
    return value


def what_if(payload: dict, params: ParameterSource) -> ParameterSource:
    """The payload's own `parameters` ({family: {key: value}}), when given, over `params`."""
    overrides = payload.get("parameters")
    if not isinstance(overrides, dict):
        return params
    for family, values in overrides.items():    # a bad family must be a 400 naming it, not a TypeError later
        if not isinstance(values, dict):
            raise ComputeInputError(f"parameters.{family}", "must be an object {key: value}")
    return ExplicitParameters(overrides, params)


class PayloadReader:
    """Typed reads from one JSON object; `path` prefixes field names in errors ("parcels[2]")."""

    def __init__(self, obj: object, path: str = "") -> None:
        if not isinstance(obj, dict):
            raise ComputeInputError(path or "input", "must be a JSON object")
        self.obj = obj
        self.path = path

    def field(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def has(self, key: str) -> bool:
        return key in self.obj

    def raw(self, key: str, *, required: bool = True, default=None):
        if key not in self.obj:
            if required:
                raise ComputeInputError(self.field(key), "missing")
            return default
        return self.obj[key]

    def decimal(self, key: str, *, required: bool = True, places: int | None = None, minimum: Decimal | None = None,
                maximum: Decimal | None = None, what: str = "a number") -> Decimal | None:
        """A number written as a string (or an integer); never a float."""
        value = self.raw(key, required=required)
        if value is None and not required:
            return None
        return to_number(value, self.field(key), places=places, minimum=minimum, maximum=maximum, what=what)

    def money(self, key: str, *, required: bool = True, allow_negative: bool = False) -> Decimal | None:
        return self.decimal(key, required=required, places=2, minimum=None if allow_negative else Decimal(0),
                            what="an amount")

    def date(self, key: str, *, required: bool = True, nullable: bool = False) -> date | None:
        value = self.raw(key, required=required)
        if value is None:
            if nullable or not required:
                return None
            raise ComputeInputError(self.field(key), "must be a date (YYYY-MM-DD), not null")
        return to_date(value, self.field(key))

    def integer(self, key: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
        value = self.raw(key)
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ComputeInputError(self.field(key), f"must be a whole number, got {value!r}")
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            raise ComputeInputError(self.field(key), f"must be between {minimum} and {maximum}")
        return value

    def items(self, key: str, *, required: bool = True) -> list:
        value = self.raw(key, required=required, default=[])
        if not isinstance(value, list):
            raise ComputeInputError(self.field(key), "must be a list")
        return value
