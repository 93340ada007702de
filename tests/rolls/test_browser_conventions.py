"""In the browser (issue #17): "Simular antes" on the certified-figures form opens the what-if page with
the figures typed so far, written the Puerto Rico way, and the what-if result in plain words."""
import pytest

from tests.conftest import sign_in
from tests.rolls.conftest import IRR_FIGURES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_simulate_first_keeps_what_was_typed(live_server, page, irrigation_register, staff_user):
    sign_in(page, live_server.url, staff_user.username)
    page.goto(f"{live_server.url}/padrones/cifras/riego-sur/2027/")
    for field, value in IRR_FIGURES.items():
        page.fill(f"#id_{field}", value)
    page.fill("#id_om_cost", "12,500.00")                              # thousands comma: accepted
    page.click("#simulate-first")
    page.wait_for_url("**/simulacion/**")
    assert page.input_value("#id_om_cost") == "12,500.00"
    assert page.input_value("#id_bond_interest") == IRR_FIGURES["bond_interest"]
    main = page.inner_text("main")
    page.screenshot(path="/tmp/conv-simulate-first.png", full_page=True)
    assert "csrfmiddlewaretoken" not in page.url
    for code in ("WATER_BELOW_MINIMUM", "FREE_PERIOD", " annual", " schedule"):
        assert code not in main
