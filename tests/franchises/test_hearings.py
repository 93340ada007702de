"""FRA-11: a hearing is requested in writing within 30 days of the notification; the term moves
forward past weekends and holidays; a late request is refused with the date it was due."""
from datetime import date

import pytest
from django.contrib.contenttypes.models import ContentType

from core.models import Clock, Holiday
from franchises import services
from tests.franchises.conftest import ALL_TRANSFER_DOCS

D = date.fromisoformat


@pytest.fixture
def denied(make_franchise, recipient):
    app = services.application_file(actor=None, franchise=make_franchise(), kind="TRANSFER",
                                    received_on=D("2026-08-20"), recipient=recipient, documents=ALL_TRANSFER_DOCS,
                                    fee_paid=True)
    return services.application_decide(actor=None, application=app, decided_on=D("2026-09-10"), grant=False,
                                       determination="No se justifica por el interés público.")


def request(subject, requested, notified, **kw):
    return services.hearing_request(application_or_proceeding=subject, requested_on=D(requested),
                                    notified_on=D(notified), **kw)


@pytest.mark.parametrize(("notified", "due", "last_in_time", "first_late"), [
    ("2026-09-15", "2026-10-15", "2026-10-15", "2026-10-16"),  # plain: day 30 in time, day 31 late
    ("2026-10-01", "2026-11-02", "2026-11-02", "2026-11-03"),  # day 30 is Saturday Oct 31 → Monday
    ("2026-10-20", "2026-11-20", "2026-11-20", "2026-11-21"),  # day 30 is Nov 19 (holiday) → Friday
])
def test_fra11_day_30_accepted_day_after_due_refused(denied, notified, due, last_in_time, first_late):
    ok = request(denied, last_in_time, notified)
    assert (ok.accepted, ok.due_on, ok.refused_reason) == (True, D(due), "")
    late = request(denied, first_late, notified)
    assert (late.accepted, late.due_on) == (False, D(due))
    assert f"vencía el {D(due):%d/%m/%Y}" in late.refused_reason
    assert "FRA-11" in late.refused_reason


def test_a_holiday_staff_record_moves_the_term(denied):
    Holiday.objects.create(date=D("2026-10-15"), name="Día declarado por el Gobernador")
    hearing = request(denied, "2026-10-16", "2026-09-15")
    assert (hearing.accepted, hearing.due_on) == (True, D("2026-10-16"))


def test_accepted_request_puts_a_denied_application_in_hearing(denied):
    assert denied.status == "DENIED"
    request(denied, "2026-10-01", "2026-09-15")
    denied.refresh_from_db()
    assert denied.status == "HEARING"


def test_refused_request_changes_nothing_on_the_application(denied):
    request(denied, "2026-12-01", "2026-09-15")
    denied.refresh_from_db()
    assert denied.status == "DENIED"


def test_notification_opens_the_fra11_clock_and_the_request_meets_it(denied):
    app = services.application_notify(actor=None, application=denied, notified_on=D("2026-10-20"),
                                      method="CERTIFIED_MAIL", tracking_number="9407 1000 0000 0000 0001")
    assert app.hearing_request_due == D("2026-11-20")
    clock = Clock.objects.get(rule="FRA-11", content_type=ContentType.objects.get_for_model(app), object_id=app.pk)
    assert (clock.due_date, clock.status) == (D("2026-11-20"), "OPEN")
    request(app, "2026-11-20", "2026-10-20")
    clock.refresh_from_db()
    assert (clock.status, clock.met_on) == ("MET", D("2026-11-20"))


def test_certified_mail_needs_a_tracking_number(denied):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        services.application_notify(actor=None, application=denied, notified_on=D("2026-10-20"),
                                    method="CERTIFIED_MAIL", tracking_number="")


def test_hearing_on_a_proceeding(make_franchise):
    f = make_franchise()
    p = services.proceeding_open(actor=None, franchise=f, cause="BREACH", opened_on=D("2026-03-02"))
    late = request(p, "2026-04-20", "2026-03-16")
    assert (late.accepted, late.due_on, late.proceeding) == (False, D("2026-04-15"), p)
