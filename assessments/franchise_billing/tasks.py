"""Thin Celery tasks over franchise billing. Safe to deliver twice: the services find their
natural keys (one invoice per franchise and fiscal year) and the work queue keeps one open flag
per kind and franchise."""
from __future__ import annotations

from datetime import date

from celery import shared_task
from django.utils import timezone

from assessments.franchise_billing import services
from assessments.franchise_billing.models import InvoiceRun
from core.fiscal import fiscal_year_of


def _today(on: str | None) -> date:
    return date.fromisoformat(on) if on else timezone.localdate()


@shared_task(name="assessments.franchise_billing.tasks.franchise_invoices_generate_task", acks_late=True,
             autoretry_for=(Exception,), retry_backoff=60, max_retries=3)
def franchise_invoices_generate_task(fiscal_year: int | None = None, on: str | None = None) -> dict:
    """FRA-3: the fiscal year's tariff invoices. Without a year (beat, June 1): the next fiscal
    year, the one that starts on July 1."""
    fy = int(fiscal_year) if fiscal_year else fiscal_year_of(_today(on)) + 1
    run = services.franchise_invoices_generate(fiscal_year=fy, actor=None, trigger=InvoiceRun.Trigger.TASK)
    return {"fiscal_year": fy, "run": run.pk, "created": run.created_count, "total": str(run.created_total)}


@shared_task(name="assessments.franchise_billing.tasks.franchise_invoices_catch_up_task", acks_late=True,
             autoretry_for=(Exception,), retry_backoff=60, max_retries=3)
def franchise_invoices_catch_up_task(on: str | None = None) -> dict:
    """Daily: franchises issued during the current fiscal year get their pro rata invoice (FRA-3).
    A day that creates nothing leaves no run behind."""
    fy = fiscal_year_of(_today(on))
    run = services.franchise_invoices_generate(fiscal_year=fy, actor=None, trigger=InvoiceRun.Trigger.TASK,
                                               record_empty=False)
    return {"fiscal_year": fy, "run": run.pk, "created": run.created_count}


@shared_task(name="assessments.franchise_billing.tasks.franchise_arrears_flags_task", acks_late=True,
             autoretry_for=(Exception,), retry_backoff=60, max_retries=3)
def franchise_arrears_flags_task(on: str | None = None) -> dict:
    """Daily: FRA-8 arrears flags (oldest unpaid tariff due date + 6 months), with FRA-7 and FRA-10."""
    return services.franchise_arrears_flags_run(today=_today(on))
