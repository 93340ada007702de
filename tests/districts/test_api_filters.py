"""Issue #18 (schemathesis): the register's filters ignored values they could not read — `?is_public_land=null`
listed every parcel, `?fiscal_year=0.5` filtered by a decimal — so a typo answered as if obeyed. They are 400s
naming the parameter (core.filters); an empty value still means no filter."""
import pytest

from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def register(db):
    parcel = factories.parcel()
    factories.member(factories.district(), parcel)
    return parcel


@pytest.mark.parametrize("url, param", [
    ("/api/v1/parcels/?is_public_land=null", "is_public_land"),
    ("/api/v1/parcels/?is_public_land=maybe", "is_public_land"),
    ("/api/v1/water-deliveries/?fiscal_year=0.5", "fiscal_year"),
    ("/api/v1/memberships/?free_period_end__isnull=perhaps", "free_period_end__isnull"),
])
def test_a_filter_value_that_cannot_be_read_is_a_400_naming_it(postgres_only, staff_client, register, url, param):
    response = staff_client.get(url)
    assert response.status_code == 400, response.content
    assert param in response.json()


@pytest.mark.parametrize("url, count", [
    ("/api/v1/parcels/?is_public_land=false", 1),
    ("/api/v1/parcels/?is_public_land=true", 0),
    ("/api/v1/parcels/?is_public_land=0", 1),
    ("/api/v1/parcels/?is_public_land=", 1),
    ("/api/v1/water-deliveries/?fiscal_year=2026", 0),
    ("/api/v1/memberships/?free_period_end__isnull=false", 1),
    ("/api/v1/memberships/?free_period_end__lte=", 1),
])
def test_readable_and_empty_values_filter(postgres_only, staff_client, register, url, count):
    response = staff_client.get(url)
    assert response.status_code == 200, response.content
    assert response.json()["count"] == count
