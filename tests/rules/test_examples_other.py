"""The worked examples (docs/compute.md#worked-examples; the data is tests/data/examples) for the
deadline, tid-charges, franchise-tariff, lien-ranking and sid-remittance calculations.

Each runs through assessments.compute.run, the code `manage.py compute` runs; every field of the
expected output must match exactly. An expected {"error": {...}} means the input is refused
(ComputeInputError) naming that field, with the same position and message when the example gives
them.
"""
import json
from pathlib import Path

import pytest

from assessments.compute import ComputeInputError, run

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"
CALCULATIONS = ("deadline", "tid-charges", "franchise-tariff", "lien-ranking", "sid-remittance")


def load_cases():
    cases = []
    for calc in CALCULATIONS:
        for path in sorted(EXAMPLES.glob(f"{calc}.*.input.json")):
            expected = path.with_name(path.name.replace(".input.", ".expected."))
            cases.append(pytest.param(calc, json.loads(path.read_text()), json.loads(expected.read_text()),
                                      id=path.name.removesuffix(".input.json")))
        for path in sorted(EXAMPLES.glob(f"{calc}.cases.json")):
            for i, case in enumerate(json.loads(path.read_text())):
                cases.append(pytest.param(calc, case["input"], case["expected"], id=f"{calc}[{i}]"))
    return cases


CASES = load_cases()


def test_every_example_file_is_found():
    assert len(CASES) == 10 + 7 + 9 + 4 + 1


@pytest.mark.parametrize(("calc", "payload", "expected"), CASES)
def test_example(calc, payload, expected):
    if "error" in expected:
        with pytest.raises(ComputeInputError) as exc:
            run(calc, payload)
        got = exc.value.as_json()["error"]
        assert {k: got.get(k) for k in expected["error"]} == expected["error"]
        return
    got = run(calc, payload)
    assert {k: got.get(k) for k in expected} == expected
