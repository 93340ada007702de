"""The layering of docs/architecture.md for the pieces moved to core (compute errors, parameters, payload readers)."""
from __future__ import annotations

import ast
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from core.compute_errors import ComputeInputError
from core.daycount import add_months, days_in_month
from core.payload import json_cents, json_decimal, optional_date, to_bool, to_date, what_if
from core.rule_parameters import ExplicitParameters, ShippedParameters, shipped_parameters_dir, shipped_versions

ROOT = Path(__file__).resolve().parents[2]


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("package", ["core", "liens"])
def test_lower_packages_never_import_assessments(package):
    offenders = {str(p.relative_to(ROOT)): sorted(m for m in _imported_modules(p) if m.split(".")[0] == "assessments")
                 for p in (ROOT / package).rglob("*.py") if "migrations" not in p.parts}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_old_names_still_importable():
    from assessments.compute import ComputeInputError as Old
    from assessments.rules import parameters as old_params
    from core import fiscal

    assert Old is ComputeInputError
    assert old_params.ShippedParameters is ShippedParameters
    assert fiscal.add_months is add_months


def test_shipped_dir_comes_from_the_setting(settings, tmp_path):
    assert shipped_parameters_dir() == Path(settings.SHIPPED_PARAMETERS_DIR)
    (tmp_path / "demo_family.json").write_text(
        '{"family": "demo_family", "versions": [{"version": "t-1", "effective_from": "2020-01-01", '
        '"values": {"x": "1"}}]}', encoding="utf-8")
    settings.SHIPPED_PARAMETERS_DIR = tmp_path
    assert [v.version for v in shipped_versions("demo_family")] == ["t-1"]
    assert ShippedParameters().get("demo_family", date(2026, 1, 1)).values == {"x": "1"}
    assert shipped_versions("irr_schedule") == ()  # not in the tmp folder


@pytest.mark.parametrize(("start", "months", "expected"), [
    ("2026-08-31", 6, "2027-02-28"), ("2027-08-31", 6, "2028-02-29"), ("2026-08-31", 1, "2026-09-30"),
    ("2024-02-29", 12, "2025-02-28"), ("2026-01-15", -13, "2024-12-15"), ("2000-01-31", 1, "2000-02-29"),
    ("1900-01-31", 1, "1900-02-28"),
])
def test_one_add_months(start, months, expected):
    assert add_months(date.fromisoformat(start), months) == date.fromisoformat(expected)


def test_days_in_month_agrees_with_calendar():
    import calendar

    for year in (1900, 2000, 2023, 2024, 2100):
        for month in range(1, 13):
            assert days_in_month(year, month) == calendar.monthrange(year, month)[1]


@pytest.mark.parametrize(("value", "kwargs", "expected"), [
    ("12.50", {}, Decimal("12.50")), (0.1, {}, Decimal("0.1")), (3, {}, Decimal(3)), ("-2", {}, Decimal(-2)),
])
def test_json_decimal_reads(value, kwargs, expected):
    assert json_decimal(value, "x", **kwargs) == expected


@pytest.mark.parametrize(("value", "kwargs", "message"), [
    ("many", {}, "must be a number"),
    ("-1", {"non_negative": True, "what": "a number of gallons", "noun": "number of gallons"},
     "must be a non-negative number of gallons"),
    ("Infinity", {}, "must be a finite number"),
    (None, {}, "must be a number"),
])
def test_json_decimal_refuses_naming_the_field(value, kwargs, message):
    with pytest.raises(ComputeInputError) as err:
        json_decimal(value, "parcels[3].area_m2", **kwargs)
    assert (err.value.field, err.value.message) == ("parcels[3].area_m2", message)


def test_json_cents():
    assert json_cents("10", "amount") == Decimal("10.00")
    with pytest.raises(ComputeInputError, match="whole number of cents"):
        json_cents("10.005", "amount")
    with pytest.raises(ComputeInputError, match="non-negative"):
        json_cents("-1", "amount")


def test_dates_and_flags():
    assert to_date("2026-07-01", "as_of") == date(2026, 7, 1)
    for bad in ("20260701", "2026-7-1", None, 20260701, "2026-02-30"):
        with pytest.raises(ComputeInputError) as err:
            to_date(bad, "as_of")
        assert err.value.field == "as_of"
    assert optional_date({}, "as_of", today=date(2026, 1, 2)) == date(2026, 1, 2)
    assert optional_date({"as_of": "2025-01-01"}, "as_of") == date(2025, 1, 1)
    assert to_bool(True, "explain") is True
    with pytest.raises(ComputeInputError, match="true or false"):
        to_bool("yes", "explain")


def test_what_if_wraps_only_objects():
    base = ShippedParameters()
    assert what_if({}, base) is base
    assert what_if({"parameters": "x"}, base) is base
    assert isinstance(what_if({"parameters": {"deadlines": {}}}, base), ExplicitParameters)


def test_what_if_with_a_family_that_is_not_an_object_names_it():
    import pytest

    from core.compute_errors import ComputeInputError
    from core.payload import what_if

    with pytest.raises(ComputeInputError) as err:
        what_if({"parameters": {"deadlines": "x"}}, params=None)
    assert err.value.field == "parameters.deadlines"
