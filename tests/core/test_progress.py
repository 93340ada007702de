"""core.progress: the one cache-based progress of background jobs (roll jobs and import jobs)."""
import pytest

from core.progress import JobProgress, percent


@pytest.fixture
def live():
    live = JobProgress("testjob")
    yield live
    live.clear(1)


def test_report_read_clear(live):
    assert live.key(1) == "testjob:1:done"
    assert live.read(1) is None
    live.report(1, 3, 10)
    assert live.read(1) == (3, 10)
    live.clear(1)
    assert live.read(1) is None


def test_percent():
    assert percent(1, 3) == 33
    assert percent(5, 5) == 100
    assert percent(7, 5) == 100
    assert percent(5, 5, cap=99) == 99
    assert percent(0, 0) == 0
    assert percent(0, 0, finished=True) == 100


def test_both_kinds_of_job_share_it():
    from assessments.rolls import progress as roll_progress
    from districts.imports import jobs as import_jobs

    assert isinstance(roll_progress.LIVE, JobProgress) and isinstance(import_jobs.LIVE, JobProgress)
    assert roll_progress.cache_key(7) == "rolljob:7:done"
    assert import_jobs.progress_key(7) == "importjob:7:done"
