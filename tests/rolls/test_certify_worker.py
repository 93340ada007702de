"""With a real worker: a worker child killed while certification is billing leaves the roll in draft
with no charge, and the redelivered task (acks_late) certifies and bills it exactly once."""
from decimal import Decimal

import pytest

from assessments.models import LedgerEntry, Receivable
from assessments.rolls import services
from assessments.rolls.billing import billable_lines, source_type
from assessments.rolls.models import Roll, RollJob
from assessments.rolls.tasks import roll_certify_task
from tests.rolls._worker import blocked_backend, kill_blocked_worker, table_locked, wait

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
# Certification inserts its receivables and installments, then waits on the ledger insert.
LEDGER = LedgerEntry._meta.db_table


def test_killed_worker_leaves_the_roll_in_draft_and_redelivery_bills_once(celery_worker_process, irrigation_figures,
                                                                          staff_user):
    roll = services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll
    billable = billable_lines(roll).count()
    job = RollJob.objects.create(district=roll.district, fiscal_year=2027, operation="certify", requested_by=staff_user)
    with table_locked(LEDGER) as locker:
        celery_worker_process.send(roll_certify_task, job.pk)
        wait(lambda: blocked_backend(locker, LEDGER) is not None, 300, "certification to reach the ledger insert")
        assert RollJob.objects.get(pk=job.pk).status == RollJob.Status.RUNNING
        kill_blocked_worker(celery_worker_process, locker, LEDGER)
        assert Roll.objects.get(pk=roll.pk).status == Roll.Status.DRAFT
        assert not Receivable.objects.filter(source_type=source_type(roll)).exists()

    wait(lambda: RollJob.objects.get(pk=job.pk).status == RollJob.Status.DONE, 240, "the redelivered task")
    assert Roll.objects.get(pk=roll.pk).status == Roll.Status.CERTIFIED
    assert Receivable.objects.filter(source_type=source_type(roll)).count() == billable
    assert LedgerEntry.objects.filter(receivable__source_type=source_type(roll), kind="CHARGE").count() == \
        sum(len([d for d in line.detail if Decimal(d["amount"]) > 0]) for line in billable_lines(roll))
