"""50 concurrent payments on one account (PostgreSQL, one connection per thread): the balance is
exact, every receipt number is used once and without gaps, and replayed keys post nothing."""
import threading
from datetime import date
from decimal import Decimal

import pytest
from django.db import connection, connections
from django.db.models import Sum

from assessments.models import LedgerEntry, Payment
from tests.ledger.conftest import assert_balances_consistent

D = Decimal
pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_fifty_concurrent_payments_on_one_account(postgres_only, account, charge, batch, cashier):
    from assessments.ledger.services import payment_record

    charge([(date(2025, 7, 1), "5000.00"), (date(2026, 1, 1), "5000.00")], rule="LAJ-7")
    amounts = [D("10.00") + D("0.01") * i for i in range(50)]
    jobs = [(f"t-{i}", a) for i, a in enumerate(amounts)] + [(f"t-{i}", amounts[i]) for i in range(0, 50, 5)]
    barrier = threading.Barrier(len(jobs))
    errors, results = [], []

    def work(key, amount):
        try:
            barrier.wait(timeout=30)
            p = payment_record(account=account, amount=amount, method="CASH", paid_on=date(2026, 1, 10), payer="x",
                               idempotency_key=key, batch=batch, actor=cashier)
            results.append((key, p.pk))
        except Exception as exc:  # noqa: BLE001 — reported below
            errors.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work, args=job) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    assert len(results) == 60
    by_key: dict[str, set] = {}
    for key, pk in results:
        by_key.setdefault(key, set()).add(pk)
    assert all(len(pks) == 1 for pks in by_key.values())   # a replayed key got the same payment
    assert Payment.objects.count() == 50
    seqs = sorted(Payment.objects.values_list("receipt_seq", flat=True))
    assert seqs == list(range(seqs[0], seqs[0] + 50))
    assert len(set(Payment.objects.values_list("receipt_number", flat=True))) == 50
    account.refresh_from_db()
    # 2026-01-10 is 130 days after the first due date: LAJ-7 surcharge on the first installment
    # is posted portion by portion, so the balance is charges + posted surcharge − payments.
    surcharge = LedgerEntry.objects.filter(kind="SURCHARGE").aggregate(t=Sum("amount"))["t"] or D("0")
    assert account.balance == D("10000.00") + surcharge - sum(amounts)
    assert surcharge > 0
    assert_balances_consistent()
    assert connection.vendor == "postgresql"
