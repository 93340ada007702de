"""Report fixtures: a small ledger with two funds and known payments, an irrigation roll, SID batches."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from tests import factories
from tests.rolls.conftest import irrigation_register  # noqa: F401  (fixture reused)

D = Decimal


@pytest.fixture
def ledger_data(db, staff_user):
    """Fund A: 200.00 in two installments (Jul 1 2025, Jan 1 2026); fund B: 250.55 due Aug 15 2025.
    Paid: 60.25 on Jul 1, 39.75 on Aug 3, 250.55 on Oct 20 (fund B), 50.00 on Jan 1 2026."""
    from assessments.ledger.services import account_for_parcel, payment_record, receivable_create
    from assessments.models import Fund

    office = factories.office()
    fund_a = Fund.objects.create(code="fondo-a", name="Fondo A de prueba")
    fund_b = Fund.objects.create(code="fondo-b", name="Fondo B de prueba")
    p1, p2 = factories.parcel(cadastre="500-000-000-01"), factories.parcel(cadastre="500-000-000-02")
    a1, a2 = account_for_parcel(p1), account_for_parcel(p2)
    receivable_create(account=a1, fund=fund_a, office=office, kind="OTHER", source_type="test", source_id="a1",
                      installments=[(date(2025, 7, 1), D("100.00")), (date(2026, 1, 1), D("100.00"))],
                      description="Cargo A", issued_on=date(2025, 6, 1), actor=staff_user)
    receivable_create(account=a2, fund=fund_b, office=office, kind="OTHER", source_type="test", source_id="b1",
                      installments=[(date(2025, 8, 15), D("250.55"))], description="Cargo B",
                      issued_on=date(2025, 6, 1), actor=staff_user)
    for n, (acct, amount, on) in enumerate([(a1, "60.25", date(2025, 7, 1)), (a1, "39.75", date(2025, 8, 3)),
                                            (a2, "250.55", date(2025, 10, 20)), (a1, "50.00", date(2026, 1, 1))]):
        payment_record(account=acct, amount=D(amount), method="CASH", paid_on=on, payer="Prueba",
                       idempotency_key=f"rep-{n}", batch=None, source="API", actor=staff_user)
    return {"fund_a": fund_a, "fund_b": fund_b, "office": office}


@pytest.fixture
def sid_data(db, staff_user):
    """Four SID-3 batches as in tests/improvement: on time, late, overdue and pending on Oct 1 2026."""
    from districts.improvement import services
    from districts.models import District

    district = factories.district(code="sid-rep", kind=District.Kind.SID, name="Distrito Especial de Informes")
    p = factories.parcel(cadastre="100-200-300-09", municipality="San Juan")
    factories.member(district, p)
    resolution = services.sid_resolution_create(
        actor=staff_user, district=district, number="R-9", adopted_on=date(2025, 1, 10), term_years=3,
        first_fiscal_year=2026, due_dates=["07-01", "01-01"], penalty_pct=D("10"), penalty_grace_days=30)
    services.sid_crim_receipt_record(actor=staff_user, resolution=resolution, received_on=date(2025, 2, 1))
    rec = services.sid_batch_record
    on_time = rec(actor=staff_user, resolution=resolution, received_on=date(2026, 3, 3), collected="1000.00")
    services.sid_batch_remit(actor=staff_user, batch=on_time, remitted_on=date(2026, 6, 1))
    late = rec(actor=staff_user, resolution=resolution, received_on=date(2026, 6, 9), collected="200.00")
    services.sid_batch_remit(actor=staff_user, batch=late, remitted_on=date(2026, 9, 10))
    rec(actor=staff_user, resolution=resolution, received_on=date(2026, 7, 1), collected="100.00")
    rec(actor=staff_user, resolution=resolution, received_on=date(2026, 8, 3), collected="40.00")
    return district
