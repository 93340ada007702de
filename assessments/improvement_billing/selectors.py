"""Reads of improvement billing for the staff pages and the API: runs by district with totals, a
run's charges with what is open, their notices and where their collections went."""
from __future__ import annotations

from decimal import Decimal

from django.db.models import QuerySet, Sum

from assessments.improvement_billing.models import BillingRun, CollectionFeed, ImprovementCharge
from assessments.models import LedgerEntry
from assessments.notices.models import MailingBatch, Notice
from core.money import CENT, ZERO
from districts.models import District


def improvement_districts() -> QuerySet[District]:
    return District.objects.filter(kind__in=[District.Kind.SID, District.Kind.TID]).order_by("kind", "name")


def runs(district: District | None = None) -> QuerySet[BillingRun]:
    qs = BillingRun.objects.select_related("district", "run_by").order_by("district__name", "-fiscal_year")
    return qs.filter(district=district) if district is not None else qs


def open_amounts(receivable_ids) -> dict[int, Decimal]:
    """What is still owed on each receivable (principal and surcharge)."""
    rows = (LedgerEntry.objects.filter(receivable_id__in=list(receivable_ids)).values("receivable_id")
            .annotate(t=Sum("amount")).order_by())
    return {r["receivable_id"]: (r["t"] or ZERO).quantize(CENT) for r in rows}


def charges(run: BillingRun) -> QuerySet[ImprovementCharge]:
    return (ImprovementCharge.objects.filter(run=run)
            .select_related("receivable", "receivable__office", "receivable__account", "parcel", "resolution",
                            "ordinance")
            .prefetch_related("receivable__installments").order_by("parcel__cadastre", "pk"))


def run_page(run: BillingRun) -> dict:
    """A run with each charge (installments, open amount, current notice), the totals — billed,
    collected, open — the mailing batches of its notices and the SID-3 batches / TID-5 deposits
    its collections fed."""
    rows = list(charges(run))
    ids = [c.receivable_id for c in rows]
    open_by = open_amounts(ids)
    notices = {n.receivable_id: n for n in Notice.objects.filter(receivable_id__in=ids)
               .exclude(status=Notice.Status.REPLACED).select_related("document")}
    lines = [{"charge": c, "receivable": c.receivable, "installments": list(c.receivable.installments.all()),
              "open": open_by.get(c.receivable_id, ZERO), "notice": notices.get(c.receivable_id)} for c in rows]
    billed = sum((c.receivable.amount for c in rows), ZERO)
    open_total = sum((line["open"] for line in lines), ZERO)
    feeds = CollectionFeed.objects.filter(charge__run=run)
    fed = feeds.aggregate(t=Sum("amount"))["t"] or ZERO
    batches = sorted({f.sid_batch for f in feeds.select_related("sid_batch") if f.sid_batch_id},
                     key=lambda b: (b.received_on, b.pk))
    deposits = sorted({f.tid_entry for f in feeds.select_related("tid_entry") if f.tid_entry_id},
                      key=lambda e: (e.entry_date, e.pk))
    return {
        "run": run, "lines": lines, "billed": billed, "open": open_total, "collected": billed - open_total,
        "fed": fed, "notices_count": len(notices),
        "mailing_batches": list(MailingBatch.objects.filter(source_type=run.source_type)),
        "sid_batches": batches, "tid_deposits": deposits,
    }


def district_summary(district: District) -> list[dict]:
    """Each run of a district with its billed, open and collected totals (newest year first)."""
    out = []
    for run in runs(district):
        ids = list(run.charges.values_list("receivable_id", flat=True))
        open_total = sum(open_amounts(ids).values(), ZERO)
        out.append({"run": run, "open": open_total, "collected": run.charges_total - open_total})
    return out
