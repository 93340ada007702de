"""The daily billing task (beat 00:45), the collections task and the demo seed."""
import io
from datetime import date

import pytest
from django.conf import settings
from django.core.management import call_command

from assessments.improvement_billing import rules
from assessments.improvement_billing.models import BillingRun, ImprovementCharge
from assessments.improvement_billing.tasks import improvement_bill_year_task
from core.models import Flag

pytestmark = pytest.mark.django_db


def test_beat_schedule():
    bill = settings.CELERY_BEAT_SCHEDULE["improvement-bill-daily"]
    assert bill["task"] == "assessments.improvement_billing.tasks.improvement_bill_year_task"
    assert (bill["schedule"].hour, bill["schedule"].minute) == ({0}, {45})
    assert "improvement-collections-feed-daily" in settings.CELERY_BEAT_SCHEDULE


@pytest.mark.parametrize(("today", "fy"), [(date(2027, 6, 1), 2028), (date(2027, 6, 30), 2028),
                                           (date(2027, 7, 1), 2028), (date(2027, 5, 31), 2027)])
def test_which_year_the_daily_run_bills(today, fy):
    from core.fiscal import fiscal_year_of

    assert rules.next_fiscal_year_to_bill(today, fiscal_year_of(today)) == fy


def test_daily_task_bills_next_year_from_june_and_is_idempotent(received, tid_in_force):
    # June 2, 2026: next fiscal year is FY2027; the SID term FY2026–2028 and the TID FY2027–2029 cover it.
    out = improvement_bill_year_task(on="2026-06-02")
    assert set(out["districts"]) == {"sid-prueba", "tid-prueba"} and out["fiscal_year"] == 2027
    again = improvement_bill_year_task(on="2026-06-02")
    assert {d["created"] for d in again["districts"].values()} == {0}
    assert ImprovementCharge.objects.count() == 6


def test_daily_task_never_bills_outside_the_term(received):
    out = improvement_bill_year_task(fiscal_year=2029, on="2028-06-02")   # the SID term ended with FY2028
    assert out["districts"] == {}
    assert not BillingRun.objects.exists() and not Flag.objects.exists()


def test_seed(db, capsys):
    call_command("seed_improvement", stdout=io.StringIO())
    call_command("seed_improvement_billing")
    first = capsys.readouterr().out
    assert "cargos nuevos" in first
    count = ImprovementCharge.objects.count()
    assert count > 0
    call_command("seed_improvement_billing")
    assert ImprovementCharge.objects.count() == count
    assert "0 cargos nuevos" in capsys.readouterr().out
