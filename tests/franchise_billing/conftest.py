"""Franchise billing fixtures: a DRNA office, holders, franchises saved through the registry's
service and payments through the ledger. (tests/conftest.py lifts the database's guards of the money
around the flush after a transactional test.)"""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from districts.models import Office, Party
from tests import factories

D = date.fromisoformat


@pytest.fixture(autouse=True)
def _billing_debt_provider():
    """Billing's FRA-7 provider, as AppConfig.ready registers it (another suite may have reset it)."""
    from assessments.franchise_billing.selectors import outstanding_debt
    from franchises import selectors

    selectors.register_debt_provider(outstanding_debt)
    yield
    selectors.register_debt_provider(outstanding_debt)


@pytest.fixture
def drna(db) -> Office:
    return factories.office(name="DRNA — Franquicias de Agua", kind=Office.Kind.DRNA)


@pytest.fixture
def holder(db) -> Party:
    return factories.person(given="María del Carmen", first="Peña", second="Colón")


@pytest.fixture
def make_franchise(drna, holder):
    """A franchise saved through franchises.services (class derived, FRA-6 validated)."""
    from franchises import services
    from franchises.models import Franchise

    counter = iter(range(1, 1000))

    def make(*, number: str | None = None, source="SURFACE", use="DOMESTIC", issue=date(2020, 1, 15),
             expiry=date(2029, 1, 14), gallons=2_000_000, plan="ANNUAL", **extra) -> Franchise:
        f = Franchise(number=number or f"DRNA-FE-2020-{next(counter):04d}", holder=extra.pop("holder", holder),
                      source=source, use=use, authorized_gallons=gallons, issue_date=issue, expiry_date=expiry,
                      payment_plan=plan, office=drna, **extra)
        return services.franchise_save(actor=None, instance=f)

    return make


@pytest.fixture
def metered(make_franchise):
    """A GROUND_INDUSTRIAL franchise (fresh groundwater, industrial): billed monthly by meter."""
    return make_franchise(number="DRNA-FE-2019-0042", source="GROUNDWATER", use="INDUSTRIAL_COMMERCIAL",
                          gallons=36_000_000)


@pytest.fixture
def reading():
    from franchises import services

    def make(franchise, month: str, gallons: int):
        return services.meter_reading_record(actor=None, franchise=franchise, month=D(month), gallons=gallons)

    return make


@pytest.fixture
def pay(db):
    """Record money received on a party's account (the ledger's service, no cashier batch)."""
    from assessments.ledger.payments import payment_record
    from assessments.ledger.receivables import account_for_party
    from assessments.models import Payment

    counter = iter(range(1, 10_000))

    def make(party, amount: str, paid_on: str, actor=None):
        return payment_record(account=account_for_party(party), amount=Decimal(amount), method=Payment.Method.TRANSFER,
                              paid_on=D(paid_on), payer=party, idempotency_key=f"test-pay-{next(counter)}",
                              batch=None, actor=actor, source=Payment.Source.API)

    return make
