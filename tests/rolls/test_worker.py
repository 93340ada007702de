"""With a real worker: a worker child killed in the middle of a roll leaves nothing behind, and the
redelivered task builds the roll exactly once."""
import pytest

from assessments.rolls import progress
from assessments.rolls.models import Roll, RollJob, RollLine
from assessments.rolls.tasks import roll_generate_task
from core.models import AuditEntry
from tests.rolls._worker import big_district, blocked_backend, kill_blocked_worker, table_locked, wait

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
N = 12000
# The roll's transaction writes all its lines, then waits on its audit insert.
AUDIT = AuditEntry._meta.db_table


def test_killed_worker_leaves_no_partial_roll_and_redelivery_builds_it_once(celery_worker_process):
    district = big_district(N)
    job = RollJob.objects.create(district=district, fiscal_year=2027)
    with table_locked(AUDIT) as locker:
        celery_worker_process.send(roll_generate_task, job.pk)
        wait(lambda: blocked_backend(locker, AUDIT) is not None, 300, "the roll to reach its last write")
        assert (progress.LIVE.read(job.pk) or (0, 0))[0] > 0  # lines were streamed before the wait
        kill_blocked_worker(celery_worker_process, locker, AUDIT)
        assert not Roll.objects.filter(district=district).exists()
        assert RollLine.objects.count() == 0

    wait(lambda: RollJob.objects.get(pk=job.pk).status == RollJob.Status.DONE, 240, "the redelivered task")
    roll = Roll.objects.get(district=district, fiscal_year=2027)
    assert roll.line_count == N
    assert RollLine.objects.filter(roll=roll).count() == N
    assert Roll.objects.filter(district=district).count() == 1
