"""Irreversible steps guarded, jobs never silent (issue #17), at the service and page level.

- a roll is finalized (liens constituted) only from the first day of its fiscal year;
- certifying and finalizing are confirmed on a page that states what will happen and who can undo what;
- "Generar padrón" on a certified roll is not offered, and a job that cannot run ends at once, saying why;
- a refused certification's failure card goes away once its cause is fixed.

"Today" is fixed at 2026-12-06 (FY2027 runs, FY2028 starts on 2027-07-01): the tests do not depend on the clock.
"""
from datetime import date

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from assessments.rolls import services
from assessments.rolls.models import Roll, RollJob, RollOverride
from assessments.rolls.tasks import roll_finalize_task, roll_generate_task
from liens.models import Lien
from tests.rolls.conftest import IRR_FIGURES

pytestmark = pytest.mark.django_db

TODAY = date(2026, 12, 6)


@pytest.fixture(autouse=True)
def today(monkeypatch):
    monkeypatch.setattr(timezone, "localdate", lambda *args, **kwargs: TODAY)
    return TODAY


@pytest.fixture
def next_year_certified(irrigation_register, staff_user, approver_user):
    """FY2028's roll, certified in December 2026: billed in advance, its liens wait for July 1, 2027."""
    from districts.models import WaterDelivery

    for d in WaterDelivery.objects.filter(fiscal_year=2026):   # IRR-8 reads the year before the roll's
        WaterDelivery.objects.create(parcel=d.parcel, fiscal_year=2027, semester=d.semester, af_per_acre=d.af_per_acre)
    services.figures_save(district=irrigation_register, fiscal_year=2028, figures=IRR_FIGURES,
                          certified_by="Ing. Carmen Ortiz Vélez, DTOP", certified_on=date(2026, 11, 15),
                          actor=staff_user)
    roll = services.roll_generate(district_code="riego-sur", fiscal_year=2028, actor=staff_user).roll
    services.roll_certify(roll=roll, actor=approver_user)
    roll.refresh_from_db()
    assert roll.status == Roll.Status.CERTIFIED
    return roll


@pytest.fixture
def draft(irrigation_figures, staff_user):
    return services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll


# --- finalize: not before the fiscal year starts --------------------------------------------------------------


def test_finalize_before_the_fiscal_year_is_refused_with_the_date(next_year_certified):
    assert services.finalize_refusals(next_year_certified) == [
        "El padrón FY2028 se finaliza a partir del 01/07/2027, primer día de su año fiscal: los gravámenes no "
        "pueden constituirse antes (fecha pedida: 06/12/2026)."]
    with pytest.raises(services.RollError, match="01/07/2027"):
        services.roll_finalize(roll=next_year_certified)
    with pytest.raises(services.RollError, match="01/07/2027"):
        services.roll_finalize(roll=next_year_certified, on=date(2027, 6, 30))
    next_year_certified.refresh_from_db()
    assert next_year_certified.status == Roll.Status.CERTIFIED and not Lien.objects.exists()
    # The July 1 tick of FY2027 leaves it alone; on July 1, 2027 it is finalized, its liens dated that day.
    assert services.rolls_finalize_due(today=TODAY) == []
    outcome = services.roll_finalize(roll=next_year_certified, on=date(2027, 7, 1))
    assert outcome.changed and outcome.roll.status == Roll.Status.FINALIZED
    assert set(Lien.objects.values_list("constituted_on", flat=True)) == {date(2027, 7, 1)}


def test_finalize_page_refuses_at_once_and_queues_no_job(next_year_certified, approver_client):
    url = reverse("rolls:action", args=[next_year_certified.pk, "finalize"])
    confirm = approver_client.get(url).content.decode()
    assert "No se puede finalizar ahora" in confirm and "01/07/2027" in confirm
    assert 'id="confirm-form"' not in confirm        # no button to press
    response = approver_client.post(url, follow=True)
    assert "01/07/2027" in response.content.decode()
    assert not RollJob.objects.filter(operation="finalize").exists()
    next_year_certified.refresh_from_db()
    assert next_year_certified.status == Roll.Status.CERTIFIED and not Lien.objects.exists()


def test_a_finalize_job_queued_early_fails_with_the_reason(next_year_certified, staff_user):
    job = RollJob.objects.create(district=next_year_certified.district, fiscal_year=2028, operation="finalize",
                                 requested_by=staff_user)
    assert roll_finalize_task.delay(job.pk).get() == "failed"
    job.refresh_from_db()
    assert job.status == RollJob.Status.FAILED and "01/07/2027" in job.message and job.finished_at
    assert not Lien.objects.exists()


# --- confirmation pages ---------------------------------------------------------------------------------


def test_certify_confirmation_states_lines_total_notices_and_who_can_undo(draft, approver_client):
    from assessments.rolls.billing import billable_lines

    page = approver_client.get(reverse("rolls:action", args=[draft.pk, "certify"])).content.decode()
    charges = billable_lines(draft).count()
    total = sum(line.total for line in billable_lines(draft))
    assert f"Se facturan {charges} cargos por un total de ${total:,.2f}" in page
    assert f"Se emiten {charges} avisos de cobro" in page
    assert "Gravámenes: ninguno todavía" in page and "01/07/2026" in page
    assert "Una vez certificado, las líneas no se pueden modificar" in page and "Administrador o Aprobador" in page
    assert 'id="confirm-form"' in page
    assert Roll.objects.get(pk=draft.pk).status == Roll.Status.DRAFT   # a GET changes nothing


def test_finalize_confirmation_states_liens_and_who_can_undo(draft, approver_user, approver_client):
    services.roll_certify(roll=draft, actor=approver_user)
    from assessments.rolls.billing import open_roll_receivables

    page = approver_client.get(reverse("rolls:action", args=[draft.pk, "finalize"])).content.decode()
    n = open_roll_receivables(draft).count()
    assert f"Se constituyen {n} gravámenes sobre" in page and "fechados el 06/12/2026" in page
    assert "nadie puede deshacer la finalización" in page and 'id="confirm-form"' in page


def test_confirmation_page_in_english(draft, approver_client):
    approver_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = approver_client.get(reverse("rolls:action", args=[draft.pk, "certify"])).content.decode()
    assert "What will happen" in page and "Once certified, the lines cannot be changed" in page and "Approver" in page


def test_the_roll_page_links_to_the_confirmation_not_a_direct_post(draft, approver_client):
    page = approver_client.get(draft.get_absolute_url()).content.decode()
    assert f'href="{reverse("rolls:action", args=[draft.pk, "certify"])}"' in page
    assert f'action="{reverse("rolls:action", args=[draft.pk, "certify"])}"' not in page


# --- certify: refused at once; the failure card goes away once its cause is fixed --------------------------


def test_certify_with_a_pending_change_is_refused_at_once(draft, staff_user, approver_client):
    line = draft.lines.filter(total__gt=0).first()
    services.override_request(line=line, new_total=line.total + 1, reason="Cabida", actor=staff_user)
    url = reverse("rolls:action", args=[draft.pk, "certify"])
    confirm = approver_client.get(url).content.decode()
    assert "No se puede certificar ahora" in confirm and "pendientes de aprobación" in confirm
    page = approver_client.post(url, follow=True).content.decode()
    assert "pendientes de aprobación" in page
    assert not RollJob.objects.filter(operation="certify").exists()


def test_a_failed_certification_card_goes_away_once_the_change_is_decided(draft, staff_user, approver_user,
                                                                          approver_client):
    from assessments.rolls.tasks import roll_certify_task

    line = draft.lines.filter(total__gt=0).first()
    override = services.override_request(line=line, new_total=line.total + 1, reason="Cabida", actor=staff_user)
    # A job queued before the change was asked for (or by another door) fails, with the reason.
    job = RollJob.objects.create(district=draft.district, fiscal_year=2027, operation="certify",
                                 requested_by=approver_user)
    assert roll_certify_task.delay(job.pk).get() == "failed"
    page = approver_client.get(draft.get_absolute_url()).content.decode()
    assert f'id="job-{job.pk}"' in page and "pendientes de aprobación" in page
    services.override_decide(override=override, approve=True, actor=approver_user)
    page = approver_client.get(draft.get_absolute_url()).content.decode()
    assert f'id="job-{job.pk}"' not in page and "Falló" not in page
    assert RollOverride.objects.get().status == RollOverride.Status.APPROVED


def test_an_unexpected_failure_card_stays_until_a_new_attempt(draft, approver_user, approver_client, monkeypatch):
    from assessments.rolls import billing
    from assessments.rolls.tasks import roll_certify_task

    def boom(*args, **kwargs):
        raise RuntimeError("disco lleno")

    monkeypatch.setattr(billing, "_bill_batch", boom)
    job = RollJob.objects.create(district=draft.district, fiscal_year=2027, operation="certify",
                                 requested_by=approver_user)
    with pytest.raises(RuntimeError):
        roll_certify_task.delay(job.pk).get()
    page = approver_client.get(draft.get_absolute_url()).content.decode()
    assert f'id="job-{job.pk}"' in page and "Error inesperado al certificar" in page


# --- generation: not offered on a certified roll; a job that cannot run ends at once -----------------------


def test_generate_is_not_offered_on_a_certified_roll_and_refused_at_once(draft, approver_user, staff_client):
    generate_url = reverse("rolls:generate", args=["riego-sur", 2027])
    assert f'action="{generate_url}"' in staff_client.get(reverse("rolls:list")).content.decode()
    services.roll_certify(roll=draft, actor=approver_user)
    page = staff_client.get(reverse("rolls:list")).content.decode()
    assert f'action="{generate_url}"' not in page and "no se vuelve a generar" in page
    response = staff_client.post(generate_url, follow=True)
    assert "ya está certificado: no se vuelve a generar" in response.content.decode()
    assert not RollJob.objects.filter(operation="generate").exists()


def test_a_generate_job_on_a_certified_roll_ends_at_once_with_the_reason(draft, approver_user, staff_user,
                                                                         staff_client):
    services.roll_certify(roll=draft, actor=approver_user)
    job = RollJob.objects.create(district=draft.district, fiscal_year=2027, requested_by=staff_user)
    roll_generate_task.delay(job.pk).get()
    job.refresh_from_db()
    assert job.status == RollJob.Status.FAILED and job.finished_at is not None
    assert "ya está certificado: no se vuelve a generar" in job.message
    state = staff_client.get(reverse("rolls:job_state", args=[job.pk])).json()
    assert state["finished"] is True and state["status_label"] == "Falló"
    page = staff_client.get(reverse("rolls:job", args=[job.pk])).content.decode()
    assert 'data-running=""' in page and "no se vuelve a generar" in page    # the page does not poll


def test_an_unexpected_generation_error_ends_the_job(irrigation_figures, staff_user, monkeypatch):
    from assessments.rolls import generate

    def boom(*args, **kwargs):
        raise RuntimeError("disco lleno")

    monkeypatch.setattr(generate, "generate_irrigation", boom)
    job = RollJob.objects.create(district=irrigation_figures.district, fiscal_year=2027, requested_by=staff_user)
    with pytest.raises(RuntimeError):
        roll_generate_task.delay(job.pk).get()
    job.refresh_from_db()
    assert (job.status, job.message) == (RollJob.Status.FAILED, "Error inesperado al generar: disco lleno")


# --- the API: the same refusals, as a 400 with the reasons ---------------------------------------------------


def test_api_refuses_finalizing_before_the_fiscal_year_with_400(next_year_certified, approver_client):
    response = approver_client.post(f"/api/v1/rolls/{next_year_certified.pk}/finalize/", {"confirm": True},
                                    content_type="application/json")
    assert response.status_code == 400
    assert "01/07/2027" in response.json()["non_field_errors"][0]
    assert not RollJob.objects.filter(operation="finalize").exists() and not Lien.objects.exists()


def test_api_certify_refuses_a_pending_change_then_queues_one_job(draft, staff_user, approver_user,
                                                                  approver_client, django_capture_on_commit_callbacks):
    line = draft.lines.filter(total__gt=0).first()
    override = services.override_request(line=line, new_total=line.total + 1, reason="Cabida", actor=staff_user)
    url = f"/api/v1/rolls/{draft.pk}/certify/"
    unconfirmed = approver_client.post(url, {}, content_type="application/json")   # irreversible: say so
    assert unconfirmed.status_code == 400 and "confirm" in unconfirmed.json()
    response = approver_client.post(url, {"confirm": True}, content_type="application/json")
    assert response.status_code == 400 and "pendientes de aprobación" in response.json()["non_field_errors"][0]
    services.override_decide(override=override, approve=False, actor=approver_user)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        first = approver_client.post(url, {"confirm": True}, content_type="application/json")
        second = approver_client.post(url, {"confirm": True}, content_type="application/json")
    assert first.status_code == second.status_code == 202
    assert first.json()["id"] == second.json()["id"] and len(callbacks) == 1


def test_api_steps_follow_the_role_matrix(draft, staff_client):
    response = staff_client.post(f"/api/v1/rolls/{draft.pk}/certify/", {"confirm": True},
                                 content_type="application/json")
    assert response.status_code == 403
    assert not RollJob.objects.exists()


def test_the_certify_confirmation_states_the_irr9_refusal(draft, approver_client):
    from core.models import ParameterVersion
    from tests.conftest import TEST_IRR9_VERSION

    ParameterVersion.objects.filter(family="irr_delinquency", version=TEST_IRR9_VERSION).delete()
    assert any(r.startswith("IRR-9") for r in services.certify_refusals(draft))
    page = approver_client.get(reverse("rolls:action", args=[draft.pk, "certify"])).content.decode()
    assert "No se puede certificar ahora" in page and "irr_delinquency" in page and 'id="confirm-form"' not in page
    approver_client.post(reverse("rolls:action", args=[draft.pk, "certify"]))
    assert not RollJob.objects.filter(operation="certify").exists()
