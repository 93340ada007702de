"""In a real browser: staff open a notice and, at the owner's request, issue it in English; the
new revision keeps the number and its PDF downloads."""
import os

import pytest

from assessments.notices import services
from assessments.notices.models import Notice
from tests.conftest import sign_in
from tests.notices.test_notice_document import _charge

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
SHOTS = os.environ.get("SHOTS_DIR", "/tmp")


def test_staff_issue_a_notice_in_english(live_server, page, staff_user):
    from districts.models import Office
    from tests import factories

    office = factories.office(name="Departamento de Hacienda — Negociado de Recaudaciones", kind=Office.Kind.TREASURY)
    notice = services.notice_issue(receivable=_charge(staff_user, program="SID", office=office), actor=staff_user)
    sign_in(page, live_server.url, staff_user.username)
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"{live_server.url}/avisos/{notice.pk}/")
    page.wait_for_selector("#language-form button:has-text('Emitir en inglés')")
    page.screenshot(path=f"{SHOTS}/notice_detail_es.png", full_page=True)
    with page.expect_navigation():
        page.click("#language-form button")
    english = Notice.objects.get(receivable=notice.receivable, revision=1)
    assert page.url.endswith(f"/avisos/{english.pk}/") and english.language == "en"
    assert f"{notice.number}-C1" in page.inner_text("h1")
    page.wait_for_selector("#language-form button:has-text('Emitir en español')")
    page.screenshot(path=f"{SHOTS}/notice_detail_en.png", full_page=True)
    # the PDF, with the signed-in session
    pdf = page.request.get(live_server.url + page.locator("#notice-pdf").get_attribute("href"))
    assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.body().startswith(b"%PDF") and english.document.language == "en"
