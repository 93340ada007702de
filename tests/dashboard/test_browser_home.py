"""In a real browser: the staff home answers "what must I do this week" — overdue and due-soon
items first, mine on top — and "Tomar" assigns an item to me."""
import os
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from core.workqueue import clock_open
from tests import factories
from tests.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
SHOTS = Path(os.environ.get("SCREENSHOT_DIR", "artifacts/screenshots"))


def test_home_week_block_and_take_an_item(live_server, page, staff_user):
    today = timezone.localdate()
    district = factories.district()
    clock_open(rule="SID-3", start_date=today - timedelta(days=95), due_date=today - timedelta(days=2),
               target=district, label="Remesar los cobros del lote 4", office_name="CRIM")
    clock_open(rule="FRA-5", start_date=today - timedelta(days=27), due_date=today + timedelta(days=3),
               target=factories.parcel(), label="Decidir la transferencia DRNA-FE-2019-0077", office_name="DRNA")
    clock_open(rule="FRA-11", start_date=today, due_date=today + timedelta(days=25), target=district,
               label="Pedir vista administrativa", office_name="DRNA")
    sign_in(page, live_server.url, staff_user.username)
    page.wait_for_url(f"{live_server.url}/")
    week = page.locator("#esta-semana")
    text = week.inner_text()
    assert "Remesar los cobros del lote 4" in text and "Decidir la transferencia" in text
    assert "Pedir vista administrativa" not in text                        # later this month: below
    assert "vencido hace 2 días" in text and "faltan 3 días" in text

    week.locator("tr", has_text="Decidir la transferencia").get_by_role("button", name="Tomar").click()
    page.wait_for_load_state()
    first_row = page.locator("#esta-semana tbody tr").first
    assert "Decidir la transferencia" in first_row.inner_text() and "Mío" in first_row.inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "dashboard-home.png"), full_page=True)
