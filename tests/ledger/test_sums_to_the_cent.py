"""Statuses decided by a database SUM are decided to the cent (SQLite sums decimal columns as floats)."""
from datetime import date
from decimal import Decimal

import pytest
from django.db.models import Sum

from assessments.ledger.services import payment_record
from assessments.models import LedgerEntry
from core.money import sum_cents
from tests.ledger.conftest import assert_balances_consistent

D = Decimal
pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("value", "expected"), [
    (None, D("0.00")), (0.1 + 0.2, D("0.30")), (D("0.300000000000000"), D("0.30")), (5.551115123125783e-17, D("0.00")),
    (D("1234567.885"), D("1234567.89")), (D("-0.005"), D("-0.01")), (0, D("0.00")),
])
def test_sum_cents(value, expected):
    got = sum_cents(value)
    assert got == expected and got.as_tuple().exponent == -2


def test_cents_paid_in_pieces_leave_the_receivable_paid(account, charge, batch, cashier):
    """0.10 + 0.20 - 0.30 is 5.5e-17 in floats: the receivable must still be PAID, the sum exactly zero."""
    rec = charge([(date(2025, 7, 1), "0.30")])
    for i, amount in enumerate(("0.10", "0.20")):
        payment_record(account=account, amount=D(amount), method="CASH", paid_on=date(2025, 6, 1), payer="Ana",
                       idempotency_key=f"piece-{i}", batch=batch, actor=cashier)
    rec.refresh_from_db()
    assert rec.status == "PAID"
    assert sum_cents(LedgerEntry.objects.filter(receivable=rec).aggregate(t=Sum("amount"))["t"]) == D("0.00")
    assert_balances_consistent()
