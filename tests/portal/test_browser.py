"""In a real browser: an owner signs in, downloads their notice (a PDF with their name, the amount
and its verification code) and cannot reach another owner's notice."""
import io

import pytest
from pypdf import PdfReader

from tests.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_an_owner_downloads_their_notice_and_gets_404_for_another_owners(live_server, page, world):
    sign_in(page, live_server.url, world.ana_user.username)
    page.wait_for_url(f"{live_server.url}/portal/")
    page.click("text=Mis avisos")
    page.wait_for_selector("#my-notices")
    with page.expect_download() as download:
        page.click(f"a[data-notice='{world.notice_a.pk}']")
    with open(download.value.path(), "rb") as fh:
        reader = PdfReader(io.BytesIO(fh.read()))
    text = " ".join(" ".join(p.extract_text() for p in reader.pages).split())
    assert "Ana Isabel Rivera Soto" in text
    assert "$200.00" in text
    assert world.notice_a.document.verification_code in text
    assert download.value.suggested_filename == f"{world.notice_a.display_number}.pdf"

    response = page.goto(f"{live_server.url}/portal/avisos/{world.notice_b.pk}/pdf/")
    assert response.status == 404
    response = page.goto(f"{live_server.url}/api/v1/portal/notices/{world.notice_b.pk}/")
    assert response.status == 404
