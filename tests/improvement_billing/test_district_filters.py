"""Improvement districts in the district filters: benefit charges billed by a run
(`improvement_billing.Run:<id>`) belong to the run's district in the delinquency aging page, the
office reports and the dashboard (assessments.ledger.sources)."""
from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from assessments.improvement_billing import services
from assessments.ledger import aging, sources
from assessments.ledger.payments import payment_record
from assessments.models import Payment, Receivable
from assessments.reports import collections, uncollected
from assessments.reports.catalog import REPORTS
from assessments.reports.forms import ReportFilterForm
from assessments.rolls.aging_forms import AgingFilterForm
from core.dashboard.registry import collect
from tests import factories

from .conftest import TODAY

D = Decimal
AS_OF = date(2027, 3, 1)
pytestmark = pytest.mark.django_db


@pytest.fixture
def billed(received, staff_user):
    """FY2027 billed on Aug 3 2026: 100.00 / 200.00 / 333.33, halves due Sep 2 2026 (moved) and Jan 1 2027.
    The 333.33 charge's first half (166.67) is paid on Sep 10 2026, before any surcharge."""
    run = services.improvement_bill(district=received.district, fiscal_year=2027, actor=staff_user, today=TODAY)
    recs = {r.amount: r for r in Receivable.objects.filter(source_type=run.source_type)}
    payment_record(account=recs[D("333.33")].account, amount=D("166.67"), method=Payment.Method.TRANSFER,
                   paid_on=date(2026, 9, 10), payer="Dueño 3", idempotency_key="sid-filter-1", batch=None,
                   actor=None, source=Payment.Source.API)
    return run


def test_the_mapping_knows_billing_runs(billed):
    district = billed.district
    assert sources.district_source_types(district.pk) == [billed.source_type]
    assert sources.run_of_source(billed.source_type) == billed.pk
    assert sources.roll_of_source(billed.source_type) is None       # callers that need rolls get none
    origin = sources.source_origins([billed.source_type, "test"])
    assert list(origin) == [billed.source_type]
    assert origin[billed.source_type] == sources.SourceOrigin(district.pk, district.name, 2027)


def test_aging_overview_of_the_sid_district_adds_up_to_the_cent(billed):
    district_id = billed.district_id
    summary, accounts = aging.aging_overview(as_of=AS_OF, district_id=district_id)
    # Jan 1 2027 halves, 59 days: 50.00 + 100.00 + 166.66; Sep 2 2026 halves, 180 days: 50.00 + 100.00.
    assert summary == {"0-60": D("316.66"), "61-120": D("0.00"), "121-180": D("150.00"), "181-365": D("0.00"),
                       ">365": D("0.00")}
    assert accounts == 3
    assert aging.summary_total(summary) == D("633.33") - D("166.67") == D("466.66")
    rows = aging.delinquent_accounts(as_of=AS_OF, district_id=district_id)
    assert [(r.cadastre, r.total) for r in rows] == [("100-200-300-02", D("200.00")),     # largest first
                                                      ("100-200-300-03", D("166.66")),
                                                      ("100-200-300-01", D("100.00"))]
    assert sum((r.total for r in rows), D("0.00")) == D("466.66")
    other = factories.district(code="riego-otro", name="Otro distrito")
    assert aging.aging_overview(as_of=AS_OF, district_id=other.pk) == (aging.empty_buckets(), 0)


def test_aging_page_filters_by_the_sid_district_without_irr12(billed, staff_client):
    response = staff_client.get(reverse("rolls:aging"), {"district": "sid-prueba", "as_of": "2027-03-01"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "$466.66" in page and "$316.66" in page and "$150.00" in page
    assert "100-200-300-03" in page and "100-200-300-01" in page
    assert "Verificar embargo" not in page and "IRR-12" not in page     # IRR-12 is for bonded irrigation only
    response = staff_client.get(reverse("rolls:aging"), {"district": "sid-prueba", "as_of": "2027-03-01",
                                                         "format": "csv"})
    lines = response.content.decode().splitlines()
    assert lines[-1].startswith("Total") and "466.66" in lines[-1]


def test_filters_offer_improvement_districts(sid_district, tid_district):
    codes = [c for c, _n in ReportFilterForm(REPORTS["no-cobrado"], today=AS_OF).fields["district"].choices]
    assert {"sid-prueba", "tid-prueba"} <= set(codes)
    for slug in ("recaudos", "morosidad"):
        codes = [c for c, _n in ReportFilterForm(REPORTS[slug], today=AS_OF).fields["district"].choices]
        assert {"sid-prueba", "tid-prueba"} <= set(codes)
    codes = [c for c, _n in ReportFilterForm(REPORTS["asignacion-legislativa"], today=AS_OF)
             .fields["district"].choices]
    assert "sid-prueba" not in codes                                     # IRR-7 stays irrigation only
    assert {"sid-prueba", "tid-prueba"} <= set(AgingFilterForm().fields["district"].queryset
                                               .values_list("code", flat=True))


def test_uncollected_report_of_the_sid_district(billed, staff_client):
    report = uncollected.uncollected(as_of=AS_OF, district_id=billed.district_id)
    assert [(r.district, r.fiscal_year, r.principal, r.surcharge) for r in report.rows] == [
        ("Distrito Especial de Prueba", 2027, D("466.66"), D("0.00"))]
    assert report.total == D("466.66")
    # Unfiltered, the benefit charges are still the district's, not "no district".
    everything = uncollected.uncollected(as_of=AS_OF)
    assert [r.district for r in everything.rows] == ["Distrito Especial de Prueba"]
    body = staff_client.get(reverse("reports:report", args=["no-cobrado"]),
                            {"end": "2027-03-01", "district": "sid-prueba"}).content.decode()
    assert "Distrito Especial de Prueba" in body and "$466.66" in body


def test_collections_report_of_the_sid_district(billed, staff_client):
    data = collections.collections_by_period(start=date(2026, 7, 1), end=date(2027, 6, 30), group="fy",
                                             district_id=billed.district_id)
    assert [(r.principal, r.surcharge) for r in data.rows] == [(D("166.67"), D("0.00"))]
    assert data.total == D("166.67")
    other = factories.district(code="riego-otro", name="Otro distrito")
    assert collections.collections_by_period(start=date(2026, 7, 1), end=date(2027, 6, 30), group="fy",
                                             district_id=other.pk).total == D("0.00")
    body = staff_client.get(reverse("reports:report", args=["recaudos"]),
                            {"start": "2026-07-01", "end": "2027-06-30", "group": "fy",
                             "district": "sid-prueba"}).content.decode()
    assert "$166.67" in body


def test_dashboard_shows_the_sid_district_s_delinquency(billed):
    items = {i.key: i for i in collect(today=AS_OF, kind="delinquent")}
    assert list(items) == [f"delinquent:district:{billed.district_id}"]
    item = items[f"delinquent:district:{billed.district_id}"]
    assert item.amount == D("466.66")
    assert item.url == f"{reverse('rolls:aging')}?district=sid-prueba"
