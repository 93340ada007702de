"""The daily flags: FRA-10 (12 months without use) and FRA-7 (renewal not filed) fire on their day
and not the day before; FRA-8 is evaluated from the oldest unpaid due date billing will supply."""
from datetime import date
from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib.contenttypes.models import ContentType

from assessments.rules.deadlines import Clock
from core.daycount import add_months
from core.models import Flag
from franchises import rules, selectors, services
from franchises.models import Franchise, UsageReport
from franchises.tasks import franchise_daily_flags

D = date.fromisoformat


def codes(today, **kw):
    return sorted((f.franchise.number, f.code, f.due) for f in selectors.franchise_flags(D(today), **kw))


def open_flags(kind):
    return Flag.objects.filter(kind=kind, resolved_on__isnull=True,
                               content_type=ContentType.objects.get_for_model(Franchise))


@pytest.fixture
def idle(make_franchise):
    """Used in January 2025 (last day with use Jan 31), then 12 months of zeros."""
    f = make_franchise(number="DRNA-FE-2020-0007", issue=D("2020-01-15"), expiry=D("2030-01-14"))
    services.meter_reading_record(actor=None, franchise=f, month=D("2025-01-01"), gallons=640_000)
    month = D("2025-02-01")
    while month <= D("2026-01-01"):
        services.meter_reading_record(actor=None, franchise=f, month=month, gallons=0)
        month = add_months(month, 1)
    return f


# --- FRA-10 ----------------------------------------------------------------------------------------------


def test_fra10_fires_twelve_months_after_the_last_day_with_use(idle):
    assert codes("2026-01-30") == []
    assert codes("2026-01-31") == [("DRNA-FE-2020-0007", "FRA-10", D("2026-01-31"))]
    idle.refresh_from_db()
    assert (idle.last_use_on, idle.prescription_on) == (D("2025-01-31"), D("2026-01-31"))


def test_fra10_is_recorded_once_in_the_work_queue_and_resolved_by_use(idle):
    assert services.franchise_flags_record(today=D("2026-01-30"))["raised"] == 0
    assert not open_flags("NON_USE").exists()
    assert services.franchise_flags_record(today=D("2026-01-31")) == {"raised": 1, "resolved": 0, "open": 1}
    assert services.franchise_flags_record(today=D("2026-01-31")) == {"raised": 0, "resolved": 0, "open": 1}
    flag = open_flags("NON_USE").get()
    assert (flag.rule, flag.object_id, flag.opened_on) == ("FRA-10", idle.pk, D("2026-01-31"))
    assert "31/01/2025" in flag.description

    services.meter_reading_record(actor=None, franchise=idle, month=D("2026-02-01"), gallons=10)
    assert services.franchise_flags_record(today=D("2026-03-02"))["resolved"] == 1
    assert not open_flags("NON_USE").exists()


def test_fra10_needs_evidence_and_a_justified_non_use_interrupts_it(make_franchise, idle):
    make_franchise(number="DRNA-FE-2020-0099")  # no readings nor reports: nothing is known
    assert [c[0] for c in codes("2026-06-01")] == ["DRNA-FE-2020-0007"]
    services.usage_report_record(actor=None, instance=UsageReport(
        franchise=idle, period_start=D("2025-06-01"), period_end=D("2025-09-30"), gallons_used=0,
        received_on=D("2025-10-05"), nonuse_justified=True, justification="Reparación del pozo."))
    assert codes("2026-09-29") == []
    assert codes("2026-09-30") == [("DRNA-FE-2020-0007", "FRA-10", D("2026-09-30"))]


def test_fra10_with_readings_but_never_any_use_counts_from_issue(make_franchise):
    f = make_franchise(issue=D("2025-03-10"), expiry=D("2030-03-09"))
    services.meter_reading_record(actor=None, franchise=f, month=D("2025-04-01"), gallons=0)
    assert codes("2026-03-09") == []
    assert [c[1:] for c in codes("2026-03-10")] == [("FRA-10", D("2026-03-10"))]


def test_readings_after_today_do_not_count(idle):
    services.meter_reading_record(actor=None, franchise=idle, month=D("2026-06-01"), gallons=5)
    assert codes("2026-01-31") == [("DRNA-FE-2020-0007", "FRA-10", D("2026-01-31"))]


# --- FRA-7 -----------------------------------------------------------------------------------------------


@pytest.fixture
def expiring(make_franchise):
    # Expiry Saturday 2027-02-27: 90 days back is Sunday 2026-11-29, moved back to Friday 2026-11-27.
    return make_franchise(number="DRNA-FE-2020-0150", issue=D("2020-03-01"), expiry=D("2027-02-27"))


def test_fra7_fires_on_the_last_day_to_file_not_the_day_before(expiring):
    assert expiring.renewal_deadline == D("2026-11-27")
    assert codes("2026-11-26") == []
    assert codes("2026-11-27") == [("DRNA-FE-2020-0150", "FRA-7", D("2026-11-27"))]
    assert codes("2027-03-15") == [("DRNA-FE-2020-0150", "FRA-7", D("2026-11-27"))]  # expired, still not filed


def test_fra7_recorded_then_resolved_when_the_renewal_is_filed(expiring):
    services.franchise_flags_record(today=D("2026-11-26"))
    assert not open_flags("RENEWAL_NOT_FILED").exists()
    services.franchise_flags_record(today=D("2026-11-27"))
    flag = open_flags("RENEWAL_NOT_FILED").get()
    assert (flag.rule, flag.object_id) == ("FRA-7", expiring.pk)
    services.application_file(actor=None, franchise=expiring, kind="RENEWAL", received_on=D("2026-11-30"),
                              requested_expiry_date=D("2029-06-30"))
    assert codes("2026-11-30") == []
    assert services.franchise_flags_record(today=D("2026-11-30"))["resolved"] == 1


def test_fra7_not_for_inactive_franchises(expiring):
    Franchise.objects.filter(pk=expiring.pk).update(status="REVOKED")
    assert codes("2026-12-01") == []


def test_fra7_clock_is_open_in_the_work_queue(expiring):
    from core.models import Clock as QueueClock

    clock = QueueClock.objects.get(rule="FRA-7", object_id=expiring.pk,
                                   content_type=ContentType.objects.get_for_model(Franchise))
    assert (clock.start_date, clock.due_date, clock.status) == (D("2027-02-27"), D("2026-11-27"), "OPEN")


# --- FRA-8 -----------------------------------------------------------------------------------------------

FRA8 = Clock(code="FRA-8", move="none", months=6)


@pytest.mark.parametrize(("oldest_unpaid", "today", "expected"), [
    (None, "2027-06-01", None),
    ("2026-08-31", "2027-02-27", None),
    ("2026-08-31", "2027-02-28", "2027-02-28"),   # Aug 31 + 6 months clamps to Feb 28; flags don't move
    ("2026-07-01", "2026-12-31", None),
    ("2026-07-01", "2027-01-01", "2027-01-01"),   # a holiday: unmoved
])
def test_fra8_arrears_flag_from_the_oldest_unpaid_due_date(oldest_unpaid, today, expected):
    got = rules.arrears_flag(D(oldest_unpaid) if oldest_unpaid else None, D(today), FRA8)
    assert got == (D(expected) if expected else None)


def test_fra8_through_the_selector_hook_and_recorded_only_when_given(make_franchise):
    f = make_franchise(number="DRNA-FE-2020-0300")
    assert codes("2027-01-01") == []
    assert codes("2027-01-01", oldest_unpaid_due={f.pk: D("2026-07-01")}) == [
        ("DRNA-FE-2020-0300", "FRA-8", D("2027-01-01"))]
    services.franchise_flags_record(today=D("2027-01-01"), oldest_unpaid_due={f.pk: D("2026-07-01")})
    assert open_flags("ARREARS").get().rule == "FRA-8"
    services.franchise_flags_record(today=D("2027-01-02"))  # no billing input: FRA-8 left alone
    assert open_flags("ARREARS").exists()
    services.franchise_flags_record(today=D("2027-01-03"), oldest_unpaid_due={})
    assert not open_flags("ARREARS").exists()


# --- The daily task ----------------------------------------------------------------------------------------


def test_daily_task_and_beat_entry(idle):
    assert franchise_daily_flags.delay("2026-01-31").get() == {"raised": 1, "resolved": 0, "open": 1}
    assert franchise_daily_flags("2026-01-31") == {"raised": 0, "resolved": 0, "open": 1}
    entry = settings.CELERY_BEAT_SCHEDULE["franchises-daily-flags"]
    assert entry["task"] == "franchises.tasks.franchise_daily_flags"


def test_debt_provider_hook(make_franchise):
    f = make_franchise()
    assert selectors.outstanding_debt(f, D("2027-01-01")) is None
    selectors.register_debt_provider(lambda franchise, on: Decimal("12.00"))
    try:
        assert selectors.outstanding_debt(f, D("2027-01-01")) == Decimal("12.00")
    finally:
        selectors.register_debt_provider(None)
