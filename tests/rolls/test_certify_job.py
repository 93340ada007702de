"""Certification as a Celery job: progress on the job row and the cache, idempotent redelivery,
the failure message, the roll page's progress bar, and who may certify."""
import pytest
from django.urls import reverse

from assessments.models import Receivable
from assessments.rolls import progress, services
from assessments.rolls.billing import billable_lines, source_type
from assessments.rolls.models import Roll, RollJob, RollLine, RollOverride
from assessments.rolls.tasks import roll_certify_task

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(irrigation_figures, staff_user):
    return services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll


def certify_job(roll, user):
    return RollJob.objects.create(district=roll.district, fiscal_year=roll.fiscal_year, operation="certify",
                                  requested_by=user)


def test_task_certifies_bills_and_records_progress(draft, staff_user):
    job = certify_job(draft, staff_user)
    billable = billable_lines(draft).count()
    assert billable > 0
    message = roll_certify_task.delay(job.pk).get()
    job.refresh_from_db()
    draft.refresh_from_db()
    assert draft.status == Roll.Status.CERTIFIED
    assert (job.status, job.total, job.done) == (RollJob.Status.DONE, billable, billable)
    assert job.message == message == f"{draft} certificado; {billable} cargos registrados."
    assert job.finished_at is not None
    assert Receivable.objects.filter(source_type=source_type(draft)).count() == billable
    assert progress.job_state(job)["percent"] == 100


def test_command_line_echo_reports_each_batch(draft, staff_user, monkeypatch):
    from assessments.rolls import billing

    monkeypatch.setattr(billing, "CHUNK", 2)
    seen = []
    services.roll_certify(roll=draft, actor=staff_user, echo=lambda done, total: seen.append((done, total)))
    total = billable_lines(draft).count()
    assert seen == [(n, total) for n in range(2, total, 2)] + [(total, total)]


def test_running_job_progress_comes_from_the_cache(draft, staff_user):
    job = certify_job(draft, staff_user)
    report = progress.Reporter(job, total=10)
    report.update(4)
    job.refresh_from_db()
    assert job.status == RollJob.Status.RUNNING
    assert progress.job_state(job) | {"message": ""} == {"id": job.pk, "status": "RUNNING", "done": 4, "total": 10,
                                                          "percent": 40, "message": "",
                                                          "status_label": "En proceso", "finished": False}


def test_redelivery_changes_nothing(draft, staff_user):
    job = certify_job(draft, staff_user)
    first = roll_certify_task.delay(job.pk).get()
    job.refresh_from_db()
    snapshot = (job.status, job.done, job.total, job.message, job.finished_at)
    receivables = list(Receivable.objects.filter(source_type=source_type(draft)).values_list("pk", "amount"))
    assert roll_certify_task.delay(job.pk).get() == first
    job.refresh_from_db()
    assert (job.status, job.done, job.total, job.message, job.finished_at) == snapshot
    assert list(Receivable.objects.filter(source_type=source_type(draft)).values_list("pk", "amount")) == receivables
    # A delivery that finds the job not marked done (worker died after commit) still bills nothing twice.
    RollJob.objects.filter(pk=job.pk).update(status=RollJob.Status.RUNNING)
    again = roll_certify_task.delay(job.pk).get()
    job.refresh_from_db()
    assert job.status == RollJob.Status.DONE
    assert "ya estaba certificado" in again
    assert list(Receivable.objects.filter(source_type=source_type(draft)).values_list("pk", "amount")) == receivables


def test_failure_is_written_on_the_job_and_nothing_is_billed(draft, staff_user):
    line = RollLine.objects.filter(roll=draft, total__gt=0).first()
    services.override_request(line=line, new_total=line.total + 1, reason="Cabida", actor=staff_user)
    job = certify_job(draft, staff_user)
    assert roll_certify_task.delay(job.pk).get() == "failed"
    job.refresh_from_db()
    draft.refresh_from_db()
    assert job.status == RollJob.Status.FAILED
    assert job.message.startswith("Hay 1 cambio(s) de líneas pendientes de aprobación")
    assert draft.status == Roll.Status.DRAFT
    assert not Receivable.objects.filter(source_type=source_type(draft)).exists()
    assert RollOverride.objects.filter(status="PENDING").count() == 1


def test_unexpected_error_marks_the_job_failed_and_rolls_back(draft, staff_user, monkeypatch):
    from assessments.rolls import billing

    def boom(*args, **kwargs):
        raise RuntimeError("disco lleno")

    monkeypatch.setattr(billing, "_bill_batch", boom)
    job = certify_job(draft, staff_user)
    with pytest.raises(RuntimeError):
        roll_certify_task.delay(job.pk).get()
    job.refresh_from_db()
    draft.refresh_from_db()
    assert (job.status, job.message) == (RollJob.Status.FAILED, "Error inesperado al certificar: disco lleno")
    assert draft.status == Roll.Status.DRAFT


def test_certify_button_queues_one_job_and_the_page_shows_it(draft, approver_client,
                                                             django_capture_on_commit_callbacks):
    url = reverse("rolls:action", args=[draft.pk, "certify"])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = approver_client.post(url)
        approver_client.post(url)     # a double click reuses the queued job
    assert response.status_code == 302 and response.url == draft.get_absolute_url()
    assert len(callbacks) == 1
    job = RollJob.objects.get(operation="certify")
    assert job.status == RollJob.Status.QUEUED
    page = approver_client.get(draft.get_absolute_url()).content.decode()
    assert "Certificando…" in page and f'id="job-{job.pk}"' in page
    assert reverse("rolls:job_state", args=[job.pk]) in page
    callbacks[0]()     # the worker runs it
    job.refresh_from_db()
    draft.refresh_from_db()
    assert job.status == RollJob.Status.DONE and draft.status == Roll.Status.CERTIFIED
    page = approver_client.get(draft.get_absolute_url()).content.decode()
    assert job.message in page and "Finalizar y facturar" in page


def test_certify_in_the_request_cycle_runs_eagerly(draft, approver_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        approver_client.post(reverse("rolls:action", args=[draft.pk, "certify"]))
    draft.refresh_from_db()
    assert draft.status == Roll.Status.CERTIFIED


def test_certify_access(draft, client, auditor_user, owner_user):
    url = reverse("rolls:action", args=[draft.pk, "certify"])
    response = client.post(url)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    client.force_login(auditor_user)
    assert client.post(url).status_code == 403
    client.force_login(owner_user)
    response = client.post(url)
    assert response.status_code == 302 and response.url == reverse("portal:home")
    assert not RollJob.objects.filter(operation="certify").exists()
    assert Roll.objects.get(pk=draft.pk).status == Roll.Status.DRAFT


def test_certify_command_prints_progress(draft, capsys):
    from django.core.management import call_command

    call_command("roll_certify", "--district", "riego-sur", "--fiscal-year", "2027")
    out = capsys.readouterr()
    total = billable_lines(draft).count()
    assert f"{total:,}/{total:,} líneas facturadas (100 %)" in out.err
    assert "Certificado:" in out.out
