"""Staff forms go through the services; the admin lists every improvement model."""
from datetime import date

import pytest
from django.contrib.admin.sites import site
from django.urls import reverse

from districts.improvement import models, services
from districts.improvement.models import SidResolution

pytestmark = pytest.mark.django_db

FORM = {"number": "R-WEB", "adopted_on": "2025-02-03", "term_years": "4", "first_fiscal_year": "2026",
        "due_dates": "01-01, 07-01", "penalty_pct": "8", "penalty_grace_days": "20",
        "penalty_terms": "Penalidad de 8 % tras 20 días."}


def test_staff_creates_and_edits_a_resolution(staff_client, sid_district):
    response = staff_client.post(reverse("improvement:sid_create"), {**FORM, "district": sid_district.pk})
    assert response.status_code == 302
    res = SidResolution.objects.get(number="R-WEB")
    assert (res.due_dates, res.term_years, response.url) == (["07-01", "01-01"], 4, res.get_absolute_url())
    edit = staff_client.post(reverse("improvement:sid_edit", args=[res.pk]), {**FORM, "penalty_pct": "9"})
    assert edit.status_code == 302
    res.refresh_from_db()
    assert str(res.penalty_pct) == "9.0000000000"


def test_resolution_form_refuses_a_discount_and_a_bad_due_date(staff_client, sid_district):
    refused = staff_client.post(reverse("improvement:sid_create"), {**FORM, "district": sid_district.pk,
                                                                    "descuento_pronto_pago": "2"})
    assert refused.status_code == 200 and "SID-1" in refused.content.decode()
    bad = staff_client.post(reverse("improvement:sid_create"), {**FORM, "district": sid_district.pk,
                                                                "due_dates": "02-29"})
    assert bad.status_code == 200 and "29 de febrero" in bad.content.decode()
    assert not SidResolution.objects.exists()


def test_page_actions_walk_a_batch(staff_client, charged_resolution):
    url = reverse("improvement:sid_crim", args=[charged_resolution.pk])
    assert staff_client.post(url, {"received_on": "2025-02-01"}).status_code == 302
    assert staff_client.post(reverse("improvement:sid_batch", args=[charged_resolution.pk]), {
        "received_on": "2026-06-09", "collected": "1000.00", "reference": "L-9"}).status_code == 302
    batch = charged_resolution.batches.get()
    assert (batch.retained, batch.remittance_due_on) == (50, date(2026, 9, 8))
    response = staff_client.post(reverse("improvement:sid_remit", args=[charged_resolution.pk]),
                                 {"batch_id": batch.pk, "remitted_on": "2026-09-09"}, follow=True)
    assert "Remesa registrada (tarde)." in response.content.decode()
    notice = charged_resolution.notice_rounds.get(sequence=1)
    response = staff_client.post(reverse("improvement:sid_notice_mailed", args=[charged_resolution.pk]),
                                 {"round_id": notice.pk, "mailed_on": "2025-01-01"}, follow=True)
    assert "No puede enviarse antes" in response.content.decode()


@pytest.mark.parametrize("model", [getattr(models, name) for name in models.__all__])
def test_admin_lists_every_model(admin_client, model, charged_resolution, with_association, staff_user):
    services.sid_crim_receipt_record(actor=staff_user, resolution=charged_resolution, received_on=date(2025, 2, 1))
    assert model in site._registry
    opts = model._meta
    assert admin_client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")).status_code == 200
    first = model.objects.first()
    if first is not None:
        url = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[first.pk])
        assert admin_client.get(url).status_code == 200
