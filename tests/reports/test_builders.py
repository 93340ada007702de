"""Report figures on a small constructed dataset, to the cent; every table's parts add to its total."""
from datetime import date
from decimal import Decimal

import pytest

from assessments.ledger.reports import collections_by_fund
from assessments.reports import catalog, clocks, collections, delinquency, remittances, uncollected

D = Decimal
pytestmark = pytest.mark.django_db


def _assert_sums(table):
    """The total row equals the column sums, and the money columns' rows add up to it exactly."""
    for i, col in enumerate(table.columns):
        if col.kind in ("money", "count") and table.rows:
            assert table.total[i] == sum((r[i] for r in table.rows if r[i] is not None),
                                         D("0") if col.kind == "money" else 0), col.label


def test_collections_by_month_fund_and_total(ledger_data):
    data = collections.collections_by_period(start=date(2025, 7, 1), end=date(2026, 6, 30), group="month")
    got = [(r.fund_code, r.period.label, r.principal, r.surcharge, r.total) for r in data.rows]
    assert got == [("fondo-a", "jul 2025", D("60.25"), D("0"), D("60.25")),
                   ("fondo-a", "ago 2025", D("39.75"), D("0"), D("39.75")),
                   ("fondo-a", "ene 2026", D("50.00"), D("0"), D("50.00")),
                   ("fondo-b", "oct 2025", D("250.55"), D("0"), D("250.55"))]
    assert data.total == D("400.55")
    # the same money the ledger's collections-by-fund report counts over the same range
    whole = collections_by_fund(start=date(2025, 7, 1), end=date(2026, 6, 30))
    assert sum((f.total for f in whole.funds), D("0")) == data.total


def test_collections_by_quarter_and_fund_filter(ledger_data):
    data = collections.collections_by_period(start=date(2025, 7, 1), end=date(2026, 6, 30), group="quarter",
                                             fund_code="fondo-a")
    assert [(r.period.label, r.total) for r in data.rows] == [("FY2026-T1 (jul–sep)", D("100.00")),
                                                              ("FY2026-T3 (ene–mar)", D("50.00"))]
    assert data.whole_range is None          # pool credit has no fund: only shown unfiltered
    fy = collections.collections_by_period(start=date(2025, 7, 1), end=date(2026, 6, 30), group="fy")
    assert [(r.fund_code, r.period.label, r.total) for r in fy.rows] == [("fondo-a", "FY2026", D("150.00")),
                                                                         ("fondo-b", "FY2026", D("250.55"))]


def test_due_and_collected_by_month(ledger_data):
    m = collections.due_and_collected_by_month(start=date(2025, 7, 1), end=date(2026, 1, 31))
    assert [b.label for b in m.months][:3] == ["jul 2025", "ago 2025", "sep 2025"]
    assert m.due == [D("100.00"), D("250.55"), 0, 0, 0, 0, D("100.00")]
    assert m.collected == [D("60.25"), D("39.75"), 0, D("250.55"), 0, 0, D("50.00")]


def test_uncollected_on_two_dates(ledger_data):
    sep = uncollected.uncollected(as_of=date(2025, 9, 30))
    assert [(r.fund_name, r.fiscal_year, r.principal, r.total) for r in sep.rows] == [
        ("Fondo A de prueba", 2025, D("100.00"), D("100.00")), ("Fondo B de prueba", 2025, D("250.55"), D("250.55"))]
    assert sep.total == D("350.55")
    jan = uncollected.uncollected(as_of=date(2026, 1, 31))
    assert [(r.fund_name, r.total) for r in jan.rows] == [("Fondo A de prueba", D("50.00"))]


def test_aging_buckets_and_total(ledger_data):
    sep = delinquency.aging(as_of=date(2025, 9, 30))
    assert {b.key: b.amount for b in sep.buckets if b.amount} == {"0-60": D("250.55")}
    jan = delinquency.aging(as_of=date(2026, 4, 1), fund_code="fondo-a")
    assert {b.key: b.amount for b in jan.buckets if b.amount} == {"61-120": D("50.00")}
    assert jan.total == D("50.00")


def test_sid3_remittances_due_and_late(sid_data):
    r = remittances.sid_remittances(start=date(2026, 1, 1), end=date(2026, 10, 1))
    assert [(x.received_on, x.collected, x.retained, x.remitted, x.status, x.days_late) for x in r.rows] == [
        (date(2026, 3, 3), D("1000.00"), D("50.00"), D("950.00"), "REMITTED", 0),
        (date(2026, 6, 9), D("200.00"), D("10.00"), D("190.00"), "REMITTED_LATE", 2),
        (date(2026, 7, 1), D("100.00"), D("5.00"), D("95.00"), "OVERDUE", 2),
        (date(2026, 8, 3), D("40.00"), D("2.00"), D("38.00"), "PENDING", 0)]
    assert (r.overdue, r.pending, r.late_count) == (D("95.00"), D("38.00"), 2)
    assert remittances.sid_remittances(start=date(2026, 7, 1), end=date(2026, 10, 1)).rows[0].collected == D("100.00")


def test_clocks_met_and_missed_per_quarter(sid_data):
    rep = clocks.clocks_by_quarter(start=date(2026, 4, 1), end=date(2026, 12, 31), rule="SID-3",
                                   as_of=date(2026, 10, 1))
    got = [(q.period.label.split()[0], q.met, q.done_late, q.not_done, q.open) for q in rep.quarters]
    assert got == [("FY2026-T4", 1, 0, 0, 0), ("FY2027-T1", 0, 1, 1, 0), ("FY2027-T2", 0, 0, 0, 1)]
    assert [q.met_pct for q in rep.quarters] == [100, 0, None]


@pytest.mark.parametrize("slug", list(catalog.REPORTS))
def test_every_report_table_adds_up(slug, ledger_data, sid_data):
    f = catalog.Filters(start=date(2025, 7, 1), end=date(2026, 10, 1), group="quarter")
    report = catalog.build(slug, f)
    assert report.table.total is not None
    _assert_sums(report.table)
    assert report.chart_svg.startswith("<svg") and "<title" in report.chart_svg
