"""In a real browser: the half-paid demo lien (seed_liens) shows what it was constituted for and what
it secures today — SID-4, the special improvement districts law: "sólo garantizará el pago de los
cargos por beneficios"."""
import os
import re
from io import StringIO

import pytest
from django.core.management import call_command

from liens.models import Lien
from tests.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
SHOTS = os.environ.get("SHOTS_DIR", "/tmp")


def test_staff_see_constituted_and_secured(postgres_only, live_server, page, staff_user):
    call_command("seed_liens", stdout=StringIO())
    lien = Lien.objects.get(origin_type="assessments.receivable", origin_label__contains="demo LIEN-4")
    sign_in(page, live_server.url, staff_user.username)
    page.goto(f"{live_server.url}/gravamenes/parcela/{lien.parcel_id}/")
    card = page.locator(f"#lien-{lien.pk}")
    text = " ".join(card.inner_text().split())
    assert "Constituido por $600.00" in text
    assert re.search(r"Garantiza al \d\d/\d\d/\d{4}: \$300\.00", text), text
    page.screenshot(path=f"{SHOTS}/liens-half-paid-ladder.png", full_page=True)
    page.goto(f"{live_server.url}/gravamenes/parcela/{lien.parcel_id}/distribucion/?proceeds=1000.00")
    rows = " ".join(page.locator("table.data").first.inner_text().split())
    assert "$600.00" in rows and "$300.00" in rows and "$700.00" not in rows
    page.screenshot(path=f"{SHOTS}/liens-half-paid-distribution.png", full_page=True)
