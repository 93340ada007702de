"""Staff pages and API of improvement billing: roles, "Facturar año", 400s, refusals kept."""
from datetime import date

import pytest
from django.urls import reverse
from django.utils import timezone

from assessments.improvement_billing.models import BillingRun
from core.fiscal import fiscal_year_of
from core.models import Flag

pytestmark = pytest.mark.django_db
API = "/api/v1/improvement-billing/runs/"


@pytest.fixture
def fy():
    return fiscal_year_of(timezone.localdate())


@pytest.fixture
def long_resolution(charged_resolution, staff_user):
    """The fixture's resolution stretched to cover today's fiscal year (pages bill with today's date)."""
    from districts.improvement import services as improvement

    improvement.sid_resolution_update(actor=staff_user, resolution=charged_resolution, term_years=10)
    improvement.sid_crim_receipt_record(actor=staff_user, resolution=charged_resolution, received_on=date(2025, 2, 3))
    return charged_resolution


def test_pages_need_staff(client, make_user, long_resolution):
    url = reverse("improvement_billing:district", args=[long_resolution.district.code])
    assert client.get(url).status_code == 302                       # to the login page
    client.force_login(make_user("duena", "owner"))
    assert client.get(url)["Location"].endswith(reverse("portal:home"))
    client.force_login(make_user("auditora", "auditor"))
    assert client.get(url).status_code == 200
    assert client.post(url, {"fiscal_year": 2027}).status_code == 403
    assert not BillingRun.objects.exists()


def test_bill_year_from_the_page(approver_client, long_resolution, fy):
    district = long_resolution.district
    url = reverse("improvement_billing:district", args=[district.code])
    page = approver_client.get(url)
    assert "Facturar año" in page.content.decode()
    response = approver_client.post(url, {"fiscal_year": fy})
    run = BillingRun.objects.get(district=district, fiscal_year=fy)
    assert response["Location"] == run.get_absolute_url()
    detail = approver_client.get(run.get_absolute_url()).content.decode()
    assert "100-200-300-03" in detail and "$633.33" in detail
    index = approver_client.get(reverse("improvement_billing:index")).content.decode()
    assert f"FY{fy}" in index
    # A year outside the term: refused with the reason, kept, flagged.
    response = approver_client.post(url, {"fiscal_year": 2020}, follow=True)
    assert "No se facturó" in response.content.decode()
    refused = BillingRun.objects.get(district=district, fiscal_year=2020)
    assert refused.status == "REFUSED"
    assert Flag.objects.filter(object_id=refused.pk, rule="SID-1").exists()


def test_api(client, make_user, long_resolution, fy):
    client.force_login(make_user("alba", "approver"))  # billing: core.roles.FINALIZE
    code = long_resolution.district.code
    created = client.post(API, {"district": code, "fiscal_year": fy}, content_type="application/json")
    assert created.status_code == 201 and created.json()["created"] == 3
    again = client.post(API, {"district": code, "fiscal_year": fy}, content_type="application/json")
    assert again.status_code == 201 and again.json()["created"] == 0
    runs = client.get(API, {"district": code}).json()
    assert [r["fiscal_year"] for r in runs] == [fy] and runs[0]["charges_total"] == "633.33"
    charges = client.get(f"{API}{runs[0]['id']}/charges/").json()
    assert sorted(c["amount"] for c in charges) == ["100.00", "200.00", "333.33"]
    assert charges[0]["breakdown"]["rule"] == "SID-1"
    for body in ({"district": code, "fiscal_year": "dos mil"}, {"district": code}, {"district": "nope",
                                                                                    "fiscal_year": fy},
                 {"district": code, "fiscal_year": 99999}):
        bad = client.post(API, body, content_type="application/json")
        assert bad.status_code == 400, body
    assert client.get(API, {"fiscal_year": "x"}).status_code == 400
    refused = client.post(API, {"district": code, "fiscal_year": 2019}, content_type="application/json")
    assert refused.status_code == 400 and refused.json()["reason"] == "BEFORE_TERM"
    assert Flag.objects.filter(object_id=refused.json()["run"], rule="SID-1").exists()   # kept despite the 400


def test_api_roles(client, make_user, long_resolution, fy):
    assert client.get(API).status_code in (401, 403)
    client.force_login(make_user("auditora", "auditor"))
    assert client.get(API).status_code == 200
    assert client.post(API, {"district": long_resolution.district.code, "fiscal_year": fy},
                       content_type="application/json").status_code == 403
    client.force_login(make_user("duena", "owner"))
    assert client.get(API).status_code == 403
