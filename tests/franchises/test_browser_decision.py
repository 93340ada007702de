"""In a real browser (issue #17): the approver chooses "Conceder" on a transfer whose documents are
incomplete. The decision is refused with the reasons, nothing is recorded; "Denegar" with its grounds is
recorded as a denial. Never a "Denegada" under a text that says "Se concede"."""
from datetime import date

import pytest

from franchises import services
from franchises.models import Application
from tests.conftest import sign_in
from tests.franchises.conftest import ALL_TRANSFER_DOCS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_granting_with_documents_missing_is_refused_with_the_reasons(live_server, page, make_franchise, recipient,
                                                                      approver_user):
    franchise = make_franchise(acquired_right=True)   # a transfer over an acquired right needs that right first
    app = services.application_file(actor=None, franchise=franchise, kind="TRANSFER", received_on=date(2026, 10, 27),
                                    recipient=recipient, documents=ALL_TRANSFER_DOCS, fee_paid=True)
    holder = franchise.holder_id
    sign_in(page, live_server.url, approver_user.username)
    page.goto(f"{live_server.url}/franquicias/solicitudes/{app.pk}/decidir/")
    page.wait_for_selector("h1:has-text('Decidir solicitud')")
    page.check("input[name=grant][value=GRANT]")
    page.fill("#id_determination", "Se concede la transferencia.")
    page.click("form.stacked button[type=submit]")
    page.wait_for_selector(".errorlist, .msg-error")
    body = page.inner_text("main")
    assert "Faltan documentos" in body and "derecho adquirido" in body
    page.screenshot(path="/tmp/guard-franchise-refused.png", full_page=True)
    app.refresh_from_db()
    franchise.refresh_from_db()
    assert (app.status, app.determination, franchise.holder_id) == ("RECEIVED", "", holder)

    page.check("input[name=grant][value=DENY]")
    page.fill("#id_determination", "Debe transferirse primero el derecho adquirido (sec. 6.14).")
    page.click("form.stacked button[type=submit]")
    page.wait_for_selector("h1:has-text('Solicitud de')")
    assert "Denegada" in page.inner_text("main")
    app.refresh_from_db()
    assert app.status == Application.Status.DENIED and "Se concede" not in app.determination
