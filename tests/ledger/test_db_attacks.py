"""The database guards the money even against a connection that bypasses the application: as the
application's role (core/db_roles.py; owns nothing) the schema-level attacks are refused, and as any
role the triggers refuse changes to the ledger, payments, charges and installments
(docs/security/database.md). PostgreSQL only; all in the test's transaction, rolled back after."""
from datetime import date
from decimal import Decimal

import pytest
from django.db import DatabaseError, transaction

from assessments.ledger.services import payment_record, payment_return
from assessments.models import Installment, LedgerEntry, Payment, Receivable
from tests import dbroles

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

OWNER_ONLY = "must be owner|permission denied"


@pytest.fixture
def money(postgres_only, charge, account, batch, cashier):
    """A two-installment charge, partly paid: a receivable, installments, ledger entries, a payment."""
    receivable = charge([(date(2025, 7, 1), "100.00"), (date(2026, 1, 1), "50.00")])
    payment = payment_record(account=account, amount=Decimal("40.00"), method="CHECK", paid_on=date(2025, 7, 2),
                             payer="José Rodríguez", idempotency_key="attack-1", batch=batch, actor=cashier,
                             check_number="1001")
    return {"receivable": receivable, "payment": payment, "entry": LedgerEntry.objects.order_by("id").first(),
            "installment": Installment.objects.filter(receivable=receivable).order_by("seq").first()}


def refused(sql: str, match: str, params=None) -> None:
    with pytest.raises(DatabaseError, match=match), transaction.atomic():
        dbroles.execute(sql, params)


@pytest.mark.parametrize("sql", [
    "TRUNCATE assessments_ledgerentry",
    "TRUNCATE assessments_payment",
    "TRUNCATE assessments_account CASCADE",
    "ALTER TABLE assessments_ledgerentry ADD COLUMN forged integer",
    "ALTER TABLE assessments_ledgerentry DISABLE TRIGGER assessments_ledger_append_only",
    "ALTER TABLE assessments_payment DISABLE TRIGGER ALL",
    "ALTER TABLE assessments_payment DISABLE TRIGGER USER",
    "DROP TRIGGER assessments_payment_guard ON assessments_payment",
    "DROP TABLE assessments_ledgerentry",
    "DROP FUNCTION assessments_ledger_append_only() CASCADE",
    """CREATE OR REPLACE FUNCTION assessments_ledger_append_only() RETURNS trigger AS $$
       BEGIN RETURN NEW; END; $$ LANGUAGE plpgsql""",
    "CREATE TABLE forged (id integer)",
    "SET session_replication_role = replica",
    "ALTER TABLE assessments_ledgerentry OWNER TO CURRENT_USER",
])
def test_the_application_role_cannot_change_the_schema_or_lift_the_triggers(money, sql):
    with dbroles.roles() as (_owner, app), dbroles.acting_as(app):
        refused(sql, OWNER_ONLY + "|permission denied to set parameter")
        # and the rows are all still there
        assert LedgerEntry.objects.filter(pk=money["entry"].pk).exists()
    assert Payment.objects.filter(pk=money["payment"].pk).exists()


ROW_ATTACKS = [
    ("UPDATE assessments_ledgerentry SET amount = amount + 1 WHERE id = {entry}", "append-only"),
    ("DELETE FROM assessments_ledgerentry WHERE id = {entry}", "append-only"),
    ("UPDATE assessments_payment SET amount = 0.01 WHERE id = {payment}", r"assessments_payment: .* amount"),
    ("UPDATE assessments_payment SET account_id = account_id WHERE id = {payment}", None),  # no change: allowed
    ("UPDATE assessments_payment SET paid_on = '2025-01-01' WHERE id = {payment}", "paid_on may not change"),
    ("UPDATE assessments_payment SET receipt_number = 'X-1' WHERE id = {payment}", "receipt_number may not change"),
    ("DELETE FROM assessments_payment WHERE id = {payment}", r"assessments_payment: rows are never deleted"),
    ("UPDATE assessments_receivable SET amount = 1 WHERE id = {receivable}", r"assessments_receivable: .* amount"),
    ("UPDATE assessments_receivable SET account_id = account_id + 0, fund_id = fund_id WHERE id = {receivable}",
     None),
    ("DELETE FROM assessments_receivable WHERE id = {receivable}", "assessments_receivable: rows are never deleted"),
    ("UPDATE assessments_installment SET amount = 0 WHERE id = {installment}", r"assessments_installment: .* amount"),
    ("UPDATE assessments_installment SET due_date = '2030-01-01' WHERE id = {installment}", "due_date may not"),
    ("DELETE FROM assessments_installment WHERE id = {installment}", "assessments_installment: rows are never"),
]


def _ids(money):
    return {name: obj.pk for name, obj in money.items()}


@pytest.mark.parametrize("as_app", [True, False], ids=["app-role", "superuser"])
@pytest.mark.parametrize(("sql", "match"), ROW_ATTACKS)
def test_the_triggers_refuse_changing_the_money_whoever_connects(money, sql, match, as_app):
    before = (LedgerEntry.objects.count(), Payment.objects.get().amount, Receivable.objects.get().amount,
              list(Installment.objects.values_list("due_date", "amount")))
    statement = sql.format(**_ids(money))
    if as_app:
        with dbroles.roles() as (_owner, app), dbroles.acting_as(app):
            if match is None:
                dbroles.execute(statement)
            else:
                refused(statement, match)
    elif match is None:
        dbroles.execute(statement)
    else:
        refused(statement, match)
    assert before == (LedgerEntry.objects.count(), Payment.objects.get().amount, Receivable.objects.get().amount,
                      list(Installment.objects.values_list("due_date", "amount")))


@pytest.mark.parametrize("table", ["assessments_ledgerentry", "assessments_payment", "assessments_receivable",
                                   "assessments_installment", "rolls_rollline"])
def test_truncate_is_refused_even_for_the_owner(money, table):
    with dbroles.roles() as (owner, _app), dbroles.acting_as(owner):
        refused(f"TRUNCATE {table} CASCADE", rf"{table}: .*\(TRUNCATE refused\)|TRUNCATE refused")
    refused(f"TRUNCATE {table} CASCADE", r"TRUNCATE refused")  # the test's superuser too
    assert LedgerEntry.objects.exists()


def test_a_returned_payment_stays_returned(money, cashier):
    payment_return(payment=money["payment"], on=date(2025, 7, 20), reason="Fondos insuficientes", actor=cashier)
    refused("UPDATE assessments_payment SET status = 'POSTED' WHERE id = %s", "a returned payment stays returned",
            [money["payment"].pk])
    refused("UPDATE assessments_payment SET returned_on = NULL WHERE id = %s", "a returned payment stays returned",
            [money["payment"].pk])


def test_the_legitimate_flows_work_as_the_application_role(money, account, batch, cashier):
    """Paying, returning a check, reading: what the services write is what the triggers allow."""
    with dbroles.roles() as (_owner, app), dbroles.acting_as(app):
        second = payment_record(account=account, amount=Decimal("110.00"), method="CHECK", paid_on=date(2025, 8, 1),
                                payer="José Rodríguez", idempotency_key="attack-2", batch=batch, actor=cashier,
                                check_number="1002")
        payment_return(payment=second, on=date(2025, 8, 10), reason="Cheque devuelto", actor=cashier)
        Receivable.objects.filter(pk=money["receivable"].pk).update(creates_lien=True)
        with dbroles.connection.cursor() as cursor:
            cursor.execute("SELECT current_user")
            assert cursor.fetchone()[0] == app
    second.refresh_from_db()
    assert second.status == Payment.Status.RETURNED and second.amount == Decimal("110.00")
    account.refresh_from_db()
    assert account.balance == Decimal("110.00")
