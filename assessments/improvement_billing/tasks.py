"""Thin Celery tasks over improvement-district billing. Safe to deliver twice: billing finds each
receivable by its source key and the feed takes each ledger entry once."""
from __future__ import annotations

from datetime import date

from celery import shared_task
from django.core.exceptions import ValidationError
from django.utils import timezone

from assessments.improvement_billing import rules, services
from assessments.improvement_billing.models import BillingRun
from core.fiscal import fiscal_year_of


def _today(on: str | None) -> date:
    return date.fromisoformat(on) if on else timezone.localdate()


@shared_task(name="assessments.improvement_billing.tasks.improvement_bill_year_task", acks_late=True,
             autoretry_for=(ConnectionError,), retry_backoff=60, max_retries=3)
def improvement_bill_year_task(fiscal_year: int | None = None, on: str | None = None) -> dict:
    """Daily at 00:45: from June 1 next fiscal year (due from July 1), otherwise the current one,
    for every district whose term covers it. Districts outside their term are never billed here."""
    today = _today(on)
    fy = int(fiscal_year) if fiscal_year else rules.next_fiscal_year_to_bill(today, fiscal_year_of(today))
    out = {"fiscal_year": fy, "districts": {}}
    for district in services.districts_to_bill(fy, today=today):
        try:
            run = services.improvement_bill(district=district, fiscal_year=fy, actor=None, today=today,
                                            trigger=BillingRun.Trigger.TASK)
        except ValidationError as exc:
            out["districts"][district.code] = {"error": "; ".join(exc.messages)}
            continue
        out["districts"][district.code] = {"run": run.pk, "created": run.created_now,
                                           "total": str(run.created_total_now)}
    return out


@shared_task(name="assessments.improvement_billing.tasks.improvement_collections_feed_task", acks_late=True,
             autoretry_for=(ConnectionError,), retry_backoff=60, max_retries=3)
def improvement_collections_feed_task(on: str | None = None) -> dict:
    """Daily: collections on benefit charges into SID-3 batches and TID-5 deposits (idempotent)."""
    return services.collections_feed(on=_today(on))
