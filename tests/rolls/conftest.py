from datetime import date
from decimal import Decimal

import pytest

from assessments.rolls import services
from districts.models import District, WaterDelivery
from tests import factories

IRR_FIGURES = {"bond_interest": "85000.00", "bond_principal": "150000.00", "bonds_outstanding": "1200000.00",
               "om_cost": "310000.00", "deficit": "12500.00", "surplus": "0.00", "estimated_hydro_income": "60000.00",
               "hydro_retained": "15000.00", "other_income": "4250.00"}
LAJ_FIGURES = {"om_estimate": "125000.00", "reserve": "2500.00", "water_right_credits": "1000.00",
               "deficit": "0.00", "surplus": "3275.00", "misc_income": "4120.00"}
FREE_ENDS = [date(2001, 5, 10), date(2024, 9, 20), date(2026, 10, 15), None, date(1995, 1, 1), date(2011, 8, 1),
             date(2026, 7, 1)]


@pytest.fixture
def irrigation_register(db):
    district = factories.district()
    for i, end in enumerate(FREE_ENDS):
        p = factories.parcel(cadastre=f"371-045-123-{i:02d}", cuerdas=str(5 + 3 * i))
        factories.member(district, p, included_on=date(1990, 1, 1), free_period_end=end)
        for sem, af in ((1, "2.6"), (2, "1.5" if i == 1 else "3.1")):
            WaterDelivery.objects.create(parcel=p, fiscal_year=2026, semester=sem, af_per_acre=Decimal(af))
    return district


@pytest.fixture
def lajas_register(db):
    district = factories.district(code="valle-lajas", kind=District.Kind.LAJAS,
                                  name="Distrito de Riego del Valle de Lajas")
    for i in range(6):
        p = factories.parcel(cadastre=f"410-010-000-{i:02d}", municipality="Lajas")
        factories.member(district, p, gravity_acres=Decimal(10 + i), pumped_acres=Decimal(i),
                         credit_pct=Decimal("12.5") if i % 3 == 0 else Decimal(0),
                         twelve_months_on=None if i == 5 else date(2010, 1, 1))
    return district


@pytest.fixture
def irrigation_figures(irrigation_register, staff_user):
    return services.figures_save(district=irrigation_register, fiscal_year=2027, figures=IRR_FIGURES,
                                 certified_by="Ing. Carmen Ortiz Vélez, DTOP", certified_on=date(2026, 5, 15),
                                 actor=staff_user)


@pytest.fixture
def lajas_figures(lajas_register, staff_user):
    return services.figures_save(district=lajas_register, fiscal_year=2027, figures=LAJ_FIGURES,
                                 certified_by="Autoridad de Tierras", certified_on=date(2026, 5, 20), actor=staff_user)
