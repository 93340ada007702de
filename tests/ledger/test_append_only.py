"""The database itself refuses UPDATE and DELETE of ledger entries (SQLite and PostgreSQL)."""
from datetime import date

import pytest
from django.db import DatabaseError, connection, transaction

from assessments.models import LedgerEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry(charge):
    charge([(date(2025, 7, 1), "100.00")])
    return LedgerEntry.objects.get()


def test_orm_update_is_refused(entry):
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        LedgerEntry.objects.filter(pk=entry.pk).update(amount="0.01")
    entry.refresh_from_db()
    assert str(entry.amount) == "100.00"


def test_save_of_existing_entry_is_refused(entry):
    entry.memo = "edited"
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        entry.save()


def test_orm_delete_is_refused(entry):
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        LedgerEntry.objects.filter(pk=entry.pk).delete()
    assert LedgerEntry.objects.filter(pk=entry.pk).exists()


@pytest.mark.parametrize("sql", [
    "UPDATE assessments_ledgerentry SET amount = 0 WHERE id = %s",
    "DELETE FROM assessments_ledgerentry WHERE id = %s",
])
def test_raw_sql_is_refused(entry, sql):
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, [entry.pk])
    assert LedgerEntry.objects.filter(pk=entry.pk, amount="100.00").exists()


def test_insert_still_works(entry):
    LedgerEntry.objects.create(account=entry.account, kind="CREDIT", component="CREDIT", amount="-1.00",
                               effective_date=date(2025, 7, 2))
    assert LedgerEntry.objects.count() == 2
