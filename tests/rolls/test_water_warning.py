"""Issue #17: a draft irrigation roll whose water records are missing for IRR-8's reference semesters
warns on its page before review — how many parcels are below the minimum, for want of which
semesters' records, and the amount that would go to the legislative appropriation (IRR-7)."""
from __future__ import annotations

from decimal import Decimal

import pytest
from django.conf import settings
from django.test import Client

from assessments.rolls.water_check import reference_periods, water_records_warning
from tests.rolls.conftest import irrigation_figures, irrigation_register  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def _generate(staff_user):
    from assessments.rolls import services

    return services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll


def _page(user, roll, language="es") -> str:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(user)
    response = client.get(roll.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def test_the_reference_semesters_of_a_fiscal_year():
    # FY2027 bills July 1, 2026 and January 1, 2027; IRR-8 reads the semesters of FY2026 for both.
    assert reference_periods(2027) == ["FY2026-S1", "FY2026-S2"]


def test_no_warning_when_the_water_records_are_there(irrigation_figures, staff_user):  # noqa: F811
    roll = _generate(staff_user)
    assert water_records_warning(roll) is None
    assert 'id="water-warning"' not in _page(staff_user, roll)


def test_missing_records_for_a_reference_semester_warn_with_the_count_and_the_amount(irrigation_figures,  # noqa: F811
                                                                                    staff_user):
    from assessments.rolls.models import RollLine
    from districts.models import WaterDelivery

    WaterDelivery.objects.filter(fiscal_year=2026, semester=2).delete()   # nobody imported FY2026-S2
    roll = _generate(staff_user)
    warning = water_records_warning(roll)
    below = RollLine.objects.filter(roll=roll, exempt_reason="WATER_BELOW_MINIMUM").count()
    assert warning is not None and below > 0
    assert warning["missing"] == ["FY2026-S2"]
    assert (warning["below"], warning["parcels"]) == (below, RollLine.objects.filter(roll=roll).count())
    assert warning["appropriation"] == Decimal(roll.totals["appropriation_needed"]) > 0

    html = _page(staff_user, roll)
    assert (f"{below} de {warning['parcels']} parcelas quedan bajo el mínimo de agua (IRR-8) porque no hay "
            "entregas registradas para FY2026-S2") in html
    amount = f"${warning['appropriation']:,.2f}"
    assert amount in html.split('id="water-warning"')[1].split("</div>")[0]
    english = _page(staff_user, roll, "en")
    assert f"{below} of {warning['parcels']} parcels are below the water minimum (IRR-8)" in english


def test_no_warning_once_the_roll_is_certified(irrigation_figures, staff_user):  # noqa: F811
    from districts.models import WaterDelivery

    WaterDelivery.objects.filter(fiscal_year=2026).delete()
    roll = _generate(staff_user)
    assert water_records_warning(roll)["missing"] == ["FY2026-S1", "FY2026-S2"]
    roll.status = roll.Status.CERTIFIED
    assert water_records_warning(roll) is None
