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


def test_staff_invite_an_owner_who_chooses_a_password_and_signs_in(live_server, page, world, staff_user):
    """The staff action on the party's page, then the owner's side with the e-mailed link."""
    import re

    from django.core import mail

    world.beto.user = None          # Beto has no account yet in this story; his e-mail is on file
    world.beto.email = "roberto.cruz@example.pr"
    world.beto.save()
    world.beto_user.delete()
    sign_in(page, live_server.url, staff_user.username)
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"{live_server.url}/registro/personas/{world.beto.pk}/")
    page.click("#portal-invite-link")
    page.wait_for_selector("#portal-invite form")
    assert page.input_value("#id_username") == "roberto.cruz"
    page.click("#portal-invite button[type=submit]")
    page.wait_for_url(f"{live_server.url}/registro/personas/{world.beto.pk}/")
    assert "la invitación se envió a roberto.cruz@example.pr" in page.inner_text(".messages")
    assert "Crear cuenta e invitar" not in page.content()

    link = re.search(r"https?://\S+(/cuentas/reset/\S+/)", mail.outbox[-1].body).group(1)
    page.context.clear_cookies()
    page.goto(live_server.url + link)
    page.fill("#id_new_password1", "Cafetal-de-Adjuntas-2026")
    page.fill("#id_new_password2", "Cafetal-de-Adjuntas-2026")
    page.click("form.stacked button[type=submit]")
    page.wait_for_selector("text=Listo.")
    sign_in(page, live_server.url, "roberto.cruz", "Cafetal-de-Adjuntas-2026")
    page.wait_for_url(f"{live_server.url}/portal/")
    body = page.content()
    assert world.parcel_b.cadastre in body and world.parcel_a.cadastre not in body
    response = page.goto(f"{live_server.url}/portal/avisos/{world.notice_a.pk}/pdf/")
    assert response.status == 404
