"""Every franchises page and API endpoint refuses anonymous users and owners; auditors only read."""
import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse


def _routes(namespace: str):
    for p in get_resolver().url_patterns:
        if isinstance(p, URLResolver) and p.namespace == namespace:
            return [(f"{namespace}:{q.name}", dict.fromkeys(q.pattern.regex.groupindex, 1))
                    for q in p.url_patterns if isinstance(q, URLPattern) and q.name]
    return []


ROUTES = _routes("franchises")
API = ["/api/v1/franchises/", "/api/v1/franchises/1/", "/api/v1/franchises/applications/",
       "/api/v1/franchises/applications/1/", "/api/v1/franchises/applications/1/decide/"]


def test_every_page_is_covered():
    names = {n for n, _ in ROUTES}
    assert {"franchises:list", "franchises:detail", "franchises:application_file", "franchises:application_decide",
            "franchises:application_hearing", "franchises:proceeding_create"} <= names
    assert len(ROUTES) >= 18


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "kwargs"), ROUTES, ids=[n for n, _ in ROUTES])
def test_anonymous_is_sent_to_login(client, name, kwargs):
    url = reverse(name, kwargs=kwargs)
    for response in (client.get(url), client.post(url, {})):
        assert response.status_code == 302
        assert response.url.startswith(reverse("login"))


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "kwargs"), ROUTES, ids=[n for n, _ in ROUTES])
def test_owner_is_sent_to_the_portal(client, owner_user, name, kwargs):
    client.force_login(owner_user)
    url = reverse(name, kwargs=kwargs)
    for response in (client.get(url), client.post(url, {})):
        assert response.status_code == 302
        assert response.url == reverse("portal:home")


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "kwargs"), ROUTES, ids=[n for n, _ in ROUTES])
def test_user_without_role_is_forbidden(client, make_user, name, kwargs):
    client.force_login(make_user("nobody"))
    assert client.get(reverse(name, kwargs=kwargs)).status_code == 403


@pytest.mark.django_db
@pytest.mark.parametrize("path", API)
def test_api_refuses_anonymous_and_owner(client, owner_user, path):
    assert client.get(path).status_code in (401, 403)
    assert client.post(path, {}, content_type="application/json").status_code in (401, 403)
    client.force_login(owner_user)
    assert client.get(path).status_code == 403
    assert client.post(path, {}, content_type="application/json").status_code == 403


@pytest.mark.django_db
def test_auditor_reads_but_cannot_write(client, auditor_user, make_franchise):
    f = make_franchise()
    client.force_login(auditor_user)
    assert client.get(reverse("franchises:list")).status_code == 200
    assert client.get(reverse("franchises:detail", args=[f.pk])).status_code == 200
    assert client.get(reverse("franchises:create")).status_code == 403
    assert client.post(reverse("franchises:application_file", args=[f.pk]) + "?kind=TRANSFER", {}).status_code == 403
    assert client.get("/api/v1/franchises/").status_code == 200
    assert client.post("/api/v1/franchises/applications/", {}, content_type="application/json").status_code == 403
