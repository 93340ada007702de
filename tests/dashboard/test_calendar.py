"""/calendario/ (month grid and list, filters by district, kind and office) and the personal iCal
feed: RFC 5545 text (escaping, folding, CRLF, all-day events, stable UIDs), token revocation."""
from datetime import UTC, date, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from core.dashboard.ical import build_calendar, escape_text, fold
from core.dashboard.items import Item
from core.dashboard.month import month_grid
from core.models import StaffCalendar
from core.workqueue import clock_open, clock_recompute
from districts.models import Office
from tests import factories

D = date.fromisoformat


# --- Pure: iCalendar text and the month grid -----------------------------------------------------

def test_text_values_are_escaped():
    assert escape_text('Padrón; línea 3, "cuerdas"\\x\nfin') == 'Padrón\\; línea 3\\, "cuerdas"\\\\x\\nfin'


def test_long_lines_fold_at_75_octets_without_splitting_a_character():
    line = "SUMMARY:" + "ñ" * 80
    folded = fold(line)
    parts = folded.split("\r\n")
    assert all(len(p.encode("utf-8")) <= 75 for p in parts)
    assert all(p.startswith(" ") for p in parts[1:])
    assert "".join(p[1:] if i else p for i, p in enumerate(parts)) == line


def test_calendar_has_all_day_events_with_stable_uids_and_crlf():
    item = Item(key="clock:12", kind="clock", kind_label="Plazo de ley", rule="SID-3", title="Remesar, ya; hoy",
                detail="Lote 4", due_date=D("2026-12-07"), url="/distritos/4/")
    text = build_calendar([item, Item(key="flag:1", kind="flag", kind_label="x", title="sin fecha")],
                          name="Plazos", now=datetime(2026, 12, 1, 10, 30, tzinfo=UTC),
                          base_url="https://cargos.example/")
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    lines = text.split("\r\n")
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-2] == "END:VCALENDAR"
    assert lines.count("BEGIN:VEVENT") == 1                                  # undated items are not events
    assert "UID:clock-12@cargos.pr.gov" in lines
    assert "DTSTART;VALUE=DATE:20261207" in lines and "DTEND;VALUE=DATE:20261208" in lines
    assert "DTSTAMP:20261201T103000Z" in lines
    assert "SUMMARY:SID-3 — Remesar\\, ya\\; hoy" in lines
    assert "URL:https://cargos.example/distritos/4/" in lines


def test_month_grid_covers_whole_weeks_monday_first():
    item = Item(key="clock:1", kind="clock", kind_label="", title="x", due_date=D("2026-12-07"))
    weeks = month_grid(2026, 12, [item], today=D("2026-12-01"))
    assert weeks[0][0]["date"] == D("2026-11-30") and weeks[-1][-1]["date"] == D("2027-01-03")
    assert all(len(w) == 7 for w in weeks)
    day = [d for w in weeks for d in w if d["date"] == D("2026-12-07")][0]
    assert day["items"] == [item] and day["in_month"]
    assert [d for w in weeks for d in w if d["is_today"]][0]["date"] == D("2026-12-01")


# --- Pages ---------------------------------------------------------------------------------------

@pytest.fixture
def calendar_clocks(db):
    """Two clocks this month in different offices, and one next month."""
    today = timezone.localdate()
    crim = factories.office(name="CRIM", kind=Office.Kind.CRIM)
    drna = factories.office(name="DRNA", kind=Office.Kind.DRNA)
    first = today.replace(day=1)
    a = clock_open(rule="SID-3", start_date=first - timedelta(days=80), due_date=first + timedelta(days=9),
                   target=factories.parcel(), label="Remesar los cobros", office_id=crim.pk, office_name=crim.name)
    b = clock_open(rule="FRA-5", start_date=first - timedelta(days=20), due_date=first + timedelta(days=12),
                   target=factories.parcel(cadastre="371-045-200-01"), label="Decidir la transferencia",
                   office_id=drna.pk, office_name=drna.name)
    nxt = (first + timedelta(days=32)).replace(day=3)
    c = clock_open(rule="FRA-11", start_date=nxt - timedelta(days=30), due_date=nxt, target=factories.district(),
                   label="Pedir vista", office_id=drna.pk, office_name=drna.name)
    return {"a": a, "b": b, "c": c, "crim": crim, "drna": drna, "first": first, "next": nxt}


def keys(response):
    return [i.key for i in response.context["items"]]


@pytest.mark.django_db
def test_month_view_lists_this_month_and_filters_by_office_and_kind(staff_client, calendar_clocks):
    cc = calendar_clocks
    url = reverse("core:calendar")
    response = staff_client.get(url)
    assert response.status_code == 200
    assert keys(response) == [f"clock:{cc['a'].pk}", f"clock:{cc['b'].pk}"]
    html = response.content.decode()
    assert "Remesar los cobros" in html and "Pedir vista" not in html and 'class="cal-grid"' in html
    assert keys(staff_client.get(url, {"oficina": cc["drna"].pk})) == [f"clock:{cc['b'].pk}"]
    assert keys(staff_client.get(url, {"tipo": "roll"})) == []
    nxt = staff_client.get(url, {"mes": f"{cc['next']:%Y-%m}", "vista": "lista"})
    assert keys(nxt) == [f"clock:{cc['c'].pk}"] and 'class="cal-grid"' not in nxt.content.decode()
    assert staff_client.get(url, {"mes": "2026-13", "distrito": "x"}).status_code == 200   # bad input: defaults


@pytest.mark.django_db
def test_calendar_filters_by_district_through_the_apps_lookups(staff_client):
    from districts.improvement.models import TidPetition

    tid = factories.district(code="tid-rincon", kind="TID", name="Distrito Turístico de Rincón")
    factories.district(code="otro", name="Otro distrito")
    today = timezone.localdate()
    petition = TidPetition.objects.create(district=tid, municipality=factories.parcel().municipality,
                                          petition_text="Petición", legislature_received_on=today,
                                          ordinance_due_on=today + timedelta(days=90))
    clock = clock_open(rule="TID-1-ORDINANCE", start_date=today, due_date=today + timedelta(days=3),
                       target=petition, label="Ordenanza")
    assert keys(staff_client.get(reverse("core:calendar"), {"distrito": tid.pk})) == [f"clock:{clock.pk}"]


@pytest.mark.django_db
def test_calendar_needs_staff(client, owner_user):
    assert "/cuentas/login/" in client.get(reverse("core:calendar"))["Location"]
    client.force_login(owner_user)
    assert client.get(reverse("core:calendar"))["Location"] == reverse("portal:home")


@pytest.mark.django_db
def test_ical_feed_token_is_issued_regenerated_and_revoked(staff_client, staff_user, calendar_clocks):
    from core.models import Clock

    Clock.objects.filter(pk=calendar_clocks["a"].pk).update(responsible_user=staff_user)
    link = reverse("core:calendar_link")
    assert "Crear mi enlace" in staff_client.get(link).content.decode()
    staff_client.post(link, {"action": "issue"})
    token = StaffCalendar.objects.get(user=staff_user).token
    feed = reverse("core:calendar_ical", args=[token])
    assert feed in staff_client.get(link).content.decode()

    response = staff_client.__class__().get(feed)                       # calendar apps do not log in
    assert response.status_code == 200 and response["Content-Type"] == "text/calendar; charset=utf-8"
    text = response.content.decode()
    uid = f"UID:clock-{calendar_clocks['a'].pk}@cargos.pr.gov"
    assert uid in text and "\r\n" in text and "Remesar los cobros" in text
    # A recomputed due date keeps the event's UID (the calendar app moves it, no duplicate).
    clock_recompute(clock=calendar_clocks["a"], due_date=calendar_clocks["a"].due_date + timedelta(days=1))
    assert uid in staff_client.__class__().get(feed).content.decode()

    staff_client.post(link, {"action": "issue"})                          # a new link: the old one is dead
    new_token = StaffCalendar.objects.get(user=staff_user).token
    assert new_token != token
    assert staff_client.__class__().get(feed).status_code == 404
    new_feed = reverse("core:calendar_ical", args=[new_token])
    assert staff_client.__class__().get(new_feed).status_code == 200

    staff_client.post(link, {"action": "revoke"})
    assert StaffCalendar.objects.get(user=staff_user).token is None
    assert staff_client.__class__().get(new_feed).status_code == 404
    assert staff_client.__class__().get(reverse("core:calendar_ical", args=["x" * 43])).status_code == 404


@pytest.mark.django_db
def test_feed_holds_only_what_the_user_answers_for(client, make_user, calendar_clocks):
    from core.dashboard.services import calendar_token_issue, item_assign

    legal = make_user("nilda", "legal_reviewer")
    staff = make_user("ana", "staff")
    item_assign(item_key=f"clock:{calendar_clocks['b'].pk}", user=legal, actor=legal)
    legal_text = client.get(reverse("core:calendar_ical", args=[calendar_token_issue(user=legal).token])).content
    staff_text = client.get(reverse("core:calendar_ical", args=[calendar_token_issue(user=staff).token])).content
    b_uid, a_uid = (f"clock-{calendar_clocks[k].pk}@".encode() for k in ("b", "a"))
    assert b_uid in legal_text and a_uid not in legal_text        # assigned to legal; unassigned clocks are staff's
    assert a_uid in staff_text and b_uid not in staff_text


@pytest.mark.django_db
def test_a_deactivated_user_s_feed_is_gone(client, make_user):
    from core.dashboard.services import calendar_token_issue

    user = make_user("se.fue", "staff")
    token = calendar_token_issue(user=user).token
    user.is_active = False
    user.save()
    assert client.get(reverse("core:calendar_ical", args=[token])).status_code == 404


@pytest.mark.django_db
def test_auditors_may_manage_their_own_link(client, auditor_user):
    client.force_login(auditor_user)
    client.post(reverse("core:calendar_link"), {"action": "issue"})
    assert StaffCalendar.objects.get(user=auditor_user).token
