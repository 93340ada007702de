"""Receipts name the rule of every line they apply money to, and a Lajas receipt states the
contribution, the water-right credit and the net, as the statute has them stated (LAJ-3, LAJ-4)."""
from datetime import date
from decimal import Decimal

import pytest

from assessments.ledger.receipts import receipt_context
from assessments.ledger.services import payment_record
from assessments.models import Payment, Receivable
from assessments.rolls import services

pytestmark = pytest.mark.django_db


def test_a_lajas_receipt_names_the_rule_and_shows_contribution_credit_and_net(lajas_figures, staff_user,
                                                                              approver_user):
    roll = services.roll_generate(district_code=lajas_figures.district.code, fiscal_year=2027,
                                  actor=staff_user).roll
    services.roll_certify(roll=roll, actor=approver_user, on=date(2026, 6, 20))
    rec = (Receivable.objects.filter(kind=Receivable.Kind.ROLL_LINE, breakdown__credit__gt="0")
           .exclude(breakdown__credit="0.00").order_by("id").first())
    assert rec is not None
    payment = payment_record(account=rec.account, amount="25.00", method="CASH", paid_on=date(2026, 7, 2),
                             idempotency_key="receipt-rules-1", batch=None, actor=staff_user, payer=None,
                             source=Payment.Source.API)
    lines = [line for line in receipt_context(payment)["lines"] if line["rule"]]
    assert lines and all(line["rule"].startswith("LAJ-") for line in lines)
    parts = lines[0]["lajas"]
    assert parts["gross"] - parts["credit"] == parts["net"] == Decimal(rec.breakdown["net"])
    assert parts["credit"] > 0
