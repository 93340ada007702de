"""`sid-remittance` calculation (docs/compute.md) over rules.sid (SID-3)."""
from __future__ import annotations

from decimal import Decimal

from assessments.rules.sid import remittance
from core.compute_errors import ComputeInputError
from core.payload import json_cents, optional_date, what_if
from core.rule_parameters import ParameterNotFound

FAMILY = "district_funds"


def compute(payload: dict, params) -> dict:
    params = what_if(payload, params)
    if payload.get("collected") is None:
        raise ComputeInputError("collected", "required")
    collected = json_cents(payload["collected"], "collected", what="an amount (a string such as \"1234.50\")",
                           noun="amount")
    on = optional_date(payload, "received_on")
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
