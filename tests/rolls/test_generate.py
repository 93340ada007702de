"""A roll equals `compute` over the same register, to the cent; bad input is named before any write."""
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from assessments.compute import run
from assessments.engine_inputs import roll_payload
from assessments.rolls import services
from assessments.rolls.models import Roll, RollLine, RollOverride
from tests import factories
from tests.rolls.conftest import IRR_FIGURES, LAJ_FIGURES

pytestmark = pytest.mark.django_db


def _lines(roll):
    return {line.cadastre: line for line in RollLine.objects.filter(roll=roll)}


def test_irrigation_roll_equals_compute(irrigation_register, irrigation_figures, staff_user):
    outcome = services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user)
    roll = outcome.roll
    expected = run("irrigation-roll", roll_payload(irrigation_register, {"fiscal_year": 2027, **IRR_FIGURES}))
    for key in ("base", "margin", "total", "billed_total", "appropriation_needed", "hydro_income_certified"):
        assert Decimal(roll.totals[key]) == Decimal(expected[key]), key
    lines = _lines(roll)
    assert len(lines) == len(expected["parcels"]) == roll.line_count
    for parcel in expected["parcels"]:
        line = lines[parcel["id"]]
        assert line.share == Decimal(parcel["share"])
        assert line.total == Decimal(parcel["total"])
        assert [(d["period"], d["amount"], d["rule"], d["exempt_reason"]) for d in line.detail] == [
            (d["period"], d["amount"], d["rule"], d["exempt_reason"]) for d in parcel["lines"]]
    assert sum(line.share for line in lines.values()) == Decimal(roll.totals["total"])


def test_lajas_roll_equals_compute(lajas_register, lajas_figures, staff_user):
    roll = services.roll_generate(district_code="valle-lajas", fiscal_year=2027, actor=staff_user).roll
    expected = run("lajas-roll", roll_payload(lajas_register, {"fiscal_year": 2027, **LAJ_FIGURES}))
    for key in ("base", "total", "billed_total", "credits_total", "credits_unfunded", "uncollected_not_liable",
                "gravity_rate", "pumped_rate"):
        assert roll.totals[key] == expected[key], key
    lines = _lines(roll)
    for parcel in expected["parcels"]:
        line = lines[parcel["id"]]
        assert (line.share, line.credit, line.total) == tuple(Decimal(parcel[k]) for k in ("gross", "credit", "net"))
        assert line.exempt_reason == (parcel["exempt_reason"] or "")


def test_regenerating_a_draft_rebuilds_it_once(irrigation_figures, staff_user):
    first = services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll
    again = services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll
    assert first.pk == again.pk
    assert RollLine.objects.filter(roll=again).count() == again.line_count == 7


def test_certified_roll_is_not_regenerated(irrigation_figures, staff_user):
    roll = services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll
    services.roll_certify(roll=roll, actor=staff_user)
    outcome = services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user)
    assert not outcome.changed
    assert services.roll_certify(roll=roll, actor=staff_user).changed is False


@pytest.mark.parametrize(("code", "fy", "message"), [
    ("no-existe", 2027, "No existe el distrito"),
    ("riego-sur", 2031, "Faltan las cifras certificadas"),
])
def test_unknown_district_or_year_is_refused_before_writing(irrigation_figures, staff_user, code, fy, message):
    with pytest.raises(services.RollError, match=message):
        services.roll_generate(district_code=code, fiscal_year=fy, actor=staff_user)
    assert Roll.objects.count() == 0


def test_parcels_without_area_are_named(irrigation_register, irrigation_figures, staff_user):
    p = factories.parcel(cadastre="371-045-999-99", cuerdas="0")
    factories.member(irrigation_register, p, gravity_acres=Decimal(0))
    with pytest.raises(services.RollError, match="371-045-999-99"):
        services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user)
    assert Roll.objects.count() == 0


def test_reserve_above_two_percent_is_refused_with_reason(lajas_register, staff_user):
    with pytest.raises(ValidationError) as err:
        services.figures_save(district=lajas_register, fiscal_year=2027, figures={**LAJ_FIGURES, "reserve": "2500.01"},
                              certified_by="x", certified_on="2026-05-01", actor=staff_user)
    assert "reserve" in err.value.message_dict


def test_override_needs_a_second_person(irrigation_figures, staff_user, make_user):
    roll = services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll
    line = RollLine.objects.filter(roll=roll, total__gt=0).first()
    ov = services.override_request(line=line, new_total=Decimal("100.01"), reason="Error de cabida", actor=staff_user)
    with pytest.raises(services.RollError):
        services.override_decide(override=ov, approve=True, actor=staff_user)
    with pytest.raises(services.RollError, match="pendientes"):
        services.roll_certify(roll=roll, actor=staff_user)
    approver = make_user("aprobador", "approver")
    services.override_decide(override=ov, approve=True, actor=approver)
    line.refresh_from_db()
    roll.refresh_from_db()
    assert line.total == Decimal("100.01")
    assert sum(Decimal(d["amount"]) for d in line.detail) == Decimal("100.01")
    assert Decimal(roll.totals["billed_total"]) == sum(r.total for r in RollLine.objects.filter(roll=roll))
    assert RollOverride.objects.get(pk=ov.pk).approved_by == approver
