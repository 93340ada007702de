"""IRR-7 per bonded district equals the roll's figure and `compute`'s for the same inputs; IRR-3 apart."""
from datetime import date
from decimal import Decimal

import pytest

from assessments.compute import run
from assessments.engine_inputs import roll_payload
from assessments.reports import appropriation, catalog, collections
from assessments.rolls import services
from tests.rolls.conftest import IRR_FIGURES

D = Decimal
pytestmark = pytest.mark.django_db
UNPAYABLE = "1234.56"


@pytest.fixture
def roll(irrigation_register, staff_user):
    services.figures_save(district=irrigation_register, fiscal_year=2027,
                          figures={**IRR_FIGURES, "unpayable_bond_amount": UNPAYABLE},
                          certified_by="Ing. Carmen Ortiz Vélez, DTOP", certified_on=date(2026, 5, 15),
                          actor=staff_user)
    return services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll


def test_appropriation_equals_roll_and_compute(roll, irrigation_register):
    expected = run("irrigation-roll", roll_payload(irrigation_register, {
        "fiscal_year": 2027, **IRR_FIGURES, "unpaid_bond_amounts": UNPAYABLE}))
    report = appropriation.appropriation_by_district(fiscal_years=[2026, 2027, 2028])
    [row] = report.rows
    gap = D(expected["appropriation_needed"])
    assert gap == D(roll.totals["appropriation_needed"])
    assert (row.needed, row.excess) == (max(gap, D(0)), max(-gap, D(0)))
    assert row.net == gap == row.total - row.billed
    assert (row.total, row.billed) == (D(expected["total"]), D(expected["billed_total"]))
    assert row.unpayable_bonds == D(expected["unpaid_bond_amounts"]) == D(UNPAYABLE)
    assert row.needed > 0      # this register has exempt and free parcels: the Legislature must provide


def test_appropriation_report_table_and_district_filter(roll, irrigation_register):
    f = catalog.Filters(start=date(2026, 7, 1), end=date(2027, 6, 30), district_id=irrigation_register.pk,
                        district_name=irrigation_register.name)
    report = catalog.build("asignacion-legislativa", f)
    row = report.table.rows[0]
    assert row[:3] == [irrigation_register.name, "FY2027", "Borrador"]
    assert row[5] == D(roll.totals["appropriation_needed"]) and row[7] == D(UNPAYABLE)
    assert report.table.total[5] == row[5] and "IRR-7" in report.rules and "IRR-3" in report.rules
    other = catalog.Filters(start=date(2026, 7, 1), end=date(2027, 6, 30), district_id=irrigation_register.pk + 999)
    assert catalog.build("asignacion-legislativa", other).table.rows == []


def test_collections_district_filter_reaches_roll_charges(roll, irrigation_register, staff_user):
    from assessments.ledger.services import payment_record
    from assessments.models import Receivable

    services.roll_certify(roll=roll, actor=staff_user, on=date(2026, 6, 1))
    rec = Receivable.objects.filter(source_type=f"rolls.Roll:{roll.pk}").order_by("pk").first()
    payment_record(account=rec.account, amount=D("10.01"), method="CASH", paid_on=date(2026, 6, 20), payer="x",
                   idempotency_key="roll-pay", batch=None, source="API", actor=staff_user)
    got = collections.collections_by_period(start=date(2026, 6, 1), end=date(2026, 6, 30),
                                            district_id=irrigation_register.pk)
    assert [(r.fund_code, r.total) for r in got.rows] == [("riego-bonos", D("10.01"))]
    assert collections.collections_by_period(start=date(2026, 6, 1), end=date(2026, 6, 30),
                                             district_id=irrigation_register.pk + 999).rows == []
