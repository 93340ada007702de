"""receivable_create and the bulk path for rolls: idempotent by source key, CHARGE entries, LIEN-1."""
from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from assessments.ledger.common import reference_is_valid
from assessments.ledger.services import (
    ReceivableRow,
    account_for_parcel,
    account_for_party,
    accounts_for_parcels,
    receivable_create,
    receivables_bulk_create,
)
from assessments.models import Account, Installment, LedgerEntry, Receivable
from liens.models import Lien
from tests import factories
from tests.ledger.conftest import assert_balances_consistent

D = Decimal
pytestmark = pytest.mark.django_db


def test_create_posts_charges_and_registers_the_lien(account, charge, parcel):
    rec = charge([(date(2025, 7, 1), "125.00"), (date(2026, 1, 1), "125.00")], rule="LAJ-7", lien=True)
    assert rec.amount == D("250.00") and rec.status == "OPEN"
    assert reference_is_valid(rec.payment_reference) and len(rec.payment_reference) == 10
    assert [(e.kind, e.amount, e.effective_date) for e in LedgerEntry.objects.order_by("id")] == [
        ("CHARGE", D("125.00"), date(2025, 7, 1)), ("CHARGE", D("125.00"), date(2025, 7, 1))]
    lien = Lien.objects.get()
    assert (lien.parcel, lien.kind, lien.amount, lien.status, lien.origin_id) == (
        parcel, "LAJAS", D("250.00"), "ACTIVE", str(rec.pk))
    account.refresh_from_db()
    assert account.balance == D("250.00")


def test_create_twice_is_a_no_op(charge):
    a = charge([(date(2025, 7, 1), "100.00")], source_id="roll-7:line-1", lien=True)
    b = charge([(date(2025, 7, 1), "999.00")], source_id="roll-7:line-1", lien=True)
    assert a.pk == b.pk
    assert (Receivable.objects.count(), Installment.objects.count(), LedgerEntry.objects.count(),
            Lien.objects.count()) == (1, 1, 1, 1)


def test_charges_follow_the_land_after_a_sale(account, charge, parcel, staff_user):
    from districts.services import parcel_sell

    charge([(date(2025, 7, 1), "100.00")])
    parcel_sell(actor=staff_user, parcel=parcel, buyers=[(factories.person(given="Ana", first="Vélez"), D("100"))],
                on=date(2025, 8, 1))
    assert account_for_parcel(parcel).pk == account.pk
    account.refresh_from_db()
    assert account.balance == D("100.00")


def test_franchise_holder_account_cannot_carry_a_lien(funds, office, staff_user):
    holder = account_for_party(factories.person(given="Industrias", first="Caribe"))
    with pytest.raises(ValidationError):
        receivable_create(account=holder, fund=funds["fra"], office=office, kind="INVOICE", source_type="fra",
                          source_id="1", installments=[(date(2025, 7, 1), D("500.00"))], description="Tarifa",
                          surcharge_rule="NONE", creates_lien=True, issued_on=date(2025, 7, 1), actor=staff_user)
    assert not Receivable.objects.exists()


def test_bad_installments_are_refused(charge):
    with pytest.raises(ValidationError):
        charge([(date(2025, 7, 1), "-1.00")])
    with pytest.raises(ValidationError):
        charge([(date(2025, 7, 1), "1.005")])
    assert not Receivable.objects.exists()


def _roll(n, funds, office, accounts, source="roll-2026", lien=True):
    rows = []
    for i in range(n):
        first, second = D(100 + i % 7) + D("0.01") * (i % 3), D(100 + i % 7)
        rows.append(ReceivableRow(
            account_id=accounts[i % len(accounts)], fund_id=funds["lajas"].pk, office_id=office.pk, kind="ROLL_LINE",
            source_type=source, source_id=f"line-{i}", installments=((date(2025, 7, 1), first),
                                                                      (date(2026, 1, 1), second)),
            description=f"Padrón FY2026 línea {i}", issued_on=date(2025, 6, 30), surcharge_rule="LAJ-7",
            creates_lien=lien, breakdown={"rule": "LAJ-6"}))
    return rows


def test_bulk_create_matches_the_single_path_and_is_idempotent(funds, office, staff_user):
    parcels = [factories.parcel(cadastre=f"371-045-{i:03d}-01") for i in range(40)]
    mapping = accounts_for_parcels(p.pk for p in parcels)
    assert len(mapping) == 40 and Account.objects.count() == 40
    assert accounts_for_parcels(p.pk for p in parcels) == mapping
    rows = _roll(1200, funds, office, list(mapping.values()))
    result = receivables_bulk_create(rows=rows, actor=staff_user, batch_size=500)
    expected_total = sum((a for r in rows for _, a in r.installments), D("0"))
    assert (result.created, result.skipped, result.total, result.liens) == (1200, 0, expected_total, 1200)
    assert Installment.objects.count() == 2400 and LedgerEntry.objects.count() == 2400
    refs = list(Receivable.objects.values_list("payment_reference", flat=True))
    assert len(set(refs)) == 1200 and all(reference_is_valid(r) for r in refs)
    assert_balances_consistent()
    again = receivables_bulk_create(rows=rows, actor=staff_user)
    assert (again.created, again.skipped) == (0, 1200)
    assert LedgerEntry.objects.count() == 2400 and Lien.objects.count() == 1200


def test_bulk_applies_credit_held_by_an_account(funds, office, staff_user, account, batch, cashier):
    from assessments.ledger.services import payment_record

    payment_record(account=account, amount=D("30.00"), method="CASH", paid_on=date(2025, 6, 1), payer="x",
                   idempotency_key="advance", batch=batch, actor=cashier)
    result = receivables_bulk_create(rows=_roll(2, funds, office, [account.pk]), actor=staff_user)
    assert result.credit_applied == D("30.00")
    account.refresh_from_db()
    assert account.balance == D("402.01") - D("30.00")
    assert_balances_consistent()


def test_bulk_refuses_repeated_sources(funds, office, staff_user, account):
    rows = _roll(2, funds, office, [account.pk])
    with pytest.raises(ValidationError):
        receivables_bulk_create(rows=rows + rows[:1], actor=staff_user)
    assert not Receivable.objects.exists()
