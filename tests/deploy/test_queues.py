"""Named queues: each task goes to the queue of its kind of work; CELERY_SINGLE_QUEUE overrides them all."""
import pytest

from config.celery import app

EXPECTED = {
    "assessments.rolls.tasks.roll_generate_task": "rolls",
    "assessments.rolls.tasks.roll_certify_task": "rolls",
    "assessments.rolls.tasks.roll_finalize_task": "rolls",
    "assessments.rolls.tasks.rolls_finalize_due_task": "rolls",
    "assessments.rolls.correction_tasks.roll_inclusion_task": "rolls",
    "assessments.rolls.correction_tasks.roll_water_reevaluate_task": "rolls",
    "assessments.notices.tasks.notices_issue_for_source_task": "notices",
    "assessments.notices.tasks.notices_issue_chunk_task": "notices",
    "assessments.notices.tasks.notices_batches_task": "notices",
    "assessments.notices.tasks.notices_issue_missing_task": "notices",
    "assessments.notices.tasks.mailing_batch_pdf_task": "notices",
    "core.tasks.refresh_work_queue": "deadlines",
    "core.tasks.send_daily_digests": "deadlines",
    "franchises.tasks.franchise_daily_flags": "deadlines",
    "liens.tasks.liens_rank_all_task": "deadlines",
    "assessments.franchise_billing.tasks.franchise_invoices_generate_task": "deadlines",
    "assessments.franchise_billing.tasks.franchise_invoices_catch_up_task": "deadlines",
    "assessments.franchise_billing.tasks.franchise_arrears_flags_task": "deadlines",
    "assessments.improvement_billing.tasks.improvement_bill_year_task": "deadlines",
    "assessments.improvement_billing.tasks.improvement_collections_feed_task": "deadlines",
    "liens.tasks.liens_rank_parcels_task": "default",
    "districts.tasks.import_job_apply_task": "default",
    "celery.backend_cleanup": "default",
}


def _queue(name: str, **options) -> str:
    return app.amqp.router.route(options, name)["queue"].name


@pytest.fixture(autouse=True)
def _no_single_queue(monkeypatch):
    monkeypatch.delenv("CELERY_SINGLE_QUEUE", raising=False)


def test_every_task_has_its_queue():
    app.loader.import_default_modules()
    ours = {n for n in app.tasks if not n.startswith(("celery.", "tests."))}  # tests may define their own
    assert ours == set(EXPECTED) - {"celery.backend_cleanup"}, "a new task: give it a queue here and in base.py"
    assert {name: _queue(name) for name in EXPECTED} == EXPECTED


def test_every_scheduled_task_has_a_consumed_queue(settings):
    queues = {"rolls", "notices", "deadlines", "default"}
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert _queue(entry["task"]) in queues


def test_single_queue_sends_everything_to_one_queue_but_an_explicit_queue_wins(monkeypatch):
    monkeypatch.setenv("CELERY_SINGLE_QUEUE", "test-only")
    assert {_queue(name) for name in EXPECTED} == {"test-only"}
    assert _queue("assessments.rolls.tasks.roll_certify_task", queue="explicit") == "explicit"
