"""Staff belong to offices (districts.StaffOffice): an unassigned item of an office goes to the
staff of that office and to staff with no office at all; the administrator sees everything; an
assigned item stays its assignee's. Digest, home page order, calendar link and admin follow."""
from datetime import date, timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from core import roles
from core.dashboard.items import Item
from core.dashboard.registry import user_office_ids
from core.dashboard.selectors import digest_items, home_board, responsible_for
from core.dashboard.services import digests_send_all, item_assign
from core.workqueue import clock_open
from districts.models import Office, StaffOffice
from tests import factories

pytestmark = pytest.mark.django_db
D = date.fromisoformat
TODAY = D("2026-12-01")


@pytest.fixture
def offices(db):
    return {"a": factories.office(name="Oficina A", kind=Office.Kind.IRRIGATION),
            "b": factories.office(name="Oficina B", kind=Office.Kind.CRIM)}


@pytest.fixture
def people(make_user, offices):
    users = {"in_a": make_user("ana", roles.STAFF, email="ana@example.com"),
             "in_b": make_user("beto", roles.STAFF, email="beto@example.com"),
             "nowhere": make_user("nora", roles.STAFF, email="nora@example.com"),
             "cashier_a": make_user("carmen", roles.CASHIER, email="carmen@example.com"),
             "admin_b": make_user("adm", roles.ADMINISTRATOR, email="adm@example.com")}
    StaffOffice.objects.create(user=users["in_a"], office=offices["a"])
    StaffOffice.objects.create(user=users["in_b"], office=offices["b"])
    StaffOffice.objects.create(user=users["cashier_a"], office=offices["a"])
    StaffOffice.objects.create(user=users["admin_b"], office=offices["b"])
    return users


def item(**extra) -> Item:
    return Item(key="clock:1", kind="clock", kind_label="Plazo", title="x", roles=(roles.STAFF,), **extra)


def test_the_districts_app_tells_core_a_users_offices(people, offices):
    assert user_office_ids(people["in_a"]) == {offices["a"].pk}
    assert user_office_ids(people["nowhere"]) == frozenset()
    StaffOffice.objects.create(user=people["nowhere"], office=offices["b"])
    assert user_office_ids(people["nowhere"]) == frozenset()          # cached on the user object
    fresh = type(people["nowhere"]).objects.get(pk=people["nowhere"].pk)
    assert user_office_ids(fresh) == {offices["b"].pk}


def test_an_unassigned_office_item_goes_to_that_office_and_to_staff_with_no_office(people, offices):
    of_a = item(office_id=offices["a"].pk, office_name="Oficina A")
    assert responsible_for(of_a, people["in_a"])
    assert not responsible_for(of_a, people["in_b"])                  # another office
    assert responsible_for(of_a, people["nowhere"])                   # no office: every office, as before
    assert not responsible_for(of_a, people["cashier_a"])             # right office, wrong role
    assert responsible_for(of_a, people["admin_b"])                   # the administrator sees everything


def test_items_without_office_and_assigned_items_are_unchanged(people, offices):
    no_office = item()
    assert all(responsible_for(no_office, people[k]) for k in ("in_a", "in_b", "nowhere", "admin_b"))
    assert not responsible_for(no_office, people["cashier_a"])
    taken = item(office_id=offices["a"].pk, assignee_id=people["in_b"].pk)
    assert responsible_for(taken, people["in_b"])                     # assigned: only the assignee
    assert not responsible_for(taken, people["in_a"]) and not responsible_for(taken, people["admin_b"])


def test_digest_recipients_follow_offices(people, offices):
    district = factories.district()
    clock_open(rule="SID-3", start_date=D("2026-08-01"), due_date=D("2026-11-27"), target=district,
               label="Remesar los cobros de A", office_id=offices["a"].pk, office_name="Oficina A")
    assert digests_send_all(today=TODAY) == 3
    assert sorted(m.to[0] for m in mail.outbox) == ["adm@example.com", "ana@example.com", "nora@example.com"]
    assert digests_send_all(today=TODAY) == 0                         # still once per user and day
    assert digest_items(people["in_b"], TODAY) == []


def test_home_page_puts_my_offices_unassigned_items_right_after_mine(people, offices):
    today = timezone.localdate()
    district = factories.district()

    def clock(rule, days, office):
        return clock_open(rule=rule, start_date=today - timedelta(days=30), due_date=today + timedelta(days=days),
                          target=district, label=rule, office_id=office.pk, office_name=office.name)

    other, of_a = clock("FRA-5", 1, offices["b"]), clock("SID-3", 3, offices["a"])
    mine = clock("FRA-11", 5, offices["b"])
    item_assign(item_key=f"clock:{mine.pk}", user=people["in_a"], actor=people["in_a"], today=today)

    def week(user):
        return [row["item"].key for row in home_board(user, today)["week"]]

    assert week(people["in_a"]) == [f"clock:{mine.pk}", f"clock:{of_a.pk}", f"clock:{other.pk}"]
    # No office: as before (mine first, then by due date).
    assert week(people["nowhere"]) == [f"clock:{other.pk}", f"clock:{of_a.pk}", f"clock:{mine.pk}"]
    assert [i.key for i in digest_items(people["in_a"], today)] == [f"clock:{mine.pk}", f"clock:{of_a.pk}"]


def test_calendar_offers_mi_oficina_to_office_staff_only(client, people, offices):
    url = reverse("core:calendar")
    client.force_login(people["in_a"])
    response = client.get(url)
    html = response.content.decode()
    assert response.context["my_offices"] == [(offices["a"].pk, "Oficina A")]
    assert "Mi oficina" in html and f"oficina={offices['a'].pk}" in html
    assert response.context["filters"]["office"] is None              # unfiltered by default
    client.force_login(people["nowhere"])
    assert "Mi oficina" not in client.get(url).content.decode()
    StaffOffice.objects.create(user=people["in_a"], office=offices["b"])
    client.force_login(people["in_a"])
    html = client.get(url).content.decode()
    assert "Mi oficina: Oficina A" in html and "Mi oficina: Oficina B" in html


def test_admin_user_page_edits_offices_inline(client, django_user_model, people, offices):
    root = django_user_model.objects.create_superuser("root.admin", "root@example.pr", "pw-Test-12345")
    client.force_login(root)
    user = people["nowhere"]
    change = reverse("admin:auth_user_change", args=[user.pk])
    response = client.get(change)
    assert response.status_code == 200 and "staff_offices-TOTAL_FORMS" in response.content.decode()
    assert client.get(reverse("admin:districts_office_change", args=[offices["a"].pk])).status_code == 200
    assert "ana" in client.get(reverse("admin:districts_office_change", args=[offices["a"].pk])).content.decode()


def test_seed_dashboard_puts_the_demo_staff_user_in_an_office_once(make_user, offices):
    from io import StringIO

    from django.core.management import call_command

    staff = make_user("staff", roles.STAFF)
    call_command("seed_dashboard", stdout=StringIO())
    assert StaffOffice.objects.filter(user=staff).count() == 1
    out = StringIO()
    call_command("seed_dashboard", stdout=out)
    assert StaffOffice.objects.filter(user=staff).count() == 1 and "staff office: Oficina A" in out.getvalue()


def test_an_office_with_nobody_holding_the_role_leaves_its_items_to_every_holder_of_the_role(people, offices):
    """Cashiers all work at office A; office B has none: B's cashier items still reach the cashiers."""
    from core.dashboard.selectors import items_for_user

    of_b = Item(key="delinquent:office:9", kind="delinquent", kind_label="Morosidad", title="x",
                roles=(roles.CASHIER,), office_id=offices["b"].pk, office_name="Oficina B")
    of_a = Item(key="delinquent:office:8", kind="delinquent", kind_label="Morosidad", title="y",
                roles=(roles.CASHIER,), office_id=offices["a"].pk, office_name="Oficina A")
    cashier = type(people["cashier_a"]).objects.get(pk=people["cashier_a"].pk)
    assert items_for_user(cashier, [of_a, of_b]) == [of_a, of_b]
    # Once office B has its own cashier, B's items are theirs alone.
    StaffOffice.objects.create(user=people["in_b"], office=offices["a"])       # not a cashier: changes nothing
    b_cashier = type(people["cashier_a"]).objects.create(username="berta")
    from django.contrib.auth.models import Group

    b_cashier.groups.add(Group.objects.get(name=roles.CASHIER))
    StaffOffice.objects.create(user=b_cashier, office=offices["b"])
    cashier = type(people["cashier_a"]).objects.get(pk=people["cashier_a"].pk)
    assert items_for_user(cashier, [of_a, of_b]) == [of_a]
    assert items_for_user(type(b_cashier).objects.get(pk=b_cashier.pk), [of_a, of_b]) == [of_b]
