"""Builders for the franchise tests: a DRNA office, parties and franchises saved through the service."""
from __future__ import annotations

from datetime import date

import pytest

from districts.models import Office, Party
from franchises import services
from franchises.models import Franchise
from tests import factories


@pytest.fixture
def drna(db) -> Office:
    return factories.office(name="DRNA — Franquicias de Agua", kind=Office.Kind.DRNA)


@pytest.fixture
def holder(db) -> Party:
    return factories.person(given="María del Carmen", first="Peña", second="Colón")


@pytest.fixture
def recipient(db) -> Party:
    return factories.person(given="Luis Alberto", first="Rivera", second="Ortiz")


@pytest.fixture
def company(db) -> Party:
    rep = factories.person(given="Carmen", first="Ortiz", second="Báez")
    return Party.objects.create(kind=Party.Kind.ORGANIZATION, organization_name="Embotelladora Cristal, Inc.",
                                representative=rep, representative_title="Presidenta")


@pytest.fixture
def make_franchise(drna, holder):
    counter = iter(range(1, 1000))

    def make(*, number: str | None = None, source="GROUNDWATER", use="INDUSTRIAL_COMMERCIAL",
             issue=date(2020, 1, 15), expiry=date(2028, 1, 14), gallons=12_000_000, actor=None, **extra) -> Franchise:
        f = Franchise(number=number or f"DRNA-FE-2020-{next(counter):04d}", holder=extra.pop("holder", holder),
                      source=source, use=use, authorized_gallons=gallons, issue_date=issue, expiry_date=expiry,
                      office=drna, **extra)
        return services.franchise_save(actor=actor, instance=f)

    return make


ALL_TRANSFER_DOCS = {"FRANCHISE_NUMBER": True, "HOLDER_NAME": True, "RECIPIENT_NAME": True, "REASONS_EVIDENCE": True,
                     "OWNER_CONSENT": True, "SIGNATURES_BOTH": True}
