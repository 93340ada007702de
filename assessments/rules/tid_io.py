"""`tid-charges` calculation (docs/compute.md) over rules.tid_formula (TID-2).

A bad formula, or one a parcel cannot be charged by (division by zero, negative charge), is
invalid input naming `field: "formula"` with its `position` and `reason`.
"""
from __future__ import annotations

from assessments.rules.tid_formula import FormulaError, TidParcel, compute_charges, parse
from core.compute_errors import ComputeInputError
from core.payload import json_decimal

NUMERIC_FIELDS = ("area_m2", "assessed_value", "frontage_m")
# The formula's derived variables and the recorded attribute they need.
SOURCE_FIELD = {"area_cuerdas": "area_m2", "area_acres": "area_m2"}


def _formula_error(exc: FormulaError) -> ComputeInputError:
    extra = {"position": exc.position, "reason": exc.reason}
    if exc.parcel is not None:
        extra["parcel"] = exc.parcel
    if exc.detail:
        extra["detail"] = exc.detail
    return ComputeInputError("formula", exc.message, **extra)


def _parcel(raw: object, index: int, needed: set[str]) -> TidParcel:
    path = f"parcels[{index}]"
    if not isinstance(raw, dict):
        raise ComputeInputError(path, "must be an object")
    if not isinstance(raw.get("id"), str) or not raw["id"]:
        raise ComputeInputError(f"{path}.id", "required (a non-empty string)")
    values: dict[str, object] = {}
    for name in NUMERIC_FIELDS:
        if raw.get(name) is None:
            if name in needed:
                raise ComputeInputError(f"{path}.{name}", "required by the formula")
            continue
        number = json_decimal(raw[name], f"{path}.{name}")
        if number < 0:
            raise ComputeInputError(f"{path}.{name}", "must not be negative")
        values[name] = number
    use_class = raw.get("use_class")
    if use_class is None and "use_class" in needed:
        raise ComputeInputError(f"{path}.use_class", "required by the formula")
    if use_class is not None and not isinstance(use_class, str):
        raise ComputeInputError(f"{path}.use_class", "must be a string")
    return TidParcel(id=raw["id"], use_class=use_class, **values)


def compute(payload: dict, params) -> dict:
    text = payload.get("formula")
    if not isinstance(text, str) or not text.strip():
        raise ComputeInputError("formula", "required (a non-empty string)")
    try:
        formula = parse(text)
    except FormulaError as exc:
        raise _formula_error(exc) from None
    raw_parcels = payload.get("parcels")
    if not isinstance(raw_parcels, list):
        raise ComputeInputError("parcels", "required (a list)")
    needed = {SOURCE_FIELD.get(name, name) for name in formula.names}
    parcels = [_parcel(raw, i, needed) for i, raw in enumerate(raw_parcels)]
    seen: set[str] = set()
    for i, parcel in enumerate(parcels):
        if parcel.id in seen:
            raise ComputeInputError(f"parcels[{i}].id", f"duplicate id {parcel.id!r}")
        seen.add(parcel.id)
    expected = None
    if payload.get("expected_amount") is not None:
        expected = json_decimal(payload["expected_amount"], "expected_amount")
        if expected < 0:
            raise ComputeInputError("expected_amount", "must not be negative")
    try:
        result = compute_charges(formula, parcels, expected)
    except FormulaError as exc:
        raise _formula_error(exc) from None
    return {
        "formula": text,
        "variables": sorted(formula.names),
        "parcels": [{"id": line.id, "charge": str(line.charge)} for line in result.parcels],
        "total": str(result.total),
        "expected_amount": str(expected) if expected is not None else None,
        "difference": str(result.difference) if result.difference is not None else None,
        "rule": "TID-2",
    }
