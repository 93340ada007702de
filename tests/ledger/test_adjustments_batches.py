"""Four eyes on adjustments, write-offs and refunds; cashier batches that close only when balanced."""
from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from assessments.ledger.services import (
    BatchUnbalanced,
    adjustment_approve,
    adjustment_reject,
    adjustment_request,
    batch_close,
    batch_open,
    credit_refund_approve,
    credit_refund_request,
    payment_record,
    statement,
)
from assessments.models import Adjustment, CashierBatch, LedgerEntry
from liens.models import Lien
from tests.ledger.conftest import assert_balances_consistent

D = Decimal
pytestmark = pytest.mark.django_db


def test_approval_by_the_requester_is_refused(account, charge, staff_user):
    rec = charge([(date(2025, 7, 1), "100.00")])
    inst = rec.installments.get()
    adj = adjustment_request(kind="ADJUSTMENT", account=account, installment=inst, amount=D("-10.00"),
                             reason="Error de cabida", actor=staff_user)
    with pytest.raises(ValidationError, match="propia"):
        adjustment_approve(adjustment=adj, actor=staff_user)
    adj.refresh_from_db()
    assert adj.status == "PENDING" and LedgerEntry.objects.count() == 1


def test_write_off_by_the_same_person_is_refused_and_by_another_releases_the_lien(account, charge, staff_user,
                                                                                   approver):
    rec = charge([(date(2025, 7, 1), "100.00")], lien=True)
    adj = adjustment_request(kind="WRITE_OFF", account=account, receivable=rec, amount=D("100.00"),
                             reason="Incobrable", actor=staff_user)
    with pytest.raises(ValidationError):
        adjustment_approve(adjustment=adj, actor=staff_user)
    adjustment_approve(adjustment=adj, actor=approver)
    rec.refresh_from_db()
    account.refresh_from_db()
    assert (rec.status, account.balance) == ("WRITTEN_OFF", D("0.00"))
    assert Lien.objects.get().status == "RELEASED"
    assert_balances_consistent()


def test_adjustment_approved_posts_and_cannot_be_decided_twice(account, charge, staff_user, approver):
    rec = charge([(date(2025, 7, 1), "100.00")])
    adj = adjustment_request(kind="ADJUSTMENT", account=account, installment=rec.installments.get(),
                             amount=D("-12.34"), reason="Corrección IRR-8", actor=staff_user,
                             effective_date=date(2025, 8, 1))
    adjustment_approve(adjustment=adj, actor=approver)
    account.refresh_from_db()
    assert account.balance == D("87.66")
    with pytest.raises(ValidationError):
        adjustment_reject(adjustment=adj, actor=approver, note="tarde")
    assert statement(account=account, as_of=date(2025, 7, 31)).balance == D("100.00")
    assert statement(account=account, as_of=date(2025, 8, 1)).balance == D("87.66")


def test_adjustment_larger_than_open_is_refused(account, charge, staff_user, approver):
    rec = charge([(date(2025, 7, 1), "100.00")])
    adj = adjustment_request(kind="ADJUSTMENT", account=account, installment=rec.installments.get(),
                             amount=D("-100.01"), reason="x", actor=staff_user)
    with pytest.raises(ValidationError):
        adjustment_approve(adjustment=adj, actor=approver)
    assert Adjustment.objects.get().status == "PENDING"


def test_credit_refund(account, charge, batch, cashier, staff_user, approver):
    charge([(date(2025, 7, 1), "100.00")])
    payment_record(account=account, amount=D("125.00"), method="CASH", paid_on=date(2025, 7, 2), payer="x",
                   idempotency_key="p", batch=batch, actor=cashier)
    with pytest.raises(ValidationError, match="crédito") as exc:   # refused when asked, not when approved
        credit_refund_request(account=account, amount=D("25.01"), reason="Pago doble", actor=staff_user)
    assert "25.00" in exc.value.message_dict["amount"][0]
    assert not Adjustment.objects.filter(kind="REFUND").exists()
    req = credit_refund_request(account=account, amount=D("25.00"), reason="Pago doble", actor=staff_user)
    with pytest.raises(ValidationError):
        credit_refund_approve(adjustment=req, actor=staff_user)
    with pytest.raises(ValidationError, match="crédito"):   # the pending request already takes the credit
        credit_refund_request(account=account, amount=D("0.01"), reason="Otra vez", actor=staff_user)
    credit_refund_approve(adjustment=req, actor=approver)
    account.refresh_from_db()
    assert account.balance == D("0.00")
    from django.utils import timezone
    assert statement(account=account, as_of=date(2025, 7, 31)).credit == D("25.00")
    assert statement(account=account, as_of=timezone.localdate()).credit == D("0.00")
    assert_balances_consistent()


def test_batch_open_is_idempotent_per_cashier_and_day(cashier):
    a = batch_open(cashier=cashier, business_date=date(2026, 1, 15), actor=cashier)
    b = batch_open(cashier=cashier, business_date=date(2026, 1, 15), actor=cashier)
    assert a.pk == b.pk and CashierBatch.objects.count() == 1


def test_batch_close_balanced_and_unbalanced(account, charge, batch, cashier):
    charge([(date(2025, 7, 1), "500.00")])
    for i, (method, amount, extra) in enumerate([("CASH", "40.00", {}), ("CHECK", "100.00", {"check_number": "5"}),
                                                 ("CARD", "60.25", {}), ("CASH", "10.00", {})]):
        payment_record(account=account, amount=D(amount), method=method, paid_on=date(2026, 1, 15), payer="x",
                       idempotency_key=f"b{i}", batch=batch, actor=cashier, **extra)
    with pytest.raises(BatchUnbalanced) as info:
        batch_close(batch=batch, counted={"CASH": "45.00", "CHECK": "100.00", "CARD": "60.25"}, actor=cashier)
    assert info.value.differences == {"CASH": D("-5.00")}
    batch.refresh_from_db()
    assert batch.status == "OPEN"
    closed = batch_close(batch=batch, counted={"CASH": "50.00", "CHECK": "100.00", "CARD": "60.25"}, actor=cashier)
    assert closed.status == "CLOSED" and closed.recorded == {"CASH": "50.00", "CHECK": "100.00", "CARD": "60.25"}
    with pytest.raises(ValidationError):
        batch_close(batch=batch, counted={}, actor=cashier)
    # A new batch can be opened the same day after the first is closed.
    assert batch_open(cashier=cashier, business_date=batch.business_date, actor=cashier).pk != batch.pk


def test_batch_belongs_to_its_cashier(account, charge, batch, make_user):
    other = make_user("otra.caja", "cashier")
    charge([(date(2025, 7, 1), "500.00")])
    with pytest.raises(ValidationError, match="otro cajero"):
        payment_record(account=account, amount=D("1.00"), method="CASH", paid_on=date(2026, 1, 15), payer="x",
                       idempotency_key="z", batch=batch, actor=other)
