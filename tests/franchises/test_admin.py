"""Admin pages for every franchise model open, and the flags action calls the service."""
from datetime import date

import pytest
from django.urls import reverse

from franchises import services
from franchises.models import Franchise

MODELS = ["franchise", "meterreading", "usagereport", "application", "proceeding", "hearing"]


@pytest.fixture
def admin_client(client, make_user):
    client.force_login(make_user("root", is_superuser=True, is_staff=True))
    return client


@pytest.mark.parametrize("model", MODELS)
def test_admin_pages_open(admin_client, make_franchise, recipient, model):
    f = make_franchise()
    services.meter_reading_record(actor=None, franchise=f, month=date(2026, 1, 1), gallons=5)
    services.application_file(actor=None, franchise=f, kind="TRANSFER", received_on=date(2026, 1, 5),
                              recipient=recipient)
    assert admin_client.get(reverse(f"admin:franchises_{model}_changelist")).status_code == 200
    assert admin_client.get(reverse(f"admin:franchises_{model}_add")).status_code == 200
    assert admin_client.get(reverse("admin:franchises_franchise_change", args=[f.pk])).status_code == 200


def test_admin_save_goes_through_the_service(admin_client, make_franchise):
    f = make_franchise()
    url = reverse("admin:franchises_franchise_change", args=[f.pk])
    form = {"number": f.number, "holder": f.holder_id, "holder_type": "PERSON", "source": "SURFACE",
            "use": "DOMESTIC", "authorized_gallons": "1000", "issue_date": "2020-01-15",
            "original_issue_date": "2020-01-15", "expiry_date": "2028-01-14", "payment_plan": "ANNUAL",
            "status": "ACTIVE", "office": f.office_id,
            "meter_readings-TOTAL_FORMS": "0", "meter_readings-INITIAL_FORMS": "0"}
    response = admin_client.post(url, form)
    assert response.status_code == 302, response.context["adminform"].form.errors if response.context else ""
    f.refresh_from_db()
    assert f.tariff_class == "DOMESTIC"
    bad = admin_client.post(url, {**form, "expiry_date": "2030-01-16"})
    assert bad.status_code == 200 and "10 años" in bad.content.decode()
    assert Franchise.objects.get(pk=f.pk).expiry_date == date(2028, 1, 14)
