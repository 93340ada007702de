"""Improvement-district fixtures: a SID district with a resolution, a TID district with a petition."""
from datetime import date
from decimal import Decimal

import pytest

from districts.improvement import services
from districts.improvement.models import TidOrdinance
from districts.models import District, Municipality, Parcel, Party
from tests import factories

FORMULA = 'if(use_class == "HOTEL", 0.0015 * assessed_value, max(150, 0.25 * frontage_m))'


@pytest.fixture
def sid_district(db):
    district = factories.district(code="sid-prueba", kind=District.Kind.SID, name="Distrito Especial de Prueba")
    for n, cadastre in enumerate(["100-200-300-01", "100-200-300-02", "100-200-300-03"], start=1):
        p = factories.parcel(cadastre=cadastre, municipality="San Juan", cuerdas=str(n))
        factories.own(p, factories.person(given=f"Dueño {n}", first="Prueba", second=str(n)))
        factories.member(district, p)
    return district


@pytest.fixture
def resolution(sid_district, staff_user):
    return services.sid_resolution_create(
        actor=staff_user, district=sid_district, number="R-1", adopted_on=date(2025, 1, 10), term_years=3,
        first_fiscal_year=2026, due_dates=["07-01", "01-01"], penalty_pct=Decimal("10"), penalty_grace_days=30)


@pytest.fixture
def charged_resolution(resolution, staff_user):
    parcels = {p.cadastre: p for p in Parcel.objects.filter(memberships__district=resolution.district)}
    services.sid_charges_set(actor=staff_user, resolution=resolution, lines=[
        {"parcel": parcels["100-200-300-01"], "annual_charge": Decimal("100.00")},
        {"parcel": parcels["100-200-300-02"], "annual_charge": Decimal("200.00")},
        {"parcel": parcels["100-200-300-03"], "annual_charge": Decimal("333.33")},
    ])
    return resolution


@pytest.fixture
def tid_district(db):
    district = factories.district(code="tid-prueba", kind=District.Kind.TID, name="Distrito Turístico de Prueba")
    rows = [("200-300-400-01", "HOTEL", "2000000.00", "80.00"),  # 0.0015 × 2,000,000 = 3000.00
            ("200-300-400-02", "COMMERCIAL", "500000.00", "1000.00"),  # max(150, 250) = 250.00
            ("200-300-400-03", "RESIDENTIAL", "150000.00", "20.00")]  # max(150, 5) = 150.00
    for cadastre, use, value, frontage in rows:
        p = factories.parcel(cadastre=cadastre, municipality="San Juan", use_class=use, frontage_m=Decimal(frontage))
        p.assessed_value = Decimal(value)
        p.save()
        factories.member(district, p)
    return district


@pytest.fixture
def petition(tid_district, staff_user):
    return services.tid_petition_create(actor=staff_user, district=tid_district,
                                        municipality=Municipality.objects.get(name="San Juan"),
                                        petition_text="Petición del alcalde.", legislature_received_on=date(2026, 3, 2))


@pytest.fixture
def favorable(petition, staff_user):
    for factor in "abcde":
        services.tid_finding_record(actor=staff_user, petition=petition, factor=factor, finding="FAVORABLE")
    return petition


def issue(petition, user, **extra):
    data = {"number": "Ord. 1", "name": "Distrito Turístico de Prueba", "issued_on": date(2026, 5, 1),
            "expected_amount": Decimal("3400.00"), "term_years": 3, "first_fiscal_year": 2027, "formula": FORMULA,
            "due_dates": ["07-01", "01-01"], "association_authorized": True}
    data.update(extra)
    return services.tid_ordinance_issue(actor=user, petition=petition, **data)


@pytest.fixture
def ordinance(favorable, staff_user):
    return issue(favorable, staff_user)


@pytest.fixture
def approved(ordinance, staff_user):
    services.tid_mayor_receipt(actor=staff_user, ordinance=ordinance, received_on=date(2026, 5, 4))
    services.tid_mayor_decide(actor=staff_user, ordinance=ordinance, decision=TidOrdinance.Decision.APPROVED,
                              decided_on=date(2026, 5, 6))
    return TidOrdinance.objects.get(pk=ordinance.pk)


@pytest.fixture
def association():
    return Party.objects.create(kind=Party.Kind.ORGANIZATION, organization_name="Asociación de Prueba, Inc.")


@pytest.fixture
def with_association(approved, association, staff_user):
    services.tid_publication_record(actor=staff_user, ordinance=approved, newspaper="El Nuevo Día",
                                    published_on=date(2026, 5, 8))
    services.tid_collector_set(actor=staff_user, ordinance=approved, collector="ASSOCIATION", association=association,
                               copy_sent_to_crim_on=date(2026, 5, 11))
    return TidOrdinance.objects.get(pk=approved.pk)
