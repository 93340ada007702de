"""SID-3 remittance and the TID-5 administrative cap: pure tables, no database."""
from decimal import Decimal

import pytest

from assessments.compute import ComputeInputError, run
from assessments.rules.sid import admin_expense_check, remittance

FIVE = Decimal("5")


@pytest.mark.parametrize(("collected", "retained", "remitted"), [
    ("10000.10", "500.01", "9500.09"),  # 500.005, rounded half-up once on the batch
    ("0.00", "0.00", "0.00"),
    ("0.10", "0.01", "0.09"),  # 0.005
    ("0.09", "0.00", "0.09"),  # 0.0045
    ("199.90", "10.00", "189.90"),  # 9.995
    ("1234567.89", "61728.39", "1172839.50"),  # 61728.3945
])
def test_remittance(collected, retained, remitted):
    result = remittance(Decimal(collected), FIVE)
    assert (str(result.retained), str(result.remitted)) == (retained, remitted)
    assert result.retained + result.remitted == Decimal(collected)


def test_remittance_refuses_negative_collections():
    with pytest.raises(ValueError):
        remittance(Decimal("-0.01"), FIVE)


@pytest.mark.parametrize(("collected", "spent", "proposed", "allowed", "cap", "available"), [
    ("10000.00", "400.00", "100.00", True, "500.00", "100.00"),  # exactly at the cap
    ("10000.00", "400.00", "100.01", False, "500.00", "100.00"),
    ("10000.10", "0.00", "500.01", True, "500.01", "500.01"),  # cap 500.005 rounds half-up
    ("0.00", "0.00", "0.01", False, "0.00", "0.00"),
    ("1000.00", "60.00", "0.00", False, "50.00", "-10.00"),  # already over: nothing more is allowed
])
def test_admin_cap_is_cumulative(collected, spent, proposed, allowed, cap, available):
    check = admin_expense_check(Decimal(collected), Decimal(spent), Decimal(proposed), FIVE)
    assert (check.allowed, str(check.cap), str(check.available)) == (allowed, cap, available)
    assert check.spent_after == Decimal(spent) + Decimal(proposed)
    assert ("TID-5" in check.reason) is not allowed


def test_admin_cap_refuses_a_negative_expense():
    with pytest.raises(ValueError):
        admin_expense_check(Decimal("100"), Decimal("0"), Decimal("-1"), FIVE)


def test_sid_remittance_calculation():
    out = run("sid-remittance", {"collected": "199.90"})
    assert (out["retained"], out["remitted"], out["rule"]) == ("10.00", "189.90", "SID-3")
    assert out["parameters"] == ["district_funds@statutes-1"]


def test_what_if_retention():
    what_if = {"district_funds": {"sid_crim_retention_pct": "4"}}
    out = run("sid-remittance", {"collected": "100.00", "parameters": what_if})
    assert (out["retained"], out["remitted"]) == ("4.00", "96.00")


@pytest.mark.parametrize(("payload", "field"), [
    ({}, "collected"),
    ({"collected": "abc"}, "collected"),
    ({"collected": "-1.00"}, "collected"),
    ({"collected": "1.005"}, "collected"),
    ({"collected": True}, "collected"),
    ({"collected": "1.00", "received_on": "yesterday"}, "received_on"),
])
def test_invalid_input(payload, field):
    with pytest.raises(ComputeInputError) as exc:
        run("sid-remittance", payload)
    assert exc.value.field == field
