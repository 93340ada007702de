"""Finalization as a Celery job, like certification: the roll page queues it and shows its progress,
and a redelivered task constitutes no lien twice."""
import pytest
from django.urls import reverse

from assessments.rolls import progress, services
from assessments.rolls.billing import open_roll_receivables
from assessments.rolls.models import Roll, RollJob
from assessments.rolls.tasks import roll_finalize_task
from core.models import AuditEntry
from liens.models import Lien

pytestmark = pytest.mark.django_db


@pytest.fixture
def certified(irrigation_figures, staff_user):
    roll = services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll
    services.roll_certify(roll=roll, actor=staff_user)
    roll.refresh_from_db()
    return roll


def finalize_job(roll, user):
    return RollJob.objects.create(district=roll.district, fiscal_year=roll.fiscal_year, operation="finalize",
                                  requested_by=user)


def test_finalize_button_queues_one_job_the_page_shows_it_and_it_ends_finalized(
        certified, approver_client, django_capture_on_commit_callbacks):
    url = reverse("rolls:action", args=[certified.pk, "finalize"])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = approver_client.post(url)
        approver_client.post(url)     # a double click reuses the queued job
    assert response.status_code == 302 and response.url == certified.get_absolute_url()
    assert len(callbacks) == 1
    job = RollJob.objects.get(operation="finalize")
    assert job.status == RollJob.Status.QUEUED
    certified.refresh_from_db()
    assert certified.status == Roll.Status.CERTIFIED   # nothing was written in the request
    assert not Lien.objects.exists()
    page = approver_client.get(certified.get_absolute_url()).content.decode()
    assert "Finalizando…" in page and f'id="job-{job.pk}"' in page
    assert reverse("rolls:job_state", args=[job.pk]) in page
    assert "Finalizar y facturar" not in page

    open_charges = open_roll_receivables(certified).count()
    assert open_charges > 0
    callbacks[0]()     # the worker runs it
    job.refresh_from_db()
    certified.refresh_from_db()
    assert certified.status == Roll.Status.FINALIZED
    assert (job.status, job.total, job.done) == (RollJob.Status.DONE, open_charges, open_charges)
    assert job.message == f"{certified} finalizado; {open_charges} gravámenes constituidos."
    assert Lien.objects.filter(kind="IRRIGATION").count() == open_charges
    state = approver_client.get(reverse("rolls:job_state", args=[job.pk])).json()
    assert state == {"id": job.pk, "status": "DONE", "done": open_charges, "total": open_charges, "percent": 100,
                     "message": job.message, "roll_url": certified.get_absolute_url(), "status_label": "Terminado",
                     "finished": True}
    page = approver_client.get(certified.get_absolute_url()).content.decode()
    assert job.message in page and "Finalizando…" not in page
    assert "Finalización del padrón" in approver_client.get(reverse("rolls:job", args=[job.pk])).content.decode()
    assert "finalización" in approver_client.get(reverse("rolls:list")).content.decode()


def test_finalize_in_the_request_cycle_runs_eagerly(certified, approver_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        approver_client.post(reverse("rolls:action", args=[certified.pk, "finalize"]))
    certified.refresh_from_db()
    assert certified.status == Roll.Status.FINALIZED
    assert RollJob.objects.get(operation="finalize").status == RollJob.Status.DONE


def test_running_the_task_twice_writes_once(certified, staff_user):
    job = finalize_job(certified, staff_user)
    first = roll_finalize_task.delay(job.pk).get()
    job.refresh_from_db()
    snapshot = (job.status, job.done, job.total, job.message, job.finished_at)
    liens = list(Lien.objects.order_by("pk").values_list("pk", "amount", "constituted_on"))
    audits = AuditEntry.objects.filter(action="roll.finalize").count()
    assert liens and audits == 1

    assert roll_finalize_task.delay(job.pk).get() == first
    job.refresh_from_db()
    assert (job.status, job.done, job.total, job.message, job.finished_at) == snapshot
    # A delivery that finds the job not marked done (worker died after commit) still writes nothing twice.
    RollJob.objects.filter(pk=job.pk).update(status=RollJob.Status.RUNNING)
    again = roll_finalize_task.delay(job.pk).get()
    job.refresh_from_db()
    assert job.status == RollJob.Status.DONE
    assert "ya estaba finalizado" in again
    assert list(Lien.objects.order_by("pk").values_list("pk", "amount", "constituted_on")) == liens
    assert AuditEntry.objects.filter(action="roll.finalize").count() == 1


def test_progress_is_reported_while_liens_are_prepared(certified, staff_user, monkeypatch):
    from assessments.rolls import billing

    monkeypatch.setattr(billing, "CHUNK", 2)
    seen = []
    services.roll_finalize(roll=certified, actor=staff_user, echo=lambda done, total: seen.append((done, total)))
    total = open_roll_receivables(certified).count()   # still open: the liens do not close them
    assert seen == [(n, total) for n in range(2, total + 1, 2)] + [(total, total)]
    job = finalize_job(certified, staff_user)
    report = progress.Reporter(job, total=10)
    report.update(3)
    job.refresh_from_db()
    assert progress.job_state(job)["done"] == 3 and progress.job_state(job)["percent"] == 30


def test_failure_is_written_on_the_job_and_nothing_changes(certified, staff_user, monkeypatch):
    from liens import services as lien_services

    def boom(*args, **kwargs):
        raise RuntimeError("disco lleno")

    monkeypatch.setattr(lien_services, "lien_register_bulk", boom)
    job = finalize_job(certified, staff_user)
    with pytest.raises(RuntimeError):
        roll_finalize_task.delay(job.pk).get()
    job.refresh_from_db()
    certified.refresh_from_db()
    assert (job.status, job.message) == (RollJob.Status.FAILED, "Error inesperado al finalizar: disco lleno")
    assert certified.status == Roll.Status.CERTIFIED
    assert not Lien.objects.exists()


def test_a_draft_is_not_finalized(irrigation_figures, staff_user, staff_client):
    draft = services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll
    staff_client.post(reverse("rolls:action", args=[draft.pk, "finalize"]))
    assert not RollJob.objects.filter(operation="finalize").exists()
    job = finalize_job(draft, staff_user)
    assert roll_finalize_task.delay(job.pk).get() == "failed"
    job.refresh_from_db()
    draft.refresh_from_db()
    assert (job.status, job.message) == (RollJob.Status.FAILED, "Solo se finaliza un padrón certificado.")
    assert draft.status == Roll.Status.DRAFT


def test_finalize_access(certified, client, auditor_user, owner_user):
    url = reverse("rolls:action", args=[certified.pk, "finalize"])
    client.force_login(auditor_user)
    assert client.post(url).status_code == 403
    client.force_login(owner_user)
    client.post(url)
    assert not RollJob.objects.filter(operation="finalize").exists()
    assert Roll.objects.get(pk=certified.pk).status == Roll.Status.CERTIFIED
