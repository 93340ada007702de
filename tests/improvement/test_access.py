"""Every improvement page and endpoint refuses anonymous users and owners; auditors only read."""
from datetime import date
from decimal import Decimal

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from districts.improvement import services

pytestmark = pytest.mark.django_db


def _improvement_routes():
    routes = []

    def walk(patterns, ns):
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, ns + [p.namespace] if p.namespace else ns)
            elif isinstance(p, URLPattern) and p.name and ns == ["improvement"]:
                routes.append((f"improvement:{p.name}", dict.fromkeys(p.pattern.regex.groupindex, 1)))

    walk(get_resolver().url_patterns, [])
    return routes


ROUTES = _improvement_routes()
IDS = [name for name, _ in ROUTES]
POST_ONLY = {"sid_charge", "sid_crim", "sid_notice_mailed", "sid_batch", "sid_remit", "sid_not_carried_out",
             "sid_refund", "sid_crim_recovered", "tid_finding", "tid_deny", "tid_ordinance", "tid_preview",
             "tid_formula", "tid_mayor_receipt", "tid_mayor_decision", "tid_publication", "tid_collector",
             "tid_association_receipt", "tid_notice_mailed", "tid_account_entry", "tid_audit"}

API = ["/api/v1/improvement/sid-resolutions/", "/api/v1/improvement/sid-resolutions/1/",
       "/api/v1/improvement/sid-resolutions/1/charges/", "/api/v1/improvement/sid-resolutions/1/crim-receipt/",
       "/api/v1/improvement/sid-batches/", "/api/v1/improvement/sid-batches/1/",
       "/api/v1/improvement/sid-batches/1/remit/", "/api/v1/improvement/sid-remittance-report/",
       "/api/v1/improvement/tid-petitions/", "/api/v1/improvement/tid-petitions/1/",
       "/api/v1/improvement/tid-petitions/1/findings/", "/api/v1/improvement/ordinances/",
       "/api/v1/improvement/ordinances/1/", "/api/v1/improvement/ordinances/1/preview/",
       "/api/v1/improvement/ordinances/1/mayor-receipt/", "/api/v1/improvement/ordinances/1/mayor-decision/",
       "/api/v1/improvement/ordinances/1/publication/", "/api/v1/improvement/ordinances/1/collector/",
       "/api/v1/improvement/ordinances/1/association-receipt/",
       "/api/v1/improvement/ordinances/1/account-entries/", "/api/v1/improvement/charges/"]


def test_every_route_is_covered():
    names = {n.split(":")[1] for n in IDS}
    assert {"home", "sid_create", "sid_detail", "sid_edit", "sid_report", "tid_create", "tid_detail"} | POST_ONLY \
        == names


@pytest.mark.parametrize(("name", "kwargs"), ROUTES, ids=IDS)
@pytest.mark.parametrize("method", ["get", "post"])
def test_anonymous_is_sent_to_login(client, name, kwargs, method):
    response = getattr(client, method)(reverse(name, kwargs=kwargs))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


@pytest.mark.parametrize(("name", "kwargs"), ROUTES, ids=IDS)
@pytest.mark.parametrize("method", ["get", "post"])
def test_owner_never_reaches_improvement_pages(client, owner_user, name, kwargs, method):
    client.force_login(owner_user)
    response = getattr(client, method)(reverse(name, kwargs=kwargs))
    assert response.status_code == 302
    assert response.url == reverse("portal:home")


@pytest.mark.parametrize(("name", "kwargs"), ROUTES, ids=IDS)
def test_user_without_role_is_forbidden(client, make_user, name, kwargs):
    client.force_login(make_user("nobody"))
    assert client.get(reverse(name, kwargs=kwargs)).status_code == 403
    assert client.post(reverse(name, kwargs=kwargs)).status_code == 403


@pytest.mark.parametrize("path", API)
def test_api_refuses_anonymous_and_owner(client, owner_user, path):
    assert client.get(path).status_code in (401, 403)
    assert client.post(path, {}, content_type="application/json").status_code in (401, 403)
    client.force_login(owner_user)
    assert client.get(path).status_code == 403
    assert client.post(path, {}, content_type="application/json").status_code == 403


def test_auditor_reads_every_page_but_writes_nothing(client, auditor_user, charged_resolution, with_association,
                                                     staff_user):
    services.sid_crim_receipt_record(actor=staff_user, resolution=charged_resolution, received_on=date(2025, 2, 1))
    services.sid_batch_record(actor=staff_user, resolution=charged_resolution, received_on=date(2025, 8, 1),
                              collected=Decimal("100.00"))
    client.force_login(auditor_user)
    petition = with_association.petition
    for url in [reverse("improvement:home"), reverse("improvement:sid_report"),
                reverse("improvement:sid_detail", args=[charged_resolution.pk]),
                reverse("improvement:tid_detail", args=[petition.pk])]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "<form method=\"post\" action=\"/distritos-mejoramiento/" not in response.content.decode(), url
    for name, _ in ROUTES:
        short = name.split(":")[1]
        if short in POST_ONLY:
            pk = petition.pk if short.startswith("tid") else charged_resolution.pk
            assert client.post(reverse(name, args=[pk]), {}).status_code == 403, name
    assert client.get(reverse("improvement:sid_create")).status_code == 403
    assert client.get(reverse("improvement:tid_create")).status_code == 403
    api = client.post("/api/v1/improvement/sid-batches/", {"resolution": charged_resolution.pk,
                                                           "received_on": "2025-09-01", "collected": "1.00"},
                      content_type="application/json")
    assert api.status_code == 403
    assert client.get("/api/v1/improvement/sid-resolutions/").status_code == 200


def test_staff_pages_render(staff_client, charged_resolution, with_association, staff_user):
    services.sid_crim_receipt_record(actor=staff_user, resolution=charged_resolution, received_on=date(2025, 2, 1))
    services.sid_batch_record(actor=staff_user, resolution=charged_resolution, received_on=date(2025, 8, 1),
                              collected=Decimal("100.00"))
    home = staff_client.get(reverse("improvement:home")).content.decode()
    assert "R-1" in home and "Distrito Turístico de Prueba" in home
    sid = staff_client.get(reverse("improvement:sid_detail", args=[charged_resolution.pk])).content.decode()
    assert "$633.33" in sid and "$95.00" in sid and "SID-2" in sid
    tid = staff_client.get(reverse("improvement:tid_detail", args=[with_association.petition_id])).content.decode()
    assert "$3,400.00" in tid and "El Nuevo Día" in tid and "Asociación de Prueba" in tid
    assert staff_client.get(reverse("improvement:sid_create")).status_code == 200
    assert staff_client.get(reverse("improvement:tid_create")).status_code == 200
    assert staff_client.get(reverse("improvement:sid_edit", args=[charged_resolution.pk])).status_code == 200
    nav = staff_client.get(reverse("home")).content.decode()
    assert reverse("improvement:home") in nav
