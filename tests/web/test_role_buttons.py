"""Buttons follow the role matrix: a cashier is not offered what the server would refuse."""
import pytest

from core.templatetags.fmt import can_do

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("role", "action", "allowed"), [
    ("cashier", "certify", False), ("cashier", "pay", True), ("approver", "certify", True),
    ("approver", "finalize", True), ("staff", "certify", False), ("staff", "request", True),
    ("auditor", "decide", False), ("approver", "decide", True),
])
def test_the_can_filter_is_the_matrix(make_user, role, action, allowed):
    assert can_do(make_user(f"u-{role}-{action}", role), action) is allowed
