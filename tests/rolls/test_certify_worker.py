"""With a real worker: a worker child killed while certification is billing leaves the roll in draft
with no charge, and the redelivered task (acks_late) certifies and bills it exactly once."""
import os
import signal
from decimal import Decimal

import pytest
from django.db import connection

from assessments.models import LedgerEntry, Receivable
from assessments.rolls import services
from assessments.rolls.billing import billable_lines, source_type
from assessments.rolls.models import Roll, RollJob
from assessments.rolls.tasks import roll_certify_task
from tests.rolls.test_worker import _wait

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def _ledger_locked():
    """Hold the ledger in another session: certification inserts its receivables and installments,
    then waits on the ledger insert, so the kill lands mid-transaction every time."""
    import psycopg

    db = connection.settings_dict
    locker = psycopg.connect(host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432, user=db["USER"],
                             dbname=db["NAME"], password=db["PASSWORD"] or None)
    locker.execute(f"LOCK TABLE {LedgerEntry._meta.db_table} IN EXCLUSIVE MODE")
    return locker


def _blocked_backend(locker) -> int | None:
    locker.execute("SELECT pg_stat_clear_snapshot()")
    row = locker.execute(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
        "AND wait_event_type = 'Lock' AND query ILIKE %s", [f"%{LedgerEntry._meta.db_table}%"]).fetchone()
    return row[0] if row else None


def test_killed_worker_leaves_the_roll_in_draft_and_redelivery_bills_once(celery_worker_process, irrigation_figures,
                                                                          staff_user):
    roll = services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll
    billable = billable_lines(roll).count()
    job = RollJob.objects.create(district=roll.district, fiscal_year=2027, operation="certify", requested_by=staff_user)
    locker = _ledger_locked()
    try:
        celery_worker_process.send(roll_certify_task, job.pk)
        _wait(lambda: _blocked_backend(locker) is not None, 300, "certification to reach the ledger insert")
        assert RollJob.objects.get(pk=job.pk).status == RollJob.Status.RUNNING
        children = celery_worker_process.child_pids()
        assert children, celery_worker_process.log()[-2000:]
        os.kill(children[0], signal.SIGKILL)
        locker.execute("SELECT pg_terminate_backend(%s)", [_blocked_backend(locker)])
    finally:
        locker.rollback()
        locker.close()
    assert Roll.objects.get(pk=roll.pk).status == Roll.Status.DRAFT
    assert not Receivable.objects.filter(source_type=source_type(roll)).exists()

    _wait(lambda: RollJob.objects.get(pk=job.pk).status == RollJob.Status.DONE, 240, "the redelivered task")
    assert Roll.objects.get(pk=roll.pk).status == Roll.Status.CERTIFIED
    assert Receivable.objects.filter(source_type=source_type(roll)).count() == billable
    assert LedgerEntry.objects.filter(receivable__source_type=source_type(roll), kind="CHARGE").count() == \
        sum(len([d for d in line.detail if Decimal(d["amount"]) > 0]) for line in billable_lines(roll))
