"""In a real browser: staff open Informes from the navigation, pick a report, filter it by fund and
see the table, the chart (inline SVG with its title) and the download links."""
import os

import pytest

from tests.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
SHOTS = os.environ.get("SHOTS_DIR", "/tmp")


def test_staff_read_collections_report(live_server, page, staff_user, ledger_data):
    sign_in(page, live_server.url, staff_user.username)
    page.wait_for_url(f"{live_server.url}/")
    page.click("nav >> text=Informes")
    page.wait_for_selector("h1:has-text('Informes de la oficina')")
    page.click("text=Recaudos por fondo y período")
    page.fill("input[name=start]", "2025-07-01")
    page.fill("input[name=end]", "2026-06-30")
    page.select_option("select[name=group]", "quarter")
    page.select_option("select[name=fund]", "fondo-a")
    with page.expect_navigation():
        page.click("form.report-filters button[type=submit]")
    rows = page.locator("table.data tbody tr")
    assert rows.count() == 3           # two quarters and the total row
    assert "$150.00" in rows.nth(2).inner_text()
    assert page.locator("svg.report-chart title").first.text_content() == "Cobrado contra lo que vencía, por mes"
    assert page.locator("a:has-text('PDF')").get_attribute("href").endswith("format=pdf")
    page.screenshot(path=f"{SHOTS}/reports_collections.png", full_page=True)
