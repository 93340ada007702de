"""`sid-remittance` calculation (contracts/compute.md) over rules.sid (SID-3)."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from assessments.compute import ComputeInputError
from assessments.rules.parameters import ExplicitParameters, ParameterNotFound
from assessments.rules.sid import remittance
from core.money import CENT, to_decimal

FAMILY = "district_funds"


def _money(value: object, field: str) -> Decimal:
    if isinstance(value, float):
        value = repr(value)  # a JSON number: read by its decimal literal
    try:
        amount = to_decimal(value)
    except (TypeError, ValueError):
        raise ComputeInputError(field, "must be an amount (a string such as \"1234.50\")") from None
    if not amount.is_finite() or amount < 0:
        raise ComputeInputError(field, "must be a non-negative amount")
    if amount != amount.quantize(CENT):
        raise ComputeInputError(field, "must be a whole number of cents")
    return amount.quantize(CENT)


def compute(payload: dict, params) -> dict:
    if isinstance(payload.get("parameters"), dict):
        params = ExplicitParameters(payload["parameters"], params)
    if payload.get("collected") is None:
        raise ComputeInputError("collected", "required")
    collected = _money(payload["collected"], "collected")
    try:
        on = date.fromisoformat(payload["received_on"]) if payload.get("received_on") else date.today()
    except (TypeError, ValueError):
        raise ComputeInputError("received_on", "must be an ISO date (YYYY-MM-DD)") from None
    try:
        version = params.get(FAMILY, on)
        pct = Decimal(version.values["sid_crim_retention_pct"])
    except ParameterNotFound as exc:
        raise ComputeInputError("received_on", str(exc)) from None
    except (KeyError, TypeError, ArithmeticError) as exc:
        raise ComputeInputError("parameters", f"invalid {FAMILY} parameters: {exc}") from None
    result = remittance(collected, pct)
    return {
        "collected": str(result.collected),
        "retention_pct": str(pct),
        "retained": str(result.retained),
        "remitted": str(result.remitted),
        "rule": "SID-3",
        "parameters": [version.label()],
    }
