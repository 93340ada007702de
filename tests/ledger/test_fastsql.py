"""The roll path's plain multi-row SQL (assessments.ledger.fastsql) reports database errors as Django's
exceptions, as the ORM does: its PostgreSQL cursor is a raw psycopg one, wrapped."""
from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import DataError, IntegrityError, transaction

from assessments.ledger import fastsql
from districts.models import Municipality

pytestmark = pytest.mark.django_db


def test_an_integrity_violation_raises_django_integrity_error():
    taken = Municipality.objects.order_by("pk").first()       # the 78 municipalities come with the migrations
    count = Municipality.objects.count()
    with pytest.raises(IntegrityError), transaction.atomic():
        fastsql.insert_rows(Municipality, ("name", "code"), [("Municipio de prueba", "ZZ1"), (taken.name, "ZZ2")])
    # The failed statement was rolled back to the savepoint; the connection is usable.
    assert Municipality.objects.count() == count
    fastsql.insert_rows(Municipality, ("name", "code"), [("Municipio de prueba", "ZZ1")])
    assert Municipality.objects.filter(code="ZZ1").exists()


def test_an_update_that_overflows_raises_django_data_error(account):
    from tests.conftest import require, using_postgres

    # SQLite stores any number in a NUMERIC column: only PostgreSQL's numeric(14,2) overflows.
    require(using_postgres(), "needs PostgreSQL: SQLite has no numeric overflow")
    with pytest.raises(DataError), transaction.atomic():
        fastsql.add_to_column(type(account), "balance", [(Decimal("1e40"), account.pk)])
    account.refresh_from_db()
    assert account.balance == Decimal("0.00")
