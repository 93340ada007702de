"""The what-if page shows what compute gives for the register's parcels, and explains bad figures."""
from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from assessments.compute import run
from assessments.engine_inputs import roll_payload
from districts.models import District, WaterDelivery
from tests import factories

pytestmark = pytest.mark.django_db

IRR_FIGURES = {"fiscal_year": 2027, "bond_interest": "400.00", "bond_principal": "600.00",
               "bonds_outstanding": "1200000.00", "om_cost": "1500.00", "deficit": "0.00", "surplus": "100.00",
               "estimated_hydro_income": "200.00", "hydro_retained": "20.00", "other_income": "80.00"}
LAJ_FIGURES = {"fiscal_year": 2027, "om_estimate": "1250000.00", "reserve": "25000.00",
               "water_right_credits": "0.00", "deficit": "0.00", "surplus": "0.00", "misc_income": "0.00"}


@pytest.fixture
def irrigation_district():
    d = factories.district()
    for i, fpe in enumerate([date(2001, 5, 10), date(2024, 9, 20), date(2026, 10, 15)]):
        p = factories.parcel(cadastre=f"371-045-123-{i:02d}", cuerdas=str(10 + i))
        factories.member(d, p, included_on=date(1999, 1, 1), free_period_end=fpe)
        WaterDelivery.objects.create(parcel=p, fiscal_year=2026, semester=1, af_per_acre=Decimal("2.5"))
        WaterDelivery.objects.create(parcel=p, fiscal_year=2026, semester=2, af_per_acre=Decimal("2.5"))
    return d


@pytest.fixture
def lajas_district():
    d = factories.district(code="valle-lajas", kind=District.Kind.LAJAS, name="Distrito de Riego del Valle de Lajas")
    for i in range(3):
        p = factories.parcel(cadastre=f"410-010-000-{i:02d}", municipality="Lajas")
        factories.member(d, p, gravity_acres=Decimal("20"), pumped_acres=Decimal("4"),
                         credit_pct=Decimal("10") if i == 0 else Decimal("0"), twelve_months_on=date(2010, 1, 1))
    return d


def test_irrigation_whatif_equals_compute(staff_client, irrigation_district):
    response = staff_client.get(reverse("whatif:page"), {"district": irrigation_district.code, **IRR_FIGURES})
    assert response.status_code == 200
    result = response.context["result"]
    expected = run("irrigation-roll", roll_payload(irrigation_district, IRR_FIGURES))
    for key in ("base", "margin", "total", "billed_total", "appropriation_needed"):
        assert result[key] == expected[key]
    assert "Asignación legislativa necesaria" in response.content.decode()
    assert Decimal(result["appropriation_needed"]) == Decimal(result["total"]) - Decimal(result["billed_total"])


def test_lajas_whatif_shows_balancing_factor(staff_client, lajas_district):
    response = staff_client.get(reverse("whatif:page"), {"district": lajas_district.code, **LAJ_FIGURES})
    result = response.context["result"]
    assert Decimal(result["credits_total"]) > 0
    assert Decimal(result["balancing_water_right_credits"]) > 0
    balanced = run("lajas-roll", roll_payload(lajas_district, {
        **LAJ_FIGURES, "water_right_credits": result["balancing_water_right_credits"]}))
    assert abs(Decimal(balanced["credits_unfunded"])) <= Decimal("0.02")


def test_reserve_above_two_percent_is_explained_on_the_field(staff_client, lajas_district):
    figures = {**LAJ_FIGURES, "reserve": "25000.01"}
    response = staff_client.get(reverse("whatif:page"), {"district": lajas_district.code, **figures})
    assert "result" not in response.context
    assert response.context["form"].errors["reserve"]


def test_auditor_may_simulate(client, auditor_user, irrigation_district):
    client.force_login(auditor_user)
    assert client.get(reverse("whatif:page"), {"district": irrigation_district.code, **IRR_FIGURES}).status_code == 200
