"""Assigning dashboard items: who may (writers), to whom (writers), and what changes (the clock's
or flag's own assignee, the Assignment row, the audit trail); the home page puts mine first."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from core.models import Assignment, AuditEntry, Clock, Flag
from core.workqueue import clock_open, flag_raise
from tests import factories

pytestmark = pytest.mark.django_db
URL = reverse("core:item_assign")


@pytest.fixture
def clock():
    today = timezone.localdate()
    return clock_open(rule="SID-3", start_date=today - timedelta(days=85), due_date=today + timedelta(days=5),
                      target=factories.district(), label="Remesar los cobros al Fondo", office_name="CRIM")


@pytest.fixture
def legal(make_user):
    return make_user("nilda.legal", "legal_reviewer", first_name="Nilda", last_name="Acevedo")


def post(client, **data):
    return client.post(URL, {"next": "/", **data})


def test_a_writer_takes_a_clock_and_it_shows_as_mine_first_on_the_home(staff_client, staff_user, clock):
    response = post(staff_client, item_key=f"clock:{clock.pk}", user="me")
    assert response.status_code == 302 and response["Location"] == "/"
    clock.refresh_from_db()
    assert clock.responsible_user == staff_user
    assignment = Assignment.objects.get(item_key=f"clock:{clock.pk}")
    assert (assignment.user, assignment.assigned_by) == (staff_user, staff_user)
    assert AuditEntry.objects.filter(action="dashboard.assign", actor=staff_user).count() == 1
    home = staff_client.get("/")
    assert home.context["week"][0]["item"].key == f"clock:{clock.pk}" and home.context["week"][0]["mine"]
    assert home.context["board_counts"]["mine"] == 1
    assert "Remesar los cobros al Fondo" in home.content.decode() and "Mío" in home.content.decode()
    post(staff_client, item_key=f"clock:{clock.pk}", user="me")            # again: nothing changes
    assert AuditEntry.objects.filter(action="dashboard.assign").count() == 1


def test_assign_a_flag_to_someone_else_goes_through_the_flag(staff_client, legal):
    flag = flag_raise(kind=Flag.Kind.LIEN_CONFLICT, target=factories.parcel(), description="IRR-10 contra SID-4")
    post(staff_client, item_key=f"flag:{flag.pk}", user_pick=str(legal.pk))
    flag.refresh_from_db()
    assert flag.assigned_to == legal
    assert Assignment.objects.get(item_key=f"flag:{flag.pk}").user == legal
    post(staff_client, item_key=f"flag:{flag.pk}", user_pick="")          # back to nobody
    flag.refresh_from_db()
    assert flag.assigned_to is None and not Assignment.objects.exists()


def test_items_outside_the_work_queue_are_assigned_by_key(staff_client, staff_user):
    from assessments.rolls.models import CertifiedFigures, Roll
    from tests.rolls.conftest import IRR_FIGURES

    district = factories.district()
    figures = CertifiedFigures.objects.create(district=district, fiscal_year=2099, figures=IRR_FIGURES,
                                              certified_by="DTOP", certified_on=timezone.localdate())
    roll = Roll.objects.create(district=district, fiscal_year=2099, figures=figures)
    post(staff_client, item_key=f"roll:{roll.pk}:certify", user="me")
    assert Assignment.objects.get(item_key=f"roll:{roll.pk}:certify").user == staff_user
    rows = staff_client.get("/").context["groups"]
    roll_row = [r for g in rows for r in g["rows"] if r["item"].key == f"roll:{roll.pk}:certify"][0]
    assert roll_row["mine"] and roll_row["item"].assignee_id == staff_user.pk


@pytest.mark.parametrize("key", ["clock:999999", "roll:1:certify", "nonsense", "flag:abc", ""])
def test_unknown_items_are_refused_with_a_message(staff_client, key):
    response = staff_client.post(URL, {"item_key": key, "user": "me", "next": "/"}, follow=True)
    assert response.status_code == 200
    assert not Assignment.objects.exists()
    assert any(m.level_tag == "error" for m in response.context["messages"])


def test_only_writers_can_be_assignees(staff_client, auditor_user, clock):
    response = staff_client.post(URL, {"item_key": f"clock:{clock.pk}", "user_pick": str(auditor_user.pk),
                                       "next": "/"}, follow=True)
    assert "Solo el personal que puede actuar" in response.content.decode()
    clock.refresh_from_db()
    assert clock.responsible_user is None and not Assignment.objects.exists()


def test_auditors_owners_and_strangers_cannot_assign(client, auditor_user, owner_user, clock):
    client.force_login(auditor_user)
    assert post(client, item_key=f"clock:{clock.pk}", user="me").status_code == 403
    client.force_login(owner_user)
    assert post(client, item_key=f"clock:{clock.pk}", user="me")["Location"] == reverse("portal:home")
    client.logout()
    assert "/cuentas/login/" in post(client, item_key=f"clock:{clock.pk}", user="me")["Location"]
    assert Clock.objects.get(pk=clock.pk).responsible_user is None and not Assignment.objects.exists()


def test_get_is_not_allowed_and_next_cannot_leave_the_site(staff_client, clock):
    assert staff_client.get(URL).status_code == 405
    response = staff_client.post(URL, {"item_key": f"clock:{clock.pk}", "user": "me", "next": "https://evil.example/"})
    assert response["Location"] == reverse("home")


def test_the_auditor_sees_the_board_without_assignment_forms(client, auditor_user, clock):
    client.force_login(auditor_user)
    response = client.get("/")
    assert response.status_code == 200
    assert response.context["week"][0]["item"].key == f"clock:{clock.pk}"
    assert 'name="item_key"' not in response.content.decode()
