"""DEADLINES as the life cycles apply them: SID-2, SID-3, TID-1 (ordinance, mayor, publication) and TID-4.

Each clock at its boundary — the act on the due date is in time, the day after is late — and
moved forward past a weekend, a Puerto Rico holiday, or both. Dates are exact, never bounds.
"""
from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from core.models import Clock, Holiday
from districts.improvement import services
from districts.improvement.models import TidOrdinance
from tests.improvement.conftest import issue

pytestmark = pytest.mark.django_db


# --- SID-3: remittance within 90 days of CRIM's receipt -----------------------------------------

@pytest.mark.parametrize(("received_on", "due_on", "moved_from"), [
    (date(2026, 3, 3), date(2026, 6, 1), None),  # Tue + 90 = Mon Jun 1: no move
    (date(2026, 3, 2), date(2026, 6, 1), date(2026, 5, 31)),  # Sunday → Monday
    (date(2026, 6, 9), date(2026, 9, 8), date(2026, 9, 7)),  # Labor Day (Mon) → Tuesday
    (date(2026, 6, 7), date(2026, 9, 8), date(2026, 9, 5)),  # Saturday, Sunday, Labor Day → Tuesday
])
def test_sid3_remittance_due(charged_resolution, staff_user, received_on, due_on, moved_from):
    services.sid_crim_receipt_record(actor=staff_user, resolution=charged_resolution, received_on=date(2025, 2, 1))
    batch = services.sid_batch_record(actor=staff_user, resolution=charged_resolution, received_on=received_on,
                                      collected=Decimal("1000.00"))
    assert (batch.remittance_due_on, batch.remittance_moved_from) == (due_on, moved_from)
    clock = Clock.objects.get(rule="SID-3", object_id=batch.pk)
    assert (clock.start_date, clock.due_date, clock.status) == (received_on, due_on, Clock.Status.OPEN)


@pytest.mark.parametrize(("remitted_on", "late", "status"), [
    (date(2026, 9, 8), False, Clock.Status.MET),  # on the moved due date: in time
    (date(2026, 9, 9), True, Clock.Status.MISSED),  # the day after: late
])
def test_sid3_remittance_boundary(charged_resolution, staff_user, remitted_on, late, status):
    services.sid_crim_receipt_record(actor=staff_user, resolution=charged_resolution, received_on=date(2025, 2, 1))
    batch = services.sid_batch_record(actor=staff_user, resolution=charged_resolution, received_on=date(2026, 6, 9),
                                      collected=Decimal("1000.00"))
    batch = services.sid_batch_remit(actor=staff_user, batch=batch, remitted_on=remitted_on)
    assert batch.remitted_late is late
    assert batch.is_late(date(2030, 1, 1)) is late
    assert Clock.objects.get(rule="SID-3", object_id=batch.pk).status == status


def test_sid3_staff_holiday_moves_the_term_and_a_worked_holiday_does_not(charged_resolution, staff_user):
    services.sid_crim_receipt_record(actor=staff_user, resolution=charged_resolution, received_on=date(2025, 2, 1))
    Holiday.objects.create(date=date(2026, 6, 1), name="Día declarado por el Gobernador")
    moved = services.sid_batch_record(actor=staff_user, resolution=charged_resolution, received_on=date(2026, 3, 3),
                                      collected=Decimal("10.00"))
    assert moved.remittance_due_on == date(2026, 6, 2)
    Holiday.objects.create(date=date(2026, 9, 7), name="Día del Trabajo", is_working_day=True)
    worked = services.sid_batch_record(actor=staff_user, resolution=charged_resolution, received_on=date(2026, 6, 9),
                                       collected=Decimal("10.00"))
    assert worked.remittance_due_on == date(2026, 9, 7)


# --- SID-2: notices within 180 days of CRIM's receipt, then yearly -------------------------------

@pytest.mark.parametrize(("received_on", "first_due", "moved_from"), [
    (date(2026, 1, 10), date(2026, 7, 9), None),  # Thursday: no move
    (date(2026, 1, 12), date(2026, 7, 13), date(2026, 7, 11)),  # Saturday → Monday
    (date(2026, 5, 30), date(2026, 11, 27), date(2026, 11, 26)),  # Thanksgiving → Friday
])
def test_sid2_first_notice_due(resolution, staff_user, received_on, first_due, moved_from):
    services.sid_crim_receipt_record(actor=staff_user, resolution=resolution, received_on=received_on)
    first = resolution.notice_rounds.get(sequence=1)
    assert (first.due_on, first.moved_from, first.fiscal_year) == (first_due, moved_from, 2026)
    assert resolution.notice_rounds.count() == 3  # one per year of the term
    clock = Clock.objects.get(rule="SID-2", object_id=first.pk)
    assert (clock.start_date, clock.due_date) == (received_on, first_due)


def test_sid2_yearly_notices_on_the_anniversary_moved_past_weekends(resolution, staff_user):
    services.sid_crim_receipt_record(actor=staff_user, resolution=resolution, received_on=date(2026, 1, 12))
    dues = list(resolution.notice_rounds.values_list("sequence", "fiscal_year", "due_on", "moved_from"))
    assert dues == [(1, 2026, date(2026, 7, 13), date(2026, 7, 11)),  # Sat → Mon
                    (2, 2027, date(2027, 7, 12), date(2027, 7, 11)),  # Sun → Mon
                    (3, 2028, date(2028, 7, 11), None)]  # Tuesday


@pytest.mark.parametrize(("mailed_on", "late", "status"), [
    (date(2026, 11, 27), False, Clock.Status.MET),
    (date(2026, 11, 28), True, Clock.Status.MISSED),
])
def test_sid2_notice_boundary_opens_next_year(resolution, staff_user, mailed_on, late, status):
    services.sid_crim_receipt_record(actor=staff_user, resolution=resolution, received_on=date(2026, 5, 30))
    first = resolution.notice_rounds.get(sequence=1)
    first = services.sid_notice_mailed(actor=staff_user, notice_round=first, mailed_on=mailed_on)
    assert first.is_late(date(2030, 1, 1)) is late
    assert Clock.objects.get(rule="SID-2", object_id=first.pk).status == status
    second = resolution.notice_rounds.get(sequence=2)
    assert Clock.objects.get(rule="SID-2", object_id=second.pk).due_date == second.due_on == date(2027, 11, 26)


def test_sid2_receipt_is_recorded_once(resolution, staff_user):
    services.sid_crim_receipt_record(actor=staff_user, resolution=resolution, received_on=date(2026, 1, 10))
    again = services.sid_crim_receipt_record(actor=staff_user, resolution=resolution, received_on=date(2026, 1, 10))
    assert again.notice_rounds.count() == 3
    assert Clock.objects.filter(rule="SID-2").count() == 1
    with pytest.raises(ValidationError):
        services.sid_crim_receipt_record(actor=staff_user, resolution=resolution, received_on=date(2026, 1, 11))


# --- TID-1: the ordinance within 90 days, the mayor within 30, publication the week after ---------

def test_tid1_ordinance_due_moves_past_a_weekend(petition):
    assert (petition.legislature_received_on, petition.ordinance_due_on) == (date(2026, 3, 2), date(2026, 6, 1))
    assert petition.ordinance_due_moved_from == date(2026, 5, 31)
    assert Clock.objects.get(rule="TID-1-ORDINANCE", object_id=petition.pk).due_date == date(2026, 6, 1)


@pytest.mark.parametrize(("issued_on", "late", "status"), [
    (date(2026, 6, 1), False, Clock.Status.MET),
    (date(2026, 6, 2), True, Clock.Status.MISSED),
])
def test_tid1_ordinance_boundary(favorable, staff_user, issued_on, late, status):
    ordinance = issue(favorable, staff_user, issued_on=issued_on)
    assert ordinance.issued_late is late
    assert Clock.objects.get(rule="TID-1-ORDINANCE", object_id=favorable.pk).status == status


def test_tid1_ordinance_due_moves_past_a_holiday(tid_district, staff_user):
    from districts.models import Municipality

    p = services.tid_petition_create(actor=staff_user, district=tid_district, petition_text="…",
                                     municipality=Municipality.objects.get(name="San Juan"),
                                     legislature_received_on=date(2026, 7, 14))
    assert (p.ordinance_due_on, p.ordinance_due_moved_from) == (date(2026, 10, 13), date(2026, 10, 12))  # Columbus Day


@pytest.mark.parametrize(("received_on", "due_on"), [
    (date(2026, 9, 1), date(2026, 10, 1)),  # Thursday: no move
    (date(2026, 9, 12), date(2026, 10, 13)),  # Columbus Day (Mon) → Tuesday
])
def test_tid1_mayor_due(ordinance, staff_user, received_on, due_on):
    ordinance = services.tid_mayor_receipt(actor=staff_user, ordinance=ordinance, received_on=received_on)
    assert ordinance.mayor_due_on == due_on
    assert Clock.objects.get(rule="TID-1-MAYOR", object_id=ordinance.pk).due_date == due_on


@pytest.mark.parametrize(("decided_on", "late", "status"), [
    (date(2026, 10, 13), False, Clock.Status.MET),
    (date(2026, 10, 14), True, Clock.Status.MISSED),
])
def test_tid1_mayor_boundary(ordinance, staff_user, decided_on, late, status):
    services.tid_mayor_receipt(actor=staff_user, ordinance=ordinance, received_on=date(2026, 9, 12))
    ordinance = services.tid_mayor_decide(actor=staff_user, ordinance=ordinance, decision="APPROVED",
                                          decided_on=decided_on)
    assert ordinance.decided_late is late
    assert Clock.objects.get(rule="TID-1-MAYOR", object_id=ordinance.pk).status == status


@pytest.mark.parametrize(("decided_on", "due_on"), [
    (date(2026, 5, 6), date(2026, 5, 13)),  # Wednesday + 7: no move
    (date(2026, 12, 30), date(2027, 1, 7)),  # Epiphany (Wed Jan 6) → Thursday
    (date(2026, 6, 12), date(2026, 6, 22)),  # Juneteenth (Fri), Saturday, Sunday → Monday
])
def test_tid1_publication_window(ordinance, staff_user, decided_on, due_on):
    services.tid_mayor_receipt(actor=staff_user, ordinance=ordinance, received_on=min(decided_on, date(2026, 5, 6)))
    ordinance = services.tid_mayor_decide(actor=staff_user, ordinance=ordinance, decision="APPROVED",
                                          decided_on=decided_on)
    assert ordinance.publication_due_on == due_on
    assert Clock.objects.get(rule="TID-1-PUBLICATION", object_id=ordinance.pk).due_date == due_on


def test_tid1_publication_on_the_last_day_is_accepted(approved, staff_user):
    assert approved.publication_due_on == date(2026, 5, 13)
    ordinance = services.tid_publication_record(actor=staff_user, ordinance=approved, newspaper="Primera Hora",
                                                published_on=date(2026, 5, 13))
    assert ordinance.published_on == date(2026, 5, 13)
    assert ordinance.petition.status == "PUBLISHED"
    assert Clock.objects.get(rule="TID-1-PUBLICATION", object_id=ordinance.pk).status == Clock.Status.MET


def test_tid1_publication_before_the_approval_is_refused(approved, staff_user):
    with pytest.raises(ValidationError) as exc:
        services.tid_publication_record(actor=staff_user, ordinance=approved, newspaper="Primera Hora",
                                        published_on=date(2026, 5, 5))
    assert "06/05/2026" in str(exc.value)
    assert TidOrdinance.objects.get(pk=approved.pk).published_on is None


def test_tid1_late_publication_is_recorded_and_flagged_never_refused(approved, staff_user, make_user):
    """TID-1: the tourism districts law says the ordinances "serán publicadas, a costa del peticionario,
    en un periódico de circulación general una vez durante la semana siguiente a su aprobación por el
    alcalde" and sets no consequence for missing the week: a late publication is recorded and flagged
    for legal review, never refused, and billing proceeds (docs/rules/improvement-districts.md)."""
    from core.dashboard.registry import collect
    from core.dashboard.selectors import items_for_user
    from core.models import Flag

    ordinance = services.tid_publication_record(actor=staff_user, ordinance=approved, newspaper="Primera Hora",
                                                published_on=date(2026, 5, 20))
    assert ordinance.published_on == date(2026, 5, 20) and ordinance.published_late
    assert ordinance.in_force  # its charges may be imposed: billing proceeds with the flag
    assert Clock.objects.get(rule="TID-1-PUBLICATION", object_id=ordinance.pk).status == Clock.Status.MISSED
    flag = Flag.objects.get(kind=Flag.Kind.LATE_PUBLICATION, object_id=ordinance.pk, resolved_on__isnull=True)
    assert flag.rule == "TID-1" and "13/05/2026" in flag.description
    legal = make_user("nilda.legal", "legal_reviewer")
    items = [i for i in items_for_user(legal, collect(today=date(2026, 5, 20))) if i.key == f"flag:{flag.pk}"]
    assert items and "TID-1" in items[0].title


# --- TID-4: certified-mail notices within 30 days of the association's receipt ------------------

@pytest.mark.parametrize(("received_on", "first_due", "moved_from"), [
    (date(2026, 6, 1), date(2026, 7, 1), None),
    (date(2026, 6, 5), date(2026, 7, 6), date(2026, 7, 5)),  # Sunday → Monday
    (date(2026, 6, 4), date(2026, 7, 6), date(2026, 7, 4)),  # Independence Day on a Saturday → Monday
])
def test_tid4_first_notice_due(with_association, staff_user, received_on, first_due, moved_from):
    ordinance = services.tid_association_receipt(actor=staff_user, ordinance=with_association,
                                                 received_on=received_on)
    first = ordinance.notice_rounds.get(sequence=1)
    assert (first.due_on, first.moved_from, first.fiscal_year) == (first_due, moved_from, 2027)
    assert ordinance.notice_rounds.count() == 3
    assert Clock.objects.get(rule="TID-4", object_id=first.pk).due_date == first_due


@pytest.mark.parametrize(("mailed_on", "late", "status"), [
    (date(2026, 7, 6), False, Clock.Status.MET),
    (date(2026, 7, 7), True, Clock.Status.MISSED),
])
def test_tid4_notice_boundary(with_association, staff_user, mailed_on, late, status):
    ordinance = services.tid_association_receipt(actor=staff_user, ordinance=with_association,
                                                 received_on=date(2026, 6, 4))
    first = services.tid_notice_mailed(actor=staff_user, notice_round=ordinance.notice_rounds.get(sequence=1),
                                       mailed_on=mailed_on)
    assert first.is_late(date(2030, 1, 1)) is late
    assert Clock.objects.get(rule="TID-4", object_id=first.pk).status == status
    second = ordinance.notice_rounds.get(sequence=2)
    assert second.due_on == date(2027, 7, 6)  # Jul 4, 2027 is a Sunday, Jul 5 its observed holiday
    assert Clock.objects.get(rule="TID-4", object_id=second.pk).status == Clock.Status.OPEN
