"""With a real worker: a worker child killed in the middle of a roll leaves nothing behind, and the
redelivered task builds the roll exactly once."""
import os
import signal
import time
from contextlib import contextmanager
from datetime import date
from decimal import Decimal

import psycopg
import pytest
from django.db import connection

from assessments.rolls import progress
from assessments.rolls.models import CertifiedFigures, Roll, RollJob, RollLine
from assessments.rolls.tasks import roll_generate_task
from districts.models import Membership, Parcel
from tests import factories
from tests.rolls.conftest import IRR_FIGURES

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
N = 12000


def _big_district():
    district = factories.district()
    muni = factories.parcel(cadastre="000-000-000-00").municipality
    Parcel.objects.bulk_create([Parcel(cadastre=f"5{i // 1000000:02d}-{i // 1000 % 1000:03d}-{i % 1000:03d}-01",
                                       municipality=muni, area_value=Decimal("3.5")) for i in range(N)],
                               batch_size=5000)
    ids = Parcel.objects.filter(cadastre__startswith="5").values_list("id", flat=True)
    Membership.objects.bulk_create([Membership(district=district, parcel_id=pid, included_on=date(1990, 1, 1),
                                               gravity_acres=Decimal("3.4"), free_period_end=date(2001, 5, 10))
                                    for pid in ids], batch_size=5000)
    CertifiedFigures.objects.create(district=district, fiscal_year=2027, figures=IRR_FIGURES, certified_by="DTOP",
                                    certified_on=date(2026, 5, 1))
    return district


def _wait(predicate, seconds, what):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@contextmanager
def _audit_table_locked():
    """Hold the audit table in another session: the roll's transaction writes all its lines, then waits on its
    audit insert, so the kill lands mid-transaction every time instead of racing a fast machine."""
    db = connection.settings_dict
    with psycopg.connect(host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432, user=db["USER"],
                         dbname=db["NAME"], password=db["PASSWORD"] or None) as locker:
        locker.execute("LOCK TABLE core_auditentry IN EXCLUSIVE MODE")
        yield locker
        locker.rollback()


def _blocked_backend(locker) -> int | None:
    locker.execute("SELECT pg_stat_clear_snapshot()")  # activity is otherwise frozen for the whole transaction
    row = locker.execute(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
        "AND wait_event_type = 'Lock' AND query ILIKE '%core_auditentry%'").fetchone()
    return row[0] if row else None


def test_killed_worker_leaves_no_partial_roll_and_redelivery_builds_it_once(celery_worker_process):
    district = _big_district()
    job = RollJob.objects.create(district=district, fiscal_year=2027)
    with _audit_table_locked() as locker:
        celery_worker_process.send(roll_generate_task, job.pk)
        _wait(lambda: _blocked_backend(locker) is not None, 300, "the roll to reach its last write")
        assert (progress.LIVE.read(job.pk) or (0, 0))[0] > 0  # lines were streamed before the wait
        children = celery_worker_process.child_pids()
        assert children, celery_worker_process.log()[-2000:]
        os.kill(children[0], signal.SIGKILL)
        # The server would only notice the dead client once the lock is released; end its session now.
        locker.execute("SELECT pg_terminate_backend(%s)", [_blocked_backend(locker)])
    assert not Roll.objects.filter(district=district).exists()
    assert RollLine.objects.count() == 0

    _wait(lambda: RollJob.objects.get(pk=job.pk).status == RollJob.Status.DONE, 240, "the redelivered task")
    roll = Roll.objects.get(district=district, fiscal_year=2027)
    assert roll.line_count == N
    assert RollLine.objects.filter(roll=roll).count() == N
    assert Roll.objects.filter(district=district).count() == 1
