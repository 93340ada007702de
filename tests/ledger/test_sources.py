"""The one "district → roll source types" mapping (assessments.ledger.sources), read by the aging and the reports."""
from __future__ import annotations

import pytest

from assessments.ledger import aging, sources
from assessments.reports import scope, uncollected


def test_roll_of_source_reads_roll_charges_and_water_sales_only():
    assert sources.roll_of_source("rolls.Roll:12") == 12
    assert sources.roll_of_source("rolls.WaterSale:7") == 7
    assert sources.roll_of_source("rolls.Roll:") is None
    assert sources.roll_of_source("franchises.Invoice:3") is None


def test_aging_and_reports_share_the_ledger_mapping():
    assert aging.roll_source_types is sources.roll_source_types
    assert scope.roll_source_types is sources.roll_source_types
    assert uncollected.roll_of_source is sources.roll_of_source


@pytest.mark.django_db
def test_roll_source_types_of_a_district(db):
    from tests import factories

    district = factories.district()
    assert sources.roll_source_types(district.pk) == []
    q = scope.receivable_q(district_id=district.pk)
    assert ("source_type__in", []) in q.children
