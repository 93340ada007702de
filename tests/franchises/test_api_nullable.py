"""Issue #18 (schemathesis): a franchise with no predecessor or parcel answered `null` where the OpenAPI
schema promised a string (response_schema_conformance). The schema now says nullable."""
import pytest
from drf_spectacular.generators import SchemaGenerator

pytestmark = pytest.mark.django_db


def _props(component: str) -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"][component]["properties"]


def test_a_franchise_without_predecessor_answers_null_and_the_schema_says_so(postgres_only, client, make_user,
                                                                               make_franchise):
    client.force_login(make_user("api.staff", "staff"))
    f = make_franchise(number="DRNA-FE-2019-0042")
    row = client.get("/api/v1/franchises/").json()["results"][0]
    detail = client.get(f"/api/v1/franchises/{f.pk}/").json()
    assert (row["predecessor"], row["property_parcel"], detail["predecessor"]) == (None, None, None)
    for component, field in [("Franchise", "predecessor"), ("Franchise", "property_parcel"),
                             ("FranchiseDetail", "predecessor"), ("Application", "resulting_franchise")]:
        assert _props(component)[field].get("nullable") is True, (component, field)
