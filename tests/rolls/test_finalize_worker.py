"""With a real worker: a worker child killed while finalization constitutes the liens leaves the roll
certified with no lien, and the redelivered task (acks_late) finalizes it exactly once."""
import os
from collections import Counter
from datetime import date

import pytest

from assessments.models import Receivable
from assessments.rolls import services
from assessments.rolls.billing import open_roll_receivables
from assessments.rolls.models import Roll, RollJob
from assessments.rolls.tasks import roll_finalize_task
from core.models import AuditEntry
from liens.models import Lien
from tests.conftest import require
from tests.rolls._worker import big_district, blocked_backend, kill_blocked_worker, table_locked, wait

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

# Not the audit table: services._finalize writes its `roll.finalize` entry before any lien, so holding it
# would stop the job before its work. Its last write is marking the open charges `creates_lien` once all
# their liens are inserted: holding the receivables makes the transaction wait there, every time.
RECEIVABLES = Receivable._meta.db_table
# Not billing.CHUNK + 1 charges, for a live progress report before the wait: the worker runs under the test
# settings, where the after-commit lien ranking runs eagerly in the task (~5 ms a parcel, 30 s for 5,001).
N = 200


@pytest.fixture
def certified(postgres_only, staff_user):
    """A roll of N charges, certified in process before the worker starts (tests list it first):
    certification's notices are then issued here, not queued to the worker ahead of the finalization.
    Skips first, like the worker fixture, when there is no Redis."""
    require(bool(os.environ.get("REDIS_URL")), "needs Redis for a real Celery worker: set REDIS_URL=redis://…")
    district = big_district(N, completion_certified_on=date(1990, 1, 1))
    roll = services.roll_generate(district_code=district.code, fiscal_year=2027, actor=staff_user).roll
    services.roll_certify(roll=roll, actor=staff_user)
    return Roll.objects.get(pk=roll.pk)


def _liens_inserted_by(locker, pid: int) -> bool:
    """The blocked transaction holds its insert lock on the liens table: it constituted them before waiting."""
    return locker.execute("SELECT 1 FROM pg_locks WHERE pid = %s AND relation = %s::regclass "
                          "AND mode = 'RowExclusiveLock'", [pid, Lien._meta.db_table]).fetchone() is not None


def test_killed_worker_leaves_the_roll_certified_and_redelivery_finalizes_once(certified, celery_worker_process,
                                                                               staff_user):
    assert certified.status == Roll.Status.CERTIFIED
    charges = set(open_roll_receivables(certified).values_list("pk", flat=True))
    assert len(charges) == N
    job = RollJob.objects.create(district=certified.district, fiscal_year=certified.fiscal_year,
                                 operation="finalize", requested_by=staff_user)
    with table_locked(RECEIVABLES) as locker:
        celery_worker_process.send(roll_finalize_task, job.pk)
        wait(lambda: blocked_backend(locker, RECEIVABLES) is not None, 300, "the liens to be constituted")
        assert _liens_inserted_by(locker, blocked_backend(locker, RECEIVABLES))
        assert RollJob.objects.get(pk=job.pk).status == RollJob.Status.RUNNING
        kill_blocked_worker(celery_worker_process, locker, RECEIVABLES)
        assert Roll.objects.get(pk=certified.pk).status == Roll.Status.CERTIFIED
        assert not Lien.objects.filter(origin_type=Receivable.LIEN_ORIGIN).exists()
        assert not AuditEntry.objects.filter(action="roll.finalize").exists()

    wait(lambda: RollJob.objects.get(pk=job.pk).status == RollJob.Status.DONE, 240, "the redelivered task")
    assert Roll.objects.get(pk=certified.pk).status == Roll.Status.FINALIZED
    origins = Counter(Lien.objects.filter(origin_type=Receivable.LIEN_ORIGIN).values_list("origin_id", flat=True))
    assert origins == Counter(str(pk) for pk in charges)    # one lien per open charge, none twice
    assert set(Receivable.objects.filter(creates_lien=True).values_list("pk", flat=True)) == charges
    assert AuditEntry.objects.filter(action="roll.finalize").count() == 1
