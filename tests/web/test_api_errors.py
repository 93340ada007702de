"""Issue #18 (schemathesis): the API's errors are part of its contract.

- `/api/v1/parcels/null,null/` (an id no route matches) answered Django's HTML 404 page, where every other
  API 404 is JSON: under /api/ it is JSON too (core.api_schema.api_not_found); elsewhere the page is unchanged.
- The schema documented only successes: 403 (not signed in, read-only token, role), 429, 400 where there is
  input, 404 where there is an id, 415 where there is a body are now in every operation, with their bodies.
"""
import pytest
from drf_spectacular.generators import SchemaGenerator

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/api/v1/parcels/null,null/", "/api/v1/accounts/abc/statement/",
                                 "/api/v1/no-such-thing/"])
def test_an_api_path_no_route_matches_answers_json(postgres_only, staff_client, url):
    response = staff_client.get(url)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["detail"]


def test_a_page_no_route_matches_is_still_the_html_page(postgres_only, staff_client):
    response = staff_client.get("/registro/no-existe/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_every_operation_documents_its_errors():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    assert {"ApiError", "ApiValidationError"} <= set(schema["components"]["schemas"])
    for path, item in schema["paths"].items():
        for method, op in item.items():
            params = op.get("parameters", [])
            codes = set(op["responses"])
            assert {"403", "429"} <= codes, (method, path)
            if "requestBody" in op:
                assert {"400", "415"} <= codes, (method, path)
            if any(p["in"] == "path" for p in params):
                assert "404" in codes, (method, path)


def test_a_read_only_token_is_refused_a_write_with_the_documented_403(postgres_only, make_user):
    from django.test import Client

    from core.api_tokens import token_create
    from core.models import ApiToken

    user = make_user("lectura", "staff", "cashier")
    _, key = token_create(user=user, name="lectura", scope=ApiToken.Scope.READ, actor=user)
    response = Client().post("/api/v1/payments/", {}, content_type="application/json",
                             HTTP_AUTHORIZATION=f"Bearer {key}")
    assert response.status_code == 403
    assert response.json()["detail"]
