"""A small world for the owners' portal: Ana co-owns a parcel with Carla, Beto owns another; each
parcel has a charge with its notice, and Ana and Beto have each paid part, with a receipt."""
from __future__ import annotations

from datetime import date
from types import SimpleNamespace

import pytest

from tests import factories

SOURCE = "test:portal"


def _charge(account, fund, office, source_id, cadastre, actor):
    from assessments.ledger.services import receivable_create

    lines = [{"period": "FY2027-S1", "kind": "annual", "basis": "share", "due_date": "2026-07-01",
              "amount": "100.00", "rule": "IRR-5"},
             {"period": "FY2027-S2", "kind": "annual", "basis": "share", "due_date": "2027-01-01",
              "amount": "100.00", "rule": "IRR-5"}]
    return receivable_create(
        account=account, fund=fund, office=office, kind="ROLL_LINE", source_type=SOURCE, source_id=source_id,
        installments=[(date(2026, 7, 1), "100.00"), (date(2027, 1, 1), "100.00")],
        description=f"Cuota de riego FY2027 — {cadastre}", breakdown={"fiscal_year": 2027, "lines": lines},
        surcharge_rule="IRR-9", creates_lien=True, issued_on=date(2026, 7, 1), actor=actor)


def _pay(account, party, key, actor):
    from assessments.ledger.receipts import receipt_issue
    from assessments.ledger.services import payment_record
    from assessments.models import Payment

    payment = payment_record(account=account, amount="50.00", method="CASH", paid_on=date(2026, 8, 3), payer=party,
                             idempotency_key=key, batch=None, actor=actor, source=Payment.Source.API)
    receipt_issue(payment=payment, actor=actor)
    return payment


def link(party, user):
    party.user = user
    party.save()
    return user


def _content_types_back() -> None:
    """The first test that starts the session's Playwright browser finds, on PostgreSQL, a database
    flushed by the previous transactional test and not restored: Playwright's event loop gives the
    test another `connections["default"]` object, one without the serialized data. The roles and
    municipalities come back through tests/conftest.py; the content types (audit entries point at
    them) come back here, through post_migrate as after any flush."""
    from django.contrib.contenttypes.models import ContentType
    from django.core.management.sql import emit_post_migrate_signal

    if not ContentType.objects.exists():
        emit_post_migrate_signal(verbosity=0, interactive=False, db="default")


@pytest.fixture
def world(db, staff_user, make_user):
    from assessments.ledger.services import account_for_parcel
    from assessments.models import Fund
    from assessments.notices import services

    _content_types_back()
    office = factories.office()
    fund = Fund.objects.create(code="riego", name="Fondo de riego", lien_kind="IRRIGATION",
                               finances_public_infrastructure=True)
    ana = factories.person(given="Ana Isabel", first="Rivera", second="Soto")
    carla = factories.person(given="Carla", first="Rivera", second="Soto")
    beto = factories.person(given="Roberto", first="Cruz", second="Díaz")
    parcel_a = factories.parcel(cadastre="100-000-000-01")
    parcel_b = factories.parcel(cadastre="100-000-000-02")
    factories.own(parcel_a, ana, share="50")
    factories.own(parcel_a, carla, share="50")
    factories.own(parcel_b, beto)
    account_a, account_b = account_for_parcel(parcel_a), account_for_parcel(parcel_b)
    ana_user = link(ana, make_user("ana.duena", "owner"))
    beto_user = link(beto, make_user("beto.dueno", "owner"))
    carla_user = link(carla, make_user("carla.duena", "owner"))
    receivable_a = _charge(account_a, fund, office, "a", parcel_a.cadastre, staff_user)
    receivable_b = _charge(account_b, fund, office, "b", parcel_b.cadastre, staff_user)
    services.notices_issue_for_source(source_type=SOURCE, actor=staff_user)
    from assessments.notices.models import Notice

    return SimpleNamespace(
        office=office, fund=fund, ana=ana, carla=carla, beto=beto, parcel_a=parcel_a, parcel_b=parcel_b,
        account_a=account_a, account_b=account_b, ana_user=ana_user, beto_user=beto_user, carla_user=carla_user,
        receivable_a=receivable_a, receivable_b=receivable_b,
        notice_a=Notice.objects.get(receivable=receivable_a), notice_b=Notice.objects.get(receivable=receivable_b),
        payment_a=_pay(account_a, ana, "pay-a", staff_user), payment_b=_pay(account_b, beto, "pay-b", staff_user))
