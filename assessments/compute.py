"""The calculation interface of docs/compute.md, without Django.

`run(name, payload)` validates a JSON-like payload, calls the pure rule engine and returns
a JSON-ready dict (money and areas as strings, dates ISO). Invalid input raises
`ComputeInputError` naming the field; the command and the API turn it into exit 2 / HTTP 400.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

# Re-exported: the error lives in core so apps below assessments (liens) can raise it.
from core.compute_errors import ComputeInputError

__all__ = ["CALCULATIONS", "ComputeInputError", "run"]


# name -> "module:function"; each function takes (payload: dict, params: ParameterSource) -> dict
CALCULATIONS: dict[str, str] = {
    "irrigation-roll": "assessments.rules.irrigation_io:compute",
    "lajas-roll": "assessments.rules.lajas_io:compute_roll",
    "lajas-surcharge": "assessments.rules.lajas_io:compute_surcharge",
    "deadline": "assessments.rules.deadlines_io:compute",
    "tid-charges": "assessments.rules.tid_io:compute",
    "franchise-tariff": "assessments.rules.franchise_io:compute",
    "lien-ranking": "liens.rules_io:compute",
    "sid-remittance": "assessments.rules.sid_io:compute",
}


def _resolve(name: str) -> Callable[..., dict]:
    module, func = CALCULATIONS[name].split(":")
    return getattr(importlib.import_module(module), func)


def run(name: str, payload: Any, params=None) -> dict:
    """Compute `name` over `payload`. `params` is a ParameterSource (shipped files by default)."""
    from core.rule_parameters import ShippedParameters

    if name not in CALCULATIONS:
        raise ComputeInputError("calculation", f"unknown calculation {name!r}; one of {', '.join(CALCULATIONS)}")
    if not isinstance(payload, dict):
        raise ComputeInputError("input", "the input must be a JSON object")
    result = _resolve(name)(payload, params or ShippedParameters())
    return {"calculation": name, **result}
