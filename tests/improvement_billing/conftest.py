"""Improvement billing fixtures over the improvement-district ones (tests/improvement/conftest.py):
a SID resolution CRIM has received, a TID ordinance in force collected by its association."""
from datetime import date

import pytest

from districts.improvement import services
from districts.improvement.models import SidResolution, TidOrdinance
from tests.improvement.conftest import (  # noqa: F401  (fixtures)
    approved,
    association,
    charged_resolution,
    favorable,
    ordinance,
    petition,
    resolution,
    sid_district,
    tid_district,
    with_association,
)

TODAY = date(2026, 8, 3)   # FY2027; its July 1 due date is already past at billing time


@pytest.fixture
def received(charged_resolution, staff_user) -> SidResolution:  # noqa: F811
    """FY2026–FY2028, charges 100.00 / 200.00 / 333.33, due 07-01 and 01-01, 10 % after 30 days."""
    services.sid_crim_receipt_record(actor=staff_user, resolution=charged_resolution, received_on=date(2025, 2, 3))
    return SidResolution.objects.get(pk=charged_resolution.pk)


@pytest.fixture
def tid_in_force(with_association, staff_user) -> TidOrdinance:  # noqa: F811
    """FY2027–FY2029, 3000.00 / 250.00 / 150.00, collected by the association (TID-3)."""
    services.tid_association_receipt(actor=staff_user, ordinance=with_association, received_on=date(2026, 5, 12))
    return TidOrdinance.objects.get(pk=with_association.pk)
