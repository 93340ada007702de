"""Fifty requests at once with one idempotency key: one 201, forty-nine 200, one payment.

The answer used to be decided by a look-up before the account's row lock, so requests that
arrived together all saw "not yet" and up to 16 answered 201 for the one row written.
"""
import threading
from datetime import date

import pytest
from django.db import connection
from django.test import Client

from assessments.models import Payment
from tests.conftest import require, using_postgres

N = 50


@pytest.mark.django_db(transaction=True)
def test_fifty_simultaneous_posts_with_one_key_give_one_201(account, charge, batch, cashier):
    require(using_postgres(), "needs PostgreSQL: row locks decide the race")
    charge([(date(2025, 7, 1), "250.00")])
    body = {"account": account.pk, "amount": "100.00", "method": "CASH", "paid_on": "2025-10-15",
            "payer_name": "José", "idempotency_key": "race-1", "batch": batch.pk}
    clients = []
    for _ in range(N):
        c = Client()
        c.force_login(cashier)
        clients.append(c)
    start = threading.Barrier(N)
    codes: list[int] = []
    lock = threading.Lock()

    def post(c):
        try:
            start.wait()
            response = c.post("/api/v1/payments/", body, content_type="application/json")
            with lock:
                codes.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [200] * (N - 1) + [201]
    assert Payment.objects.filter(idempotency_key="race-1").count() == 1
