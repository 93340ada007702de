"""Large import confirmations run as a Celery task (ImportJob): all or nothing, idempotent, with a page."""
from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.urls import reverse

from core.models import AuditEntry
from districts.imports import jobs, service
from districts.imports.jobs import import_job_queue, import_job_run, job_state, progress_key
from districts.imports.models import ImportJob
from districts.imports.service import content_hash, import_apply, import_preview
from districts.models import Parcel
from districts.tasks import import_job_apply_task
from tests import factories
from tests.districts.test_import import PARCELS_CSV, upload

DIGEST = content_hash(PARCELS_CSV.encode())


@pytest.fixture
def threshold_one(settings):
    settings.IMPORT_TASK_THRESHOLD_ROWS = 1  # PARCELS_CSV has 2 rows: above it


def _preview(client):
    response = client.post(reverse("imports:home"), {"kind": "parcels", "file": upload(PARCELS_CSV)})
    assert response.status_code == 200
    return response


def _stored_job(user, text: str = PARCELS_CSV, **extra) -> ImportJob:
    path = default_storage.save(f"imports/pending/{user.pk}/{content_hash(text.encode())}", ContentFile(text.encode()))
    return ImportJob.objects.create(kind="parcels", stored_path=path, file_name="parcelas.csv",
                                    sha256=content_hash(text.encode()), row_count=2, requested_by=user, **extra)


@pytest.mark.django_db
def test_below_the_threshold_the_confirm_applies_in_the_request(staff_client, settings):
    settings.IMPORT_TASK_THRESHOLD_ROWS = 2  # "above" means more rows than the setting
    _preview(staff_client)
    response = staff_client.post(reverse("imports:confirm"), {"kind": "parcels", "sha256": DIGEST})
    assert response.status_code == 302 and response.url == reverse("imports:home")
    assert Parcel.objects.count() == 2 and not ImportJob.objects.exists()


@pytest.mark.django_db
def test_above_the_threshold_a_job_applies_the_file_and_the_page_shows_the_result(
        staff_client, staff_user, threshold_one, django_capture_on_commit_callbacks):
    _preview(staff_client)
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(reverse("imports:confirm"), {"kind": "parcels", "sha256": DIGEST})
    job = ImportJob.objects.get()
    assert response.status_code == 302 and response.url == reverse("imports:job", args=[job.pk])
    assert (job.status, job.row_count, job.requested_by, job.sha256) == ("DONE", 2, staff_user, DIGEST)
    assert job.counts == {"rows": 2, "created": 2, "updated": 0, "unchanged": 0, "rejected": 0}
    assert Parcel.objects.count() == 2
    assert not default_storage.exists(job.stored_path)  # the reviewed copy is gone once applied
    assert DIGEST not in staff_client.session.get("imports_pending", {})
    page = staff_client.get(response.url).content.decode()
    assert "Importación guardada: 2 creados, 0 actualizados, 0 sin cambios." in page
    assert job_state(job)["percent"] == 100
    actions = list(AuditEntry.objects.values_list("action", flat=True))
    assert actions.count("import.queued") == 1 and actions.count("import.parcel.file") == 1


@pytest.mark.django_db
def test_a_redelivered_task_writes_nothing_again(staff_user):
    job = _stored_job(staff_user)
    assert import_job_apply_task.apply(args=[job.pk]).get() == "DONE"
    audits = AuditEntry.objects.count()
    assert import_job_apply_task.apply(args=[job.pk]).get() == "DONE"  # acks_late: delivered twice
    assert Parcel.objects.count() == 2 and AuditEntry.objects.count() == audits


@pytest.mark.django_db
def test_a_second_confirm_of_the_same_file_finds_the_queued_job(staff_user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        first = import_job_queue(kind="parcels", stored_path="x", file_name="a.csv", sha256=DIGEST, row_count=2,
                                 actor=staff_user)
        second = import_job_queue(kind="parcels", stored_path="x", file_name="a.csv", sha256=DIGEST, row_count=2,
                                  actor=staff_user)
    assert first == second and ImportJob.objects.count() == 1 and len(callbacks) == 1


@pytest.mark.django_db
def test_a_file_no_longer_valid_fails_the_job_naming_row_column_value_and_writes_nothing(
        staff_user, django_capture_on_commit_callbacks):
    text = PARCELS_CSV + "371-045-125-02,Juana Díaz,Amuelas,,doce,CUERDAS,100,AGRICULTURAL\n"
    with django_capture_on_commit_callbacks(execute=True):
        job = import_job_run(job_id=_stored_job(staff_user, text).pk)
    assert job.status == "FAILED" and job.message == "El archivo ya no es válido; no se guardó nada."
    assert {"row": 4, "column": "area_value", "value": "doce", "message": job.errors[0]["message"]} == job.errors[0]
    assert Parcel.objects.count() == 0
    assert not default_storage.exists(job.stored_path)
    assert import_job_run(job_id=job.pk).status == "FAILED"  # redelivery: unchanged


@pytest.mark.django_db
def test_the_failed_job_page_lists_the_errors(staff_client, staff_user):
    text = PARCELS_CSV + "371-045-125-02,Juana Díaz,Amuelas,,doce,CUERDAS,100,AGRICULTURAL\n"
    job = import_job_run(job_id=_stored_job(staff_user, text).pk)
    page = staff_client.get(reverse("imports:job", args=[job.pk])).content.decode()
    assert "No se guardó nada" in page
    assert "<td class=\"num\">4</td><td><code>area_value</code></td><td>«doce»</td>" in page


@pytest.mark.django_db
def test_a_crash_undoes_the_file_and_marks_the_job_failed(staff_user, monkeypatch):
    def boom(*args, **kwargs):
        factories.parcel("999-999-999-99")  # written inside the file's transaction ...
        raise RuntimeError("disk full")

    monkeypatch.setattr(jobs, "import_apply", boom)
    job = _stored_job(staff_user)
    with pytest.raises(RuntimeError):
        import_job_apply_task.apply(args=[job.pk]).get()
    job.refresh_from_db()
    assert job.status == "FAILED" and "RuntimeError: disk full" in job.message
    assert Parcel.objects.count() == 0  # ... and undone with it


@pytest.mark.django_db
def test_progress_is_reported_while_writing_and_read_by_the_state(staff_user, monkeypatch):
    monkeypatch.setattr(service, "PROGRESS_EVERY", 1)
    seen = []
    report = import_preview("parcels", upload(PARCELS_CSV))
    import_apply("parcels", upload(PARCELS_CSV), actor=staff_user, expected_hash=report.sha256,
                 progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 2), (2, 2)]

    job = _stored_job(staff_user, PARCELS_CSV.replace("Amuelas", "Capitanejo"), status="RUNNING")
    cache.set(progress_key(job.pk), [1, 2])
    try:
        assert {k: job_state(job)[k] for k in ("done", "total", "percent", "finished")} == {
            "done": 1, "total": 2, "percent": 50, "finished": False}
    finally:
        cache.delete(progress_key(job.pk))


@pytest.mark.django_db
def test_job_pages_need_staff(client, owner_user, staff_user, auditor_user):
    job = _stored_job(staff_user)
    url, state = reverse("imports:job", args=[job.pk]), reverse("imports:job_state", args=[job.pk])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(owner_user)
    assert client.get(url).status_code in (302, 403) and client.get(state).status_code in (302, 403)
    client.force_login(auditor_user)
    assert client.get(url).status_code == 200
    assert client.get(state).json()["status"] == "QUEUED"
    assert client.get(reverse("imports:job", args=[job.pk + 1000])).status_code == 404
