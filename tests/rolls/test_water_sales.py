"""LAJ-5 water sales (docs/rules/lajas.md): before a Lajas parcel is liable it pays the Authority
"por el agua que usare": acre-feet actually used, on the parcel's real acres, for every fiscal year
before liability — the last one included. Water offered and not used is not sold."""
from datetime import date
from decimal import Decimal

import pytest

from assessments.models import Receivable
from assessments.rolls import services
from assessments.rules.lajas import liability_start, sells_water_of_prior_year, water_sale
from core.models import ParameterVersion
from districts.models import District, WaterDelivery
from tests import factories
from tests.rolls.conftest import LAJ_FIGURES

pytestmark = pytest.mark.django_db


def test_the_last_year_before_liability_is_sold_too():
    assert sells_water_of_prior_year(None, 2027)
    assert sells_water_of_prior_year(liability_start(date(2026, 3, 15)), 2027)  # liable from 2026-07-01: sells FY2026
    assert not sells_water_of_prior_year(liability_start(date(2025, 3, 15)), 2027)  # liable in FY2026 already


def test_acre_feet_used_on_real_acres_rounded_once():
    sale = water_sale(used_af_per_acre=[Decimal("1.255"), Decimal("0.5")], real_acres=Decimal("3.3333"),
                      price_per_acre_foot=Decimal("12.50"))
    assert sale.acre_feet == Decimal("5.84994150")
    assert sale.amount == Decimal("73.12")


def _lajas(staff_user):
    district = factories.district(code="valle-lajas", kind=District.Kind.LAJAS,
                                  name="Distrito de Riego del Valle de Lajas")
    parcels = {}
    for i, (name, twelve) in enumerate((("new", None), ("last", date(2026, 3, 15)), ("old", date(2010, 1, 1)))):
        p = factories.parcel(cadastre=f"410-020-000-{i:02d}", municipality="Lajas")
        factories.member(district, p, gravity_acres=Decimal(10), pumped_acres=Decimal(4), credit_pct=Decimal(0),
                         twelve_months_on=twelve)
        WaterDelivery.objects.create(parcel=p, fiscal_year=2026, semester=1, af_per_acre=Decimal("2.000"))
        WaterDelivery.objects.create(parcel=p, fiscal_year=2026, semester=2, af_per_acre=Decimal("3.000"),
                                     offered_only=True)
        parcels[name] = p
    ParameterVersion.objects.create(family="laj_water_sales", version="test-1", effective_from=date(2000, 1, 1),
                                    citation="Ley del Valle de Lajas, LAJ-5", values={"price_per_acre_foot": "12.50"})
    services.figures_save(district=district, fiscal_year=2027, figures=LAJ_FIGURES, certified_by="Autoridad de Tierras",
                          certified_on=date(2026, 5, 20), actor=staff_user)
    return district, parcels


def test_certifying_a_lajas_roll_sells_water_used_on_real_acres_including_the_last_year(staff_user):
    district, parcels = _lajas(staff_user)
    roll = services.roll_generate(district_code=district.code, fiscal_year=2027, actor=staff_user).roll
    services.roll_certify(roll=roll, actor=staff_user, on=date(2026, 6, 20))

    sales = {r.source_id: r for r in Receivable.objects.filter(kind=Receivable.Kind.WATER_SALE)}
    # Not yet liable, and liable from 2026-07-01 (its last year before liability is FY2026): both sold.
    # Long liable: nothing sold. Only S1's water was used (S2 was offered only): 2.0 af/acre × 14 real
    # acres (10 by gravity + 4 pumped, unweighted) = 28 acre-feet × $12.50.
    assert set(sales) == {parcels["new"].cadastre, parcels["last"].cadastre}
    for rec in sales.values():
        assert rec.amount == Decimal("350.00")
        assert rec.breakdown["rule"] == "LAJ-5" and rec.breakdown["real_acres"] == "14.0000"
        assert rec.breakdown["acre_feet"] == "28.0000000" and rec.breakdown["fiscal_year_of_water"] == 2026
