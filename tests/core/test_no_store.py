"""Portal pages, portal JSON and staff pages are never stored by a browser or a proxy."""
import pytest

pytestmark = pytest.mark.django_db


def _no_store(response) -> bool:
    return "no-store" in response.get("Cache-Control", "")


def test_staff_pages_and_api_are_no_store(staff_client):
    for url in ("/", "/registro/parcelas/", "/api/v1/parcels/"):
        response = staff_client.get(url)
        assert response.status_code == 200 and _no_store(response), url


def test_portal_pages_and_json_are_no_store(client, owner_user):
    client.force_login(owner_user)
    for url in ("/portal/", "/api/v1/portal/notice-language/"):
        assert _no_store(client.get(url)), url


def test_anonymous_portal_and_api_answers_are_no_store(client):
    assert _no_store(client.get("/portal/"))
    assert _no_store(client.get("/api/v1/parcels/"))


def test_the_public_verification_page_is_not_forced(client):
    assert not _no_store(client.get("/verificar/"))
