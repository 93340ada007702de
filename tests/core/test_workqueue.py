"""core.workqueue: statutory clocks (docs/rules/deadlines.md) and flags, the daily task, the staff pages."""
from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from assessments.rules.deadlines import clocks_from_parameters, compute_due, unmoved_due
from assessments.rules.parameters import ShippedParameters
from core.models import AuditEntry, Clock, Flag, Holiday
from core.tasks import refresh_work_queue
from core.workqueue import (
    clock_meet,
    clock_open,
    clock_recompute,
    clocks_mark_missed,
    flag_assign,
    flag_raise,
    flag_resolve,
    holidays_between,
    holidays_for_term,
)
from tests import factories

pytestmark = pytest.mark.django_db
D = date.fromisoformat


def deadline(code: str, start: date):
    """What a caller's app does: the DEADLINES engine over PR holidays + staff-entered Holiday rows."""
    clock = clocks_from_parameters(ShippedParameters().get("deadlines", start).values)[code]
    return clock, compute_due(clock, start, holidays_for_term(start, unmoved_due(clock, start)))


def open_clock(code: str, start: date, target, **extra) -> Clock:
    rule, due = deadline(code, start)
    return clock_open(rule=code, start_date=start, due_date=due.due, target=target, label=f"Plazo {code}",
                      start_event=rule.start_event, moves_past_holidays=rule.move != "none", **extra)


@pytest.fixture
def district():
    return factories.district(code="dem-ponce", name="Distrito Especial de Mejoramiento de Ponce")


@pytest.fixture
def parcel():
    return factories.parcel()


# --- Holidays -----------------------------------------------------------------------------------

def test_holidays_between_merges_pr_holidays_and_staff_rows():
    assert holidays_between(D("2026-11-01"), D("2026-11-30")) == {D("2026-11-11"), D("2026-11-19"), D("2026-11-26")}
    Holiday.objects.create(date=D("2026-11-27"), name="Día declarado por el Gobernador")
    Holiday.objects.create(date=D("2026-11-19"), name="Día de la Puertorriqueñidad (se trabaja)", is_working_day=True)
    assert holidays_between(D("2026-11-01"), D("2026-11-30")) == {D("2026-11-11"), D("2026-11-26"), D("2026-11-27")}
    assert holidays_between(D("2026-11-30"), D("2026-11-01")) == holidays_between(D("2026-11-01"), D("2026-11-30"))


def test_holidays_between_spans_years():
    assert {D("2026-12-25"), D("2027-01-01"), D("2027-01-06")} == holidays_between(D("2026-12-20"), D("2027-01-10"))


# --- Opening clocks: due dates through the DEADLINES engine ----------------------------------------

def test_administrative_term_ending_on_a_weekend_moves_to_monday(district):
    # FRA-5: 30 days from Fri 2026-10-02 is Sun 2026-11-01 → Mon 2026-11-02.
    clock = open_clock("FRA-5", D("2026-10-02"), district)
    assert clock.due_date == D("2026-11-02")
    assert clock.moves_past_holidays is True
    assert clock.status == Clock.Status.OPEN


def test_administrative_term_ending_on_a_pr_holiday_moves(district):
    # FRA-11: 30 days from 2026-10-12 is Wed 2026-11-11, Veterans Day → Thu 2026-11-12.
    assert open_clock("FRA-11", D("2026-10-12"), district).due_date == D("2026-11-12")


def test_administrative_term_crossing_christmas_and_a_weekend(district):
    # SID-3: 90 days from 2026-09-26 is Fri 2026-12-25 (Christmas) → Sat, Sun → Mon 2026-12-28.
    clock = open_clock("SID-3", D("2026-09-26"), district, office_id=7, office_name="CRIM — Región de Ponce")
    assert clock.due_date == D("2026-12-28")
    assert (clock.office_id, clock.office_name) == (7, "CRIM — Región de Ponce")
    assert clock.record_label == str(district) and clock.record_url == district.get_absolute_url()
    assert clock.target == district


def test_backward_term_moves_back_to_the_previous_business_day(district):
    # FRA-7: 90 days before the expiry on Sat 2027-03-27 is Sun 2026-12-27 → back past Sat and
    # Christmas (Fri 2026-12-25) to Thu 2026-12-24.
    clock = open_clock("FRA-7", D("2027-03-27"), district)
    assert clock.due_date == D("2026-12-24")
    assert clock.moves_past_holidays is True


def test_payment_term_does_not_move(parcel):
    # LAJ-7: 60 days from 2026-07-01 is Sun 2026-08-30, and a payment term stays there.
    clock = open_clock("LAJ-7", D("2026-07-01"), parcel)
    assert clock.due_date == D("2026-08-30")
    assert clock.moves_past_holidays is False


def test_staff_added_holiday_moves_a_clock(district, staff_user):
    # FRA-5: 30 days from 2026-11-24 is Thu 2026-12-24, a business day...
    clock = open_clock("FRA-5", D("2026-11-24"), district)
    assert clock.due_date == D("2026-12-24")
    # ...until the Governor declares Christmas Eve a holiday: Thu 24, Fri 25 (Christmas), weekend → Mon 28.
    Holiday.objects.create(date=D("2026-12-24"), name="Nochebuena (proclama del Gobernador)")
    _, recomputed = deadline("FRA-5", D("2026-11-24"))
    assert recomputed.due == D("2026-12-28")
    clock = clock_recompute(clock=clock, due_date=recomputed.due, actor=staff_user, reason="feriado proclamado",
                            today=D("2026-12-01"))
    assert clock.due_date == D("2026-12-28")
    assert clock.status == Clock.Status.OPEN
    entry = AuditEntry.objects.get(action="clock.recompute")
    assert entry.data["before"] == "2026-12-24" and entry.actor == staff_user


def test_working_day_row_un_holidays_a_date(district):
    Holiday.objects.create(date=D("2026-11-11"), name="Día del Veterano (se trabaja)", is_working_day=True)
    # FRA-11: 30 days from 2026-10-12 is 2026-11-11, now a working day: no move.
    assert open_clock("FRA-11", D("2026-10-12"), district).due_date == D("2026-11-11")


def test_opening_the_same_clock_twice_returns_the_first(district):
    first = open_clock("SID-2", D("2026-06-03"), district)
    again = open_clock("SID-2", D("2026-06-03"), district)
    assert again.pk == first.pk
    assert Clock.objects.count() == 1
    assert AuditEntry.objects.filter(action="clock.open").count() == 1
    next_year = open_clock("SID-2", D("2027-06-03"), district)  # "then yearly": a new clock
    assert next_year.pk != first.pk


def test_clock_needs_a_saved_record():
    with pytest.raises(ValidationError):
        clock_open(rule="FRA-5", start_date=D("2026-10-02"), due_date=D("2026-11-02"),
                   target=factories.Parcel(cadastre="000-000-000-00"), label="x")


# --- Meeting and missing ------------------------------------------------------------------------

def test_met_on_time(district, staff_user):
    clock = open_clock("FRA-5", D("2026-10-02"), district)
    clock = clock_meet(clock=clock, on=D("2026-11-02"), actor=staff_user)
    assert (clock.status, clock.met_on) == (Clock.Status.MET, D("2026-11-02"))
    assert AuditEntry.objects.get(action="clock.meet").actor == staff_user
    # Meeting it again changes nothing, and the daily task leaves it alone.
    assert clock_meet(clock=clock, on=D("2026-11-20"), actor=staff_user).met_on == D("2026-11-02")
    assert refresh_work_queue(today="2026-12-01") == 0
    clock.refresh_from_db()
    assert clock.status == Clock.Status.MET


def test_met_late_is_missed(district, staff_user):
    clock = open_clock("FRA-5", D("2026-10-02"), district)
    clock = clock_meet(clock=clock, on=D("2026-11-03"), actor=staff_user)
    assert (clock.status, clock.met_on) == (Clock.Status.MISSED, D("2026-11-03"))


def test_daily_task_marks_past_due_clocks_missed(district, parcel):
    late = open_clock("FRA-5", D("2026-10-02"), district)        # due 2026-11-02
    due_today = open_clock("FRA-11", D("2026-10-12"), district)  # due 2026-11-12
    payment = open_clock("LAJ-7", D("2026-07-01"), parcel)       # due 2026-08-30
    assert refresh_work_queue(today="2026-11-12") == 2
    for clock in (late, due_today, payment):
        clock.refresh_from_db()
    assert late.status == payment.status == Clock.Status.MISSED
    assert due_today.status == Clock.Status.OPEN  # the due date is the last day to act
    assert AuditEntry.objects.filter(action="clock.missed").count() == 2
    # Delivered twice: nothing more changes.
    assert refresh_work_queue(today="2026-11-12") == 0
    assert AuditEntry.objects.filter(action="clock.missed").count() == 2
    assert clocks_mark_missed(D("2026-11-13")) == 1


def test_recompute_reopens_a_missed_clock_when_the_new_due_date_is_ahead(district):
    clock = open_clock("FRA-5", D("2026-10-02"), district)
    clocks_mark_missed(D("2026-11-03"))
    clock = clock_recompute(clock=clock, due_date=D("2026-11-05"), today=D("2026-11-03"))
    assert clock.status == Clock.Status.OPEN


def test_beat_schedule_runs_the_task_daily_at_five():
    from django.conf import settings

    entry = settings.CELERY_BEAT_SCHEDULE["core-refresh-work-queue"]
    assert entry["task"] == "core.tasks.refresh_work_queue"
    assert entry["schedule"].hour == {5} and entry["schedule"].minute == {0}
    assert settings.CELERY_TIMEZONE == "America/Puerto_Rico"
    assert refresh_work_queue.name == "core.tasks.refresh_work_queue"


# --- Flags --------------------------------------------------------------------------------------

def test_raising_a_flag_twice_keeps_one(parcel):
    first = flag_raise(kind=Flag.Kind.ARREARS, target=parcel, description="Seis meses de atraso", rule="FRA-8")
    second = flag_raise(kind=Flag.Kind.ARREARS, target=parcel, description="Seis meses de atraso", rule="FRA-8")
    assert first.pk == second.pk
    assert Flag.objects.count() == 1
    assert AuditEntry.objects.filter(action="flag.raise").count() == 1
    assert first.record_label == str(parcel) and first.record_url == parcel.get_absolute_url()
    other_kind = flag_raise(kind=Flag.Kind.LIEN_CONFLICT, target=parcel, description="IRR-10 contra SID-4")
    assert other_kind.pk != first.pk


def test_a_resolved_flag_can_be_raised_again(parcel, staff_user):
    flag = flag_raise(kind=Flag.Kind.NON_USE, target=parcel, description="Doce meses sin uso", rule="FRA-10")
    flag = flag_resolve(flag=flag, actor=staff_user, resolution="Uso justificado", on=D("2026-11-30"))
    assert flag.resolved_on == D("2026-11-30") and not flag.is_open
    assert flag_resolve(flag=flag, actor=staff_user).resolved_on == D("2026-11-30")  # no-op
    again = flag_raise(kind=Flag.Kind.NON_USE, target=parcel, description="Otra vez sin uso")
    assert again.pk != flag.pk
    assert Flag.objects.filter(resolved_on__isnull=True).count() == 1


def test_unknown_flag_kind_is_refused(parcel):
    with pytest.raises(ValidationError):
        flag_raise(kind="NOPE", target=parcel, description="x")
    assert Flag.objects.count() == 0


def test_assign_a_flag(parcel, staff_user, make_user, owner_user, auditor_user):
    boss = make_user("jefa", "administrator", first_name="Lucía")
    flag = flag_raise(kind=Flag.Kind.SEIZURE_LIMIT, target=parcel, description="Embargo excede 2× la deuda")
    flag = flag_assign(flag=flag, user=staff_user, actor=boss)
    assert flag.assigned_to == staff_user
    entry = AuditEntry.objects.get(action="flag.assign")
    assert entry.actor == boss and entry.data["assigned_to"] == staff_user.pk
    for not_staff in (owner_user, auditor_user):
        with pytest.raises(ValidationError):
            flag_assign(flag=flag, user=not_staff, actor=boss)
    flag.refresh_from_db()
    assert flag.assigned_to == staff_user
    assert flag_assign(flag=flag, user=None, actor=boss).assigned_to is None


# --- Pages --------------------------------------------------------------------------------------

def test_flag_page_assigns_through_the_form(staff_client, staff_user, parcel):
    flag = flag_raise(kind=Flag.Kind.ARREARS, target=parcel, description="Atraso de seis meses")
    page = staff_client.get(reverse("core:flag_list"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Atraso de seis meses" in html and parcel.get_absolute_url() in html
    assert reverse("core:flag_assign", args=[flag.pk]) in html
    response = staff_client.post(reverse("core:flag_assign", args=[flag.pk]), {"user": staff_user.pk})
    assert response.status_code == 302 and response.url == reverse("core:flag_list")
    flag.refresh_from_db()
    assert flag.assigned_to == staff_user
    mine = staff_client.get(reverse("core:flag_list"), {"assigned": str(staff_user.pk)})
    assert list(mine.context["flags"]) == [flag]
    assert not staff_client.get(reverse("core:flag_list"), {"assigned": "none"}).context["flags"]


def test_auditor_reads_flags_but_cannot_assign(client, auditor_user, staff_user, parcel):
    flag = flag_raise(kind=Flag.Kind.ARREARS, target=parcel, description="Atraso")
    client.force_login(auditor_user)
    page = client.get(reverse("core:flag_list"))
    assert page.status_code == 200
    assert reverse("core:flag_assign", args=[flag.pk]) not in page.content.decode()
    assert client.post(reverse("core:flag_assign", args=[flag.pk]), {"user": staff_user.pk}).status_code == 403
    flag.refresh_from_db()
    assert flag.assigned_to is None


def test_clock_page_filters_by_status_and_rule(staff_client, district, parcel):
    open_clock("FRA-5", D("2026-10-02"), district)
    open_clock("LAJ-7", D("2026-07-01"), parcel)
    clocks_mark_missed(D("2026-09-15"))  # LAJ-7 (due 2026-08-30) missed
    page = staff_client.get(reverse("core:clock_list"))
    assert [c.rule for c in page.context["clocks"]] == ["FRA-5"]
    page = staff_client.get(reverse("core:clock_list"), {"status": "MISSED"})
    assert [c.rule for c in page.context["clocks"]] == ["LAJ-7"]
    page = staff_client.get(reverse("core:clock_list"), {"status": "all", "rule": "LAJ-7"})
    assert [c.rule for c in page.context["clocks"]] == ["LAJ-7"]
    assert "no se mueve por feriados" in page.content.decode()


def test_home_lists_clocks_due_soon_overdue_and_open_flags(staff_client, staff_user, district, parcel):
    today = timezone.localdate()
    soon = clock_open(rule="SID-3", start_date=today - timedelta(days=80), due_date=today + timedelta(days=10),
                      target=district, label="Remesa de cobros al Fondo", responsible_user=staff_user)
    later = clock_open(rule="SID-2", start_date=today, due_date=today + timedelta(days=45), target=district,
                       label="Notificar a los dueños")
    late = clock_open(rule="FRA-5", start_date=today - timedelta(days=40), due_date=today - timedelta(days=3),
                      target=parcel, label="Decidir la transferencia", office_name="DRNA — Oficina de Franquicias")
    flag = flag_raise(kind=Flag.Kind.LIEN_CONFLICT, target=parcel, description="IRR-10 contra SID-4",
                      severity=Flag.Severity.HIGH, assigned_to=staff_user)
    response = staff_client.get(reverse("home"))
    assert response.status_code == 200
    ctx = response.context
    assert ctx["clocks_due_soon"] == [soon] and ctx["clocks_overdue"] == [late] and ctx["open_flags"] == [flag]
    html = response.content.decode()
    assert "Vencen en 30 días" in html and "Vencidos" in html and "Asuntos abiertos" in html
    assert "Remesa de cobros al Fondo" in html and "Decidir la transferencia" in html
    assert later.label not in html
    assert district.get_absolute_url() in html and parcel.get_absolute_url() in html
    assert "faltan 10 días" in html and "vencido hace 3 días" in html
    assert "Ana" in html  # the assignee and the responsible user
    assert "Conflicto de gravámenes" in html
    assert "Distritos" in html and "Actividad reciente" in html  # the existing parts stay


def test_admin_lists_clocks_and_flags(client, make_user, district, parcel):
    admin_user = make_user("admin.core", "administrator", is_staff=True, is_superuser=True)
    client.force_login(admin_user)
    open_clock("FRA-5", D("2026-10-02"), district)
    flag_raise(kind=Flag.Kind.ARREARS, target=parcel, description="Atraso")
    for name in ("admin:core_clock_changelist", "admin:core_flag_changelist"):
        assert client.get(reverse(name)).status_code == 200
    clock = Clock.objects.get()
    assert client.get(reverse("admin:core_clock_change", args=[clock.pk])).status_code == 200
    assert client.get(reverse("admin:core_clock_add")).status_code == 403
