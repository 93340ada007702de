"""In a real browser: a file above IMPORT_TASK_THRESHOLD_ROWS is confirmed, applied by the task, and the job
page shows the result (Celery runs eagerly in tests; the task is sent when the confirm commits)."""
import os
from pathlib import Path

import pytest

from districts.models import Parcel
from tests.conftest import second_step, sign_in
from tests.districts.test_import import PARCELS_CSV

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
SHOTS = Path(os.environ.get("SCREENSHOT_DIR", "artifacts/screenshots"))


def test_large_file_is_applied_in_the_background_and_the_page_shows_the_result(
        live_server, page, staff_user, settings, tmp_path):
    settings.IMPORT_TASK_THRESHOLD_ROWS = 1
    csv = tmp_path / "parcelas.csv"
    csv.write_text(PARCELS_CSV, encoding="utf-8")
    sign_in(page, live_server.url, staff_user.username)
    page.wait_for_url(f"{live_server.url}/")

    page.goto(f"{live_server.url}/registro/importar/")
    page.select_option("#id_kind", "parcels")
    page.set_input_files("#id_file", str(csv))
    page.click("text=Revisar sin guardar")
    page.click("text=Confirmar e importar")
    page.wait_for_selector("h1:has-text('Importación en segundo plano')")
    body = page.inner_text("main")
    assert "Terminada" in body and "Importación guardada: 2 creados, 0 actualizados, 0 sin cambios." in body
    assert "se guarda en segundo plano" in body
    assert Parcel.objects.count() == 2
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "import-job-done.png"), full_page=True)


def test_a_waiting_job_shows_its_progress_and_the_admin_lists_it(live_server, page, staff_user, django_user_model):
    from django.core.files.base import ContentFile
    from django.core.files.storage import default_storage

    from districts.imports.models import ImportJob
    from districts.imports.service import content_hash

    digest = content_hash(PARCELS_CSV.encode())
    path = default_storage.save(f"imports/pending/{staff_user.pk}/{digest}", ContentFile(PARCELS_CSV.encode()))
    job = ImportJob.objects.create(kind="parcels", stored_path=path, file_name="parcelas.csv", sha256=digest,
                                   row_count=2500, requested_by=staff_user)
    sign_in(page, live_server.url, staff_user.username)
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"{live_server.url}/registro/importar/trabajo/{job.pk}/")
    body = page.inner_text("main")
    assert "En cola" in body and "0 / 2500" in body and "Puede dejar esta página" in body
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "import-job-queued.png"), full_page=True)

    django_user_model.objects.create_superuser("root.admin", "root@example.pr", "pw-Test-12345")
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "root.admin")
    page.fill("#id_password", "pw-Test-12345")
    with page.expect_navigation():
        page.click("input[type=submit]")
    second_step(page, live_server.url, "root.admin", "/admin/")  # the administrator's second factor
    page.goto(f"{live_server.url}/admin/districts/importjob/")
    assert "parcelas.csv" in page.inner_text("body")
    assert page.locator(".object-tools a.addlink").count() == 0  # read-only: no "add" button
    page.screenshot(path=str(SHOTS / "admin-importjob.png"), full_page=True)
