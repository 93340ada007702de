"""Ledger fixtures: an office, funds, a parcel's account, users by role, a charge builder, and the
balance invariant. (tests/conftest.py lifts the append-only guard around SQLite's flush.)"""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from tests import factories


@pytest.fixture
def office(db):
    return factories.office()


@pytest.fixture
def funds(db):
    from assessments.models import Fund

    return {
        "lajas": Fund.objects.create(code="lajas-explotacion", lien_kind="LAJAS",
                                     name="Fondo de Explotación — Sistema de Riego del Valle de Lajas"),
        "irr": Fund.objects.create(code="riego", name="Fondo de riego", lien_kind="IRRIGATION",
                                   finances_public_infrastructure=True),
        "fra": Fund.objects.create(code="franquicias", name="Fondo especial de franquicias"),
    }


@pytest.fixture
def parcel(db):
    p = factories.parcel()
    factories.own(p, factories.person())
    return p


@pytest.fixture
def account(parcel):
    from assessments.ledger.services import account_for_parcel

    return account_for_parcel(parcel)


@pytest.fixture
def cashier(make_user):
    return make_user("carmen.caja", "cashier", first_name="Carmen", last_name="Ortiz")


@pytest.fixture
def approver(make_user):
    return make_user("alberto.aprueba", "approver", first_name="Alberto")


@pytest.fixture
def batch(cashier):
    from assessments.ledger.services import batch_open

    return batch_open(cashier=cashier, business_date=date(2026, 1, 15), actor=cashier)


@pytest.fixture
def charge(account, funds, office, staff_user):
    """Make a receivable on `account` with the given installments [(due, "amount"), ...]."""
    from assessments.ledger.services import receivable_create

    counter = {"n": 0}

    def make(installments, *, rule="NONE", fund="lajas", lien=False, issued_on=None, acct=None, source_id=None,
             terms=None):
        counter["n"] += 1
        rows = [(d, Decimal(a)) for d, a in installments]
        return receivable_create(
            account=acct or account, fund=funds[fund], office=office, kind="ROLL_LINE", source_type="test",
            source_id=source_id or f"line-{counter['n']}", installments=rows,
            description=f"Cargo de prueba {counter['n']}", breakdown={"rule": rule}, surcharge_rule=rule,
            creates_lien=lien, issued_on=issued_on or min(d for d, _ in rows), actor=staff_user,
            surcharge_terms=terms)

    return make


def assert_balances_consistent():
    """Every account's cached balance equals the sum of its entries; every receivable's status
    agrees with what is open on it."""
    from django.db.models import Sum

    from assessments.models import Account, LedgerEntry, Receivable
    from core.money import sum_cents

    # Sums compared to the cent: SQLite adds decimal columns as floats.
    for acc in Account.objects.all():
        total = sum_cents(LedgerEntry.objects.filter(account=acc).aggregate(t=Sum("amount"))["t"])
        assert sum_cents(acc.balance) == total, f"{acc}: cached {acc.balance} != entries {total}"
    for rec in Receivable.objects.all():
        open_ = sum_cents(LedgerEntry.objects.filter(receivable=rec).aggregate(t=Sum("amount"))["t"])
        assert (rec.status == "OPEN") == (open_ > 0), f"{rec}: {rec.status} with {open_} open"
