"""July 1: certified rolls are finalized, billed into the money core and their liens registered, once."""
from datetime import date
from decimal import Decimal

import pytest

from assessments.models import Receivable
from assessments.rolls import services
from assessments.rolls.billing import source_type
from assessments.rolls.models import Roll, RollLine
from assessments.rolls.tasks import rolls_finalize_due_task
from liens.models import Lien

pytestmark = pytest.mark.django_db


@pytest.fixture
def certified_roll(irrigation_figures, staff_user):
    roll = services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll
    services.roll_certify(roll=roll, actor=staff_user)
    return roll


def test_certified_roll_is_billed_at_once_and_liens_wait_for_july_1(certified_roll):
    assert Receivable.objects.filter(source_type=source_type(certified_roll)).count() > 0
    assert Lien.objects.count() == 0
    assert rolls_finalize_due_task("2026-06-30") == []
    certified_roll.refresh_from_db()
    assert certified_roll.status == Roll.Status.CERTIFIED

    messages = rolls_finalize_due_task("2026-07-01")
    assert len(messages) == 1
    certified_roll.refresh_from_db()
    assert certified_roll.status == Roll.Status.FINALIZED
    receivables = Receivable.objects.filter(source_type=source_type(certified_roll))
    payable_lines = RollLine.objects.filter(roll=certified_roll, total__gt=0)
    assert receivables.count() == payable_lines.count()
    assert sum(r.amount for r in receivables) == Decimal(certified_roll.totals["billed_total"])
    for receivable in receivables.prefetch_related("installments"):
        line = payable_lines.get(cadastre=receivable.source_id)
        assert [(i.due_date, i.amount) for i in receivable.installments.all()] == [
            (date.fromisoformat(d["due_date"]), Decimal(d["amount"])) for d in line.detail if Decimal(d["amount"]) > 0]
    liens = Lien.objects.filter(kind="IRRIGATION")
    assert liens.count() == receivables.count()
    assert {lien.constituted_on for lien in liens} == {date(2026, 7, 1)}   # LIEN-1: the day of finalization


def test_a_second_tick_changes_nothing(certified_roll):
    rolls_finalize_due_task("2026-07-01")
    before = Receivable.objects.count(), Lien.objects.count()
    assert rolls_finalize_due_task("2026-07-02") == []
    services.roll_finalize(roll=certified_roll)
    assert (Receivable.objects.count(), Lien.objects.count()) == before


def test_a_finalized_roll_refuses_overrides(certified_roll, staff_user):
    services.roll_finalize(roll=certified_roll, on=date(2026, 7, 1))
    line = RollLine.objects.filter(roll=certified_roll).first()
    with pytest.raises(services.RollError):
        services.override_request(line=line, new_total=Decimal("1.00"), reason="x", actor=staff_user)
