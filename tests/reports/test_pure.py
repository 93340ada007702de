"""Period buckets, table totals and the SVG charts: pure functions, exact values."""
from datetime import date
from decimal import Decimal

import pytest

from assessments.reports.charts import GREEN, NAVY, Series, chart_svg, nice_max
from assessments.reports.periods import bucket_of, buckets_between, fiscal_quarter_of
from assessments.reports.tables import COUNT, MONEY, Column, Table

D = Decimal


@pytest.mark.parametrize(("day", "expected"), [
    (date(2026, 7, 1), (2027, 1)), (date(2026, 9, 30), (2027, 1)), (date(2026, 10, 1), (2027, 2)),
    (date(2027, 1, 15), (2027, 3)), (date(2027, 6, 30), (2027, 4)),
])
def test_fiscal_quarter(day, expected):
    assert fiscal_quarter_of(day) == expected


def test_buckets():
    q = bucket_of(date(2026, 11, 3), "quarter")
    assert (q.start, q.end, q.label) == (date(2026, 10, 1), date(2026, 12, 31), "FY2027-T2 (oct–dic)")
    m = bucket_of(date(2028, 2, 10), "month")
    assert (m.start, m.end, m.label) == (date(2028, 2, 1), date(2028, 2, 29), "feb 2028")
    assert bucket_of(date(2026, 6, 30), "fy").label == "FY2026"
    assert [b.label for b in buckets_between(date(2026, 6, 15), date(2026, 8, 1), "month")] == [
        "jun 2026", "jul 2026", "ago 2026"]
    assert len(buckets_between(date(2026, 7, 1), date(2027, 6, 30), "quarter")) == 4
    with pytest.raises(ValueError):
        bucket_of(date(2026, 1, 1), "week")


def test_table_total_row_is_the_column_sums():
    t = Table([Column("a"), Column("m", MONEY), Column("n", COUNT)],
              [["x", D("0.10"), 1], ["y", D("0.20"), 2], ["z", None, 3]]).with_totals("Total")
    assert t.total == ["Total", D("0.30"), 6]
    assert [c["text"] for c in t.display_total()] == ["Total", "$0.30", "6"]


def test_nice_max():
    assert [nice_max(v) for v in (0, 7, 130, 2400, 533662.5, 10001)] == [1.0, 8.0, 150.0, 2500.0, 600000.0, 15000.0]


def test_chart_is_accessible_and_escaped():
    svg = chart_svg(uid="c1", title="Cobros <prueba>", desc="Barras & línea", labels=["jul", "ago"],
                    bars=[Series("Vencía", [D("100.00"), D("0.00")], NAVY)],
                    line=Series("Cobrado", [D("60.25"), D("39.75")], GREEN))
    assert svg.startswith("<svg") and 'role="img"' in svg and 'aria-labelledby="c1-t c1-d"' in svg
    assert "<title id=\"c1-t\">Cobros &lt;prueba&gt;</title>" in svg
    assert "<desc id=\"c1-d\">Barras &amp; línea</desc>" in svg
    assert "jul — Cobrado: $60.25" in svg and "Vencía" in svg and "<polyline" in svg
    assert svg.count("<rect") == 2 + 1        # two bars and one legend swatch


def test_stacked_chart_counts():
    svg = chart_svg(uid="c2", title="t", desc="d", labels=["T1"], stacked=True, money=False,
                    bars=[Series("a", [2], NAVY), Series("b", [3], GREEN)])
    assert "T1 — a: 2" in svg and "T1 — b: 3" in svg and "$" not in svg
