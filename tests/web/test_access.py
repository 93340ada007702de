"""Every staff page refuses anonymous users and owners; the API refuses them too."""
import pytest
from django.urls import reverse

from tests.web.routes import named_patterns

PUBLIC = {"login", "logout", "password_reset", "password_reset_done", "password_reset_confirm",
          "password_reset_complete", "set_language", "core:verify_form", "core:verify",
          "core:calendar_ical",  # the iCal feed: its secret token is the key (tests/dashboard/test_calendar.py)
          "healthz", "readyz",  # the load balancer's probes, without details (tests/core/test_health.py)
          # the second step of signing in, for every signed-in account (tests/core/test_second_factor.py)
          "otp_verify", "otp_enrol", "otp_recovery_codes"}
SKIP_NAMESPACES = {"admin", "portal", "api"}


def _staff_routes():
    """(name, kwargs) for every named route that is a staff page."""
    routes = []
    for ns, p, name in named_patterns():
        if (ns and ns[0] in SKIP_NAMESPACES) or p.name in PUBLIC or name in PUBLIC \
                or p.name.startswith("password_change"):
            continue
        kwargs = {k: ("x" if k in ("code", "slug") else 1) for k in p.pattern.regex.groupindex}
        routes.append((name, kwargs))
    return routes


STAFF_ROUTES = _staff_routes()


def test_staff_routes_are_found():
    names = {n for n, _ in STAFF_ROUTES}
    assert {"home", "districts:parcel_list", "districts:parcel_detail"} <= names


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "kwargs"), STAFF_ROUTES, ids=[n for n, _ in STAFF_ROUTES])
def test_anonymous_is_sent_to_login(client, name, kwargs):
    url = reverse(name, kwargs=kwargs)
    response = client.get(url)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "kwargs"), STAFF_ROUTES, ids=[n for n, _ in STAFF_ROUTES])
def test_owner_never_reaches_staff_pages(client, owner_user, name, kwargs):
    client.force_login(owner_user)
    response = client.get(reverse(name, kwargs=kwargs))
    assert response.status_code == 302
    assert response.url == reverse("portal:home")


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "kwargs"), STAFF_ROUTES, ids=[n for n, _ in STAFF_ROUTES])
def test_user_without_role_is_forbidden(client, make_user, name, kwargs):
    client.force_login(make_user("nobody"))
    assert client.get(reverse(name, kwargs=kwargs)).status_code == 403


@pytest.mark.django_db
def test_auditor_reads_but_cannot_write(client, auditor_user):
    client.force_login(auditor_user)
    assert client.get(reverse("districts:parcel_list")).status_code == 200
    assert client.get(reverse("districts:parcel_create")).status_code == 403
    assert client.post(reverse("districts:parcel_create"), {}).status_code == 403


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/parcels/", "/api/v1/parties/", "/api/v1/districts/", "/api/v1/offices/",
                                  "/api/v1/memberships/", "/api/v1/water-deliveries/", "/api/v1/schema/"])
def test_api_refuses_anonymous_and_owner(client, owner_user, path):
    assert client.get(path).status_code in (401, 403)
    client.force_login(owner_user)
    assert client.get(path).status_code == 403


@pytest.mark.django_db
def test_compute_api_refuses_owner(client, owner_user):
    client.force_login(owner_user)
    response = client.post("/api/v1/compute/sid-remittance/", {"collected": "100.00"}, content_type="application/json")
    assert response.status_code == 403
