"""Payments, charges and installments refuse, in the database (SQLite and PostgreSQL), the changes no
service makes: amounts, dates, accounts, deletion (assessments migration 0003)."""
from datetime import date
from decimal import Decimal

import pytest
from django.db import DatabaseError, transaction

from assessments.ledger.services import payment_record, payment_return
from assessments.models import Installment, Payment, Receivable

pytestmark = pytest.mark.django_db


@pytest.fixture
def paid(charge, account, batch, cashier):
    receivable = charge([(date(2025, 7, 1), "100.00"), (date(2026, 1, 1), "50.00")])
    payment = payment_record(account=account, amount=Decimal("40.00"), method="CHECK", paid_on=date(2025, 7, 2),
                             payer="José Rodríguez", idempotency_key="guard-1", batch=batch, actor=cashier,
                             check_number="2001")
    return receivable, payment


def refused(fn, match):
    with pytest.raises(DatabaseError, match=match), transaction.atomic():
        fn()


def test_payments_keep_their_amount_date_and_account_and_are_never_deleted(paid):
    _receivable, payment = paid
    rows = Payment.objects.filter(pk=payment.pk)
    refused(lambda: rows.update(amount=Decimal("0.01")), r"assessments_payment: .*UPDATE refused")
    refused(lambda: rows.update(paid_on=date(2020, 1, 1)), r"assessments_payment: .*UPDATE refused")
    refused(lambda: rows._raw_delete(Payment.objects.db), r"assessments_payment: .*DELETE refused")
    rows.update(payer_name=payment.payer_name)  # no change: allowed
    assert rows.get().amount == Decimal("40.00")


def test_charges_and_installments_keep_their_amounts_and_due_dates(paid):
    receivable, _payment = paid
    refused(lambda: Receivable.objects.filter(pk=receivable.pk).update(amount=1), "assessments_receivable: .*UPDATE")
    inst = Installment.objects.filter(receivable=receivable)
    refused(lambda: inst.update(amount=0), "assessments_installment: .*UPDATE refused")
    refused(lambda: inst.update(due_date=date(2030, 1, 1)), "assessments_installment: .*UPDATE refused")
    refused(lambda: inst._raw_delete(Installment.objects.db), "assessments_installment: .*DELETE refused")
    Receivable.objects.filter(pk=receivable.pk).update(creates_lien=True)  # what billing does: allowed
    assert sorted(inst.values_list("amount", flat=True)) == [Decimal("50.00"), Decimal("100.00")]


def test_a_returned_check_is_marked_once_and_stays_returned(paid, cashier):
    _receivable, payment = paid
    payment_return(payment=payment, on=date(2025, 7, 20), reason="Fondos insuficientes", actor=cashier)
    assert Payment.objects.get(pk=payment.pk).status == Payment.Status.RETURNED
    refused(lambda: Payment.objects.filter(pk=payment.pk).update(status=Payment.Status.POSTED),
            "a returned payment stays returned")
