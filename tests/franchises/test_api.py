"""Franchise API: list/detail with the tariff class; applications list/create/decide; 400 on bad input."""
from datetime import date
from decimal import Decimal

import pytest
from django.test import Client

from franchises import selectors, services
from tests.franchises.conftest import ALL_TRANSFER_DOCS

D = date.fromisoformat


@pytest.fixture
def api(client, make_user):
    client.force_login(make_user("api.staff", "staff"))
    return client


@pytest.fixture
def decider(make_user):
    """Staff file applications; the approver decides them (core.roles.DECIDE)."""
    client = Client()
    client.force_login(make_user("api.approver", "approver"))
    return client


def post(client, url, data):
    return client.post(url, data, content_type="application/json")


def test_list_and_detail_show_the_tariff_class(api, make_franchise):
    f = make_franchise(number="DRNA-FE-2019-0042", source="ARTESIAN", use="RECREATION_BUSINESS")
    make_franchise(number="DRNA-FE-2019-0043", source="SURFACE", use="DOMESTIC")
    services.meter_reading_record(actor=None, franchise=f, month=D("2026-01-01"), gallons=10)
    rows = api.get("/api/v1/franchises/").json()["results"]
    assert [(r["number"], r["tariff_class"]) for r in rows] == [("DRNA-FE-2019-0042", "GROUND_INDUSTRIAL"),
                                                                ("DRNA-FE-2019-0043", "DOMESTIC")]
    assert [r["number"] for r in api.get("/api/v1/franchises/?tariff_class=DOMESTIC").json()["results"]] == [
        "DRNA-FE-2019-0043"]
    assert [r["number"] for r in api.get("/api/v1/franchises/?q=pena").json()["results"]] == [
        "DRNA-FE-2019-0042", "DRNA-FE-2019-0043"]
    detail = api.get(f"/api/v1/franchises/{f.pk}/").json()
    assert detail["tariff_class"] == "GROUND_INDUSTRIAL"
    assert detail["meter_readings"] == [{"month": "2026-01-01", "gallons": 10, "origin": "ENTERED"}]
    assert detail["max_expiry"] == "2030-01-15"


def test_create_and_decide_a_transfer(api, decider, make_franchise, recipient):
    f = make_franchise()
    response = post(api, "/api/v1/franchises/applications/", {
        "franchise": f.pk, "kind": "TRANSFER", "received_on": "2026-10-27", "recipient": recipient.pk,
        "documents": list(ALL_TRANSFER_DOCS), "fee_paid": True})
    assert response.status_code == 201, response.content
    app = response.json()
    assert (app["status"], app["decision_due"], app["fee"], app["missing_documents"]) == (
        "RECEIVED", "2026-11-27", "50.00", [])
    assert app["tariff_class"] == "GROUND_INDUSTRIAL"
    listed = api.get(f"/api/v1/franchises/applications/?franchise={f.pk}&status=open").json()["results"]
    assert [a["id"] for a in listed] == [app["id"]]
    assert post(api, f"/api/v1/franchises/applications/{app['id']}/decide/", {"grant": True}).status_code == 403
    decided = post(decider, f"/api/v1/franchises/applications/{app['id']}/decide/",
                   {"decided_on": "2026-11-10", "grant": True})
    assert decided.status_code == 200 and decided.json()["status"] == "GRANTED"
    again = post(decider, f"/api/v1/franchises/applications/{app['id']}/decide/", {"grant": True})
    assert again.status_code == 400 and "status" in again.json()


@pytest.mark.parametrize(("payload", "field"), [
    ({"kind": "SALE", "received_on": "2026-10-27"}, "kind"),
    ({"kind": "TRANSFER"}, "received_on"),
    ({"kind": "TRANSFER", "received_on": "2026-10-27"}, "recipient"),  # the service's refusal, as 400
    ({"kind": "RENEWAL", "received_on": "2026-10-27", "requested_expiry_date": "2020-01-01"}, "requested_expiry_date"),
    ({"kind": "CANCELLATION", "received_on": "2026-10-27", "documents": ["NOPE"]}, "documents"),
])
def test_bad_input_is_a_400_with_details(api, make_franchise, payload, field):
    f = make_franchise()
    response = post(api, "/api/v1/franchises/applications/", {"franchise": f.pk, **payload})
    assert response.status_code == 400
    assert field in response.json()


def test_renewal_decision_needs_the_debt_and_uses_billing_when_registered(decider, make_franchise):
    f = make_franchise(issue=D("2020-01-15"), expiry=D("2028-01-14"))
    app = services.application_file(actor=None, franchise=f, kind="RENEWAL", received_on=D("2027-10-01"),
                                    requested_expiry_date=D("2029-06-30"), documents={"RENEWAL_APPLICATION": True})
    url = f"/api/v1/franchises/applications/{app.pk}/decide/"
    missing = post(decider, url, {"decided_on": "2027-10-15", "grant": True})
    assert missing.status_code == 400 and "outstanding_debt" in missing.json()
    selectors.register_debt_provider(lambda franchise, on: Decimal("310.00"))
    try:
        refused = post(decider, url, {"decided_on": "2027-10-15", "grant": True, "outstanding_debt": "0.00"})
    finally:
        selectors.register_debt_provider(None)
    body = refused.json()   # asked to grant with billing's debt: 400 with the reason, nothing recorded
    assert refused.status_code == 400 and "$310.00" in str(body["grant"])
    app.refresh_from_db()
    assert (app.status, app.determination_date) == ("RECEIVED", None)


def test_openapi_schema_includes_the_franchise_endpoints(api):
    response = api.get("/api/v1/schema/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "/api/v1/franchises/applications/{id}/decide/" in body
