"""The one "district → source types" mapping (assessments.ledger.sources), read by the aging and the reports."""
from __future__ import annotations

import pytest

from assessments.ledger import aging, sources
from assessments.reports import scope, uncollected


def test_roll_of_source_reads_roll_charges_and_water_sales_only():
    assert sources.roll_of_source("rolls.Roll:12") == 12
    assert sources.roll_of_source("rolls.WaterSale:7") == 7
    assert sources.roll_of_source("rolls.Roll:") is None
    assert sources.roll_of_source("franchises.Invoice:3") is None
    assert sources.roll_of_source("improvement_billing.Run:5") is None


def test_run_of_source_reads_improvement_billing_runs_only():
    assert sources.run_of_source("improvement_billing.Run:5") == 5
    assert sources.run_of_source("improvement_billing.Run:") is None
    assert sources.run_of_source("rolls.Roll:12") is None


def test_aging_and_reports_share_the_ledger_mapping():
    assert aging.district_source_types is sources.district_source_types
    assert scope.district_source_types is sources.district_source_types
    assert uncollected.source_origins is sources.source_origins


@pytest.mark.django_db
def test_district_source_types_of_a_district(db):
    from tests import factories

    district = factories.district()
    assert sources.district_source_types(district.pk) == []
    q = scope.receivable_q(district_id=district.pk)
    assert ("source_type__in", []) in q.children


def test_the_ledger_imports_rolls_and_improvement_billing_only_when_asked():
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(sources))
    top = [n.module for n in tree.body if isinstance(n, ast.ImportFrom)]
    top += [a.name for n in tree.body if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in top if m and ("rolls" in m or "improvement_billing" in m)]
