"""GROUND_INDUSTRIAL metered bills (FRA-3, sec. 8.14 b) and the AAA's monthly readings file."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from assessments.compute import run
from assessments.franchise_billing import services
from assessments.franchise_billing.models import FranchiseCharge, ReadingImport
from assessments.models import LedgerEntry, Receivable
from core.models import AuditEntry
from franchises.models import MeterReading

D = date.fromisoformat
pytestmark = pytest.mark.django_db


def state():
    return (MeterReading.objects.count(), Receivable.objects.count(), LedgerEntry.objects.count(),
            FranchiseCharge.objects.count(), ReadingImport.objects.count(),
            list(MeterReading.objects.order_by("pk").values_list("gallons", "origin")))


@pytest.mark.parametrize(("gallons", "amount"), [
    (2_650_000, "5300.00"),
    (1_234_567, "2469.13"),  # 2469.134 → half-up to the cent
    (1_234_568, "2469.14"),  # 2469.136
    (25, "0.05"),
])
def test_a_metered_bill_is_gallons_times_0_002_due_30_days_after_its_date(metered, reading, gallons, amount):
    r = reading(metered, "2026-10-01", gallons)
    charge = services.meter_bill_create(reading=r, actor=None, billed_on=D("2026-11-05"))
    rec = charge.receivable
    assert rec.amount == Decimal(amount)
    expected = run("franchise-tariff", {"source": "GROUNDWATER", "use": "INDUSTRIAL_COMMERCIAL",
                                        "monthly_gallons_extracted": [str(gallons)], "as_of": "2026-10-01"})
    assert expected["monthly_bills"] == [amount]
    [inst] = rec.installments.all()
    assert (inst.due_date, inst.amount) == (D("2026-12-05"), Decimal(amount))
    assert (rec.kind, rec.fund.code, rec.issued_on) == ("INVOICE", "franquicias-fondo-especial", D("2026-11-05"))
    assert (rec.source_type, rec.source_id) == ("franchise_billing.metered", f"{metered.pk}:2026-10")
    assert (charge.kind, charge.tariff_class, charge.month, charge.gallons, charge.fiscal_year) == (
        "METERED", "GROUND_INDUSTRIAL", D("2026-10-01"), gallons, 2027)
    assert rec.breakdown["per_gallon"] == "0.002" and rec.breakdown["due_days"] == 30
    assert AuditEntry.objects.filter(action="franchise_meter_bill.create").count() == 1


def test_the_demo_meter_readings_bill_as_compute_says(reading, metered):
    months = [("2026-07-01", 3_410_000), ("2026-08-01", 3_120_000), ("2026-09-01", 0)]
    readings = [reading(metered, m, g) for m, g in months]
    result = services.meter_bills_create(franchise=metered, actor=None, billed_on=D("2026-10-02"))
    expected = run("franchise-tariff", {"source": "GROUNDWATER", "use": "INDUSTRIAL_COMMERCIAL",
                                        "monthly_gallons_extracted": [str(g) for _, g in months]})
    assert [str(c.receivable.amount) for c in result.created] + ["0.00"] == expected["monthly_bills"]
    assert result.no_charge == [readings[2]]  # a month of $0.00 gets no receivable
    assert services.meter_bills_create(franchise=metered, actor=None, billed_on=D("2026-10-02")).created == []


def test_billing_a_reading_again_changes_nothing_and_a_changed_reading_is_refused(metered, reading):
    r = reading(metered, "2026-10-01", 1_000_000)
    first = services.meter_bill_create(reading=r, actor=None, billed_on=D("2026-11-02"))
    before = state()
    assert services.meter_bill_create(reading=r, actor=None, billed_on=D("2026-11-20")) == first
    assert state() == before
    r = reading(metered, "2026-10-01", 1_100_000)
    with pytest.raises(ValidationError) as exc:
        services.meter_bill_create(reading=r, actor=None, billed_on=D("2026-11-20"))
    assert "ya se facturó con 1,000,000 galones" in exc.value.messages[0]


def test_only_ended_months_of_metered_franchises_are_billed(metered, reading, make_franchise):
    r = reading(metered, "2026-11-01", 500)
    with pytest.raises(ValidationError) as exc:
        services.meter_bill_create(reading=r, actor=None, billed_on=D("2026-11-30"))
    assert "billed_on" in exc.value.message_dict
    domestic = make_franchise()
    with pytest.raises(ValidationError) as exc:
        services.meter_bill_create(reading=reading(domestic, "2026-09-01", 500), actor=None,
                                   billed_on=D("2026-10-01"))
    assert "paga la tarifa anual" in exc.value.messages[0]
    assert not Receivable.objects.exists()


CSV_OK = """franchise_number,month,gallons
DRNA-FE-2019-0042,2026-09,2650000
DRNA-FE-2019-0042,2026-10,"2,810,000"
DRNA-FE-2020-0007,2026-10,0
"""


def test_the_aaa_file_records_the_readings_and_bills_them(metered, make_franchise, make_user):
    idle = make_franchise(number="DRNA-FE-2020-0007", source="ARTESIAN", use="RECREATION_BUSINESS")
    staff = make_user("lectura.staff", "staff")
    record = services.meter_readings_import(content=CSV_OK.encode(), filename="aaa-2026-10.csv", actor=staff,
                                            billed_on=D("2026-11-03"))
    assert (record.report["rows"], record.report["readings_created"], record.report["bills_created"],
            record.report["no_charge"], record.report["bills_total"]) == (3, 3, 2, 1, "10920.00")
    readings = {(r.franchise.number, r.month): (r.gallons, r.origin) for r in MeterReading.objects.all()}
    assert readings == {("DRNA-FE-2019-0042", D("2026-09-01")): (2_650_000, "AAA_FILE"),
                        ("DRNA-FE-2019-0042", D("2026-10-01")): (2_810_000, "AAA_FILE"),
                        (idle.number, D("2026-10-01")): (0, "AAA_FILE")}
    bills = [(c.month, c.receivable.amount, c.receivable.installments.get().due_date)
             for c in FranchiseCharge.objects.filter(franchise=metered).order_by("month")]
    assert bills == [(D("2026-09-01"), Decimal("5300.00"), D("2026-12-03")),
                     (D("2026-10-01"), Decimal("5620.00"), D("2026-12-03"))]
    # the same file again: nothing new
    before = state()
    again = services.meter_readings_import(content=CSV_OK.encode(), filename="aaa-2026-10.csv", actor=staff,
                                           billed_on=D("2026-11-03"))
    assert (again.report["bills_created"], again.report["unchanged"], again.report["readings_created"]) == (0, 2, 0)
    assert state()[:4] == before[:4]


def test_spanish_headers_and_semicolons_are_read(metered):
    text = "Franquicia;Mes;Galones\nDRNA-FE-2019-0042;09/2026;1000\n"
    record = services.meter_readings_import(content=text, filename="lecturas.csv", actor=None,
                                            billed_on=D("2026-10-01"))
    assert record.report["bills_total"] == "2.00"


def test_one_bad_row_refuses_the_whole_file_and_says_where(metered, make_franchise, reading):
    make_franchise(number="DRNA-FE-2017-0150")  # DOMESTIC: not metered
    billed = reading(metered, "2026-08-01", 1000)
    services.meter_bill_create(reading=billed, actor=None, billed_on=D("2026-09-01"))
    before = state()
    text = ("franchise_number,month,gallons\n"
            "DRNA-FE-2019-0042,2026-09,2650000\n"     # fine on its own
            "DRNA-FE-9999-0001,2026-09,100\n"          # no such franchise
            "DRNA-FE-2017-0150,2026-09,100\n"          # not metered
            "DRNA-FE-2019-0042,2026-13,100\n"          # bad month
            "DRNA-FE-2019-0042,2026-07,12.5\n"         # bad gallons
            "DRNA-FE-2019-0042,2026-09,5\n"            # the same month twice
            "DRNA-FE-2019-0042,2026-11,5\n"            # month not over by the bill's date
            "DRNA-FE-2019-0042,2026-08,2000\n"         # already billed with 1,000 gallons
            "DRNA-FE-2019-0042,2026-06\n")             # a cell missing
    with pytest.raises(services.ReadingImportError) as exc:
        services.meter_readings_import(content=text, filename="malo.csv", actor=None, billed_on=D("2026-11-20"))
    got = [(e.row, e.column, e.value) for e in exc.value.rows]
    assert got == [(3, "franchise_number", "DRNA-FE-9999-0001"), (4, "franchise_number", "DRNA-FE-2017-0150"),
                   (5, "month", "2026-13"), (6, "gallons", "12.5"), (7, "month", "2026-09"), (8, "month", "2026-11"),
                   (9, "gallons", "2000"), (10, "", "DRNA-FE-2019-0042,2026-06")]
    assert "No existe" in exc.value.rows[0].message and "fila 3" in exc.value.messages[0]
    assert state() == before


def test_a_file_without_a_column_is_refused(metered):
    with pytest.raises(services.ReadingImportError) as exc:
        services.meter_readings_import(content="franchise_number,gallons\nDRNA-FE-2019-0042,5\n", filename="x.csv",
                                       actor=None, billed_on=D("2026-11-20"))
    assert [(e.row, e.column) for e in exc.value.rows] == [(1, "month")]
    assert not MeterReading.objects.exists()
