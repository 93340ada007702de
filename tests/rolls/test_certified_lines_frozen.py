"""The lines of a certified or finalized roll are frozen by the database, and a roll's status only moves
forward (rolls migration 0003); a draft's lines still change (overrides, regeneration)."""
import pytest
from django.db import DatabaseError, transaction

from assessments.rolls import services
from assessments.rolls.models import Roll, RollLine
from tests import dbroles

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(irrigation_figures, staff_user):
    return services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll


@pytest.fixture
def certified(draft, staff_user):
    services.roll_certify(roll=draft, actor=staff_user)
    draft.refresh_from_db()
    assert draft.status == Roll.Status.CERTIFIED
    return draft


def refused(fn, match):
    with pytest.raises(DatabaseError, match=match), transaction.atomic():
        fn()


LINE_RULE = "lines of a certified or finalized roll never change"


@pytest.mark.parametrize("finalize", [False, True], ids=["certified", "finalized"])
def test_lines_of_a_certified_or_finalized_roll_refuse_update_and_delete(certified, finalize):
    if finalize:
        services.roll_finalize(roll=certified, actor=None)
        assert Roll.objects.get(pk=certified.pk).status == Roll.Status.FINALIZED
    line = RollLine.objects.filter(roll=certified).order_by("id").first()
    refused(lambda: RollLine.objects.filter(pk=line.pk).update(total=line.total + 1), LINE_RULE)
    refused(lambda: RollLine.objects.filter(pk=line.pk).update(detail={}), LINE_RULE)
    refused(lambda: RollLine.objects.filter(roll=certified)._raw_delete(RollLine.objects.db), LINE_RULE)
    assert RollLine.objects.filter(roll=certified).count() == certified.line_count
    assert RollLine.objects.get(pk=line.pk).total == line.total


def test_a_certified_roll_cannot_go_back_to_draft_nor_be_deleted(certified):
    refused(lambda: Roll.objects.filter(pk=certified.pk).update(status=Roll.Status.DRAFT), "only moves forward")
    refused(lambda: Roll.objects.filter(pk=certified.pk)._raw_delete(Roll.objects.db), "only moves forward")


def test_a_draft_still_changes(draft):
    line = RollLine.objects.filter(roll=draft).order_by("id").first()
    RollLine.objects.filter(pk=line.pk).update(total=line.total + 1)
    RollLine.objects.filter(roll=draft)._raw_delete(RollLine.objects.db)
    assert not RollLine.objects.filter(roll=draft).exists()


@pytest.mark.postgres
def test_as_the_application_role_too(postgres_only, certified):
    line = RollLine.objects.filter(roll=certified).order_by("id").first()
    with dbroles.roles() as (_owner, app), dbroles.acting_as(app):
        refused(lambda: dbroles.execute("UPDATE rolls_rollline SET total = 0 WHERE id = %s", [line.pk]), LINE_RULE)
        refused(lambda: dbroles.execute("DELETE FROM rolls_rollline WHERE roll_id = %s", [certified.pk]), LINE_RULE)
        refused(lambda: dbroles.execute("ALTER TABLE rolls_rollline DISABLE TRIGGER rolls_rollline_frozen"),
                "must be owner")
        refused(lambda: dbroles.execute("TRUNCATE rolls_rollline"), "permission denied")
