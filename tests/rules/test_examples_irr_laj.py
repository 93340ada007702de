"""The worked examples of irrigation-roll, lajas-roll and lajas-surcharge, through assessments.compute.run.

Compares every contract field exactly, as docs/compute.md#worked-examples describes (numbers as
Decimals, so "150" equals "150.0000"; parcel and line fields as the checker selects them).
Pure: no database.
"""
from __future__ import annotations

import json
from decimal import Decimal, InvalidOperation
from pathlib import Path

import pytest

from assessments.compute import run

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"
CALCULATIONS = ("irrigation-roll", "lajas-roll", "lajas-surcharge")
CONTRACT = {
    "irrigation-roll": ["hydro_income_certified", "base", "margin", "total", "surplus_carried", "billed_total",
                        "appropriation_needed", "parcels"],
    "lajas-roll": ["base", "margin", "total", "gravity_rate", "pumped_rate", "billed_total", "credits_total",
                   "credits_unfunded", "uncollected_not_liable", "parcels"],
    "lajas-surcharge": ["grace_end", "months", "surcharge", "portions"],
}
PARCEL_FIELDS = ["id", "share", "total", "gross", "credit", "net", "installments", "exempt_reason", "lines",
                 "charge", "amount", "paid_on", "months", "surcharge"]
LINE_FIELDS = ["period", "kind", "year", "basis", "due_date", "amount", "exempt_reason"]


def _cases():
    cases = []
    for path in sorted(EXAMPLES.glob("*.input.json")):
        calc = path.name.split(".")[0]
        if calc in CALCULATIONS:
            expected = path.with_name(path.name.replace(".input.", ".expected."))
            cases.append(pytest.param(calc, json.loads(path.read_text()), json.loads(expected.read_text()),
                                      id=path.name))
    for path in sorted(EXAMPLES.glob("*.cases.json")):
        calc = path.name.split(".")[0]
        if calc in CALCULATIONS:
            for i, case in enumerate(json.loads(path.read_text())):
                cases.append(pytest.param(calc, case["input"], case["expected"], id=f"{path.name}[{i}]"))
    return cases


def _norm(value):
    if isinstance(value, str):
        try:
            return Decimal(value)
        except InvalidOperation:
            return value
    if isinstance(value, list):
        return [_norm(v) for v in value]
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in value.items()}
    return value


def _compare(path: str, expected, got, problems: list[str]) -> None:
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            problems.append(f"{path}: expected an object, got {got!r}")
            return
        keys = list(expected)
        if path.endswith("]") and "lines" in path:
            keys = [k for k in keys if k in LINE_FIELDS]
        elif path.endswith("]"):
            keys = [k for k in keys if k in PARCEL_FIELDS or k in ("due_date", "amount", "id", "paid", "unpaid")]
        for key in keys:
            _compare(f"{path}.{key}", expected[key], got.get(key), problems)
    elif isinstance(expected, list) and expected and isinstance(expected[0], dict):
        if not isinstance(got, list) or len(got) != len(expected):
            problems.append(f"{path}: expected {len(expected)} items, got {got!r:.120}")
            return
        for i, (e, g) in enumerate(zip(expected, got, strict=True)):
            _compare(f"{path}[{i}]", e, g, problems)
    elif _norm(expected) != _norm(got):
        problems.append(f"{path}: expected {expected!r}, got {got!r}")


def test_the_examples_are_there():
    assert len(_cases()) == 8


@pytest.mark.parametrize(("calc", "payload", "expected"), _cases())
def test_example(calc, payload, expected):
    got = run(calc, payload)
    problems: list[str] = []
    for key in CONTRACT[calc]:
        if key in expected:
            _compare(key, expected[key], got.get(key), problems)
    assert problems == []
    assert got["calculation"] == calc


@pytest.mark.parametrize(("calc", "payload", "expected"), _cases())
def test_example_output_is_json_with_every_expected_key(calc, payload, expected):
    """Beyond the checker: every key of the expected output is present, with the same value."""
    got = json.loads(json.dumps(run(calc, payload)))
    problems: list[str] = []
    for key, value in expected.items():
        _compare(key, value, got.get(key), problems)
    assert problems == []
