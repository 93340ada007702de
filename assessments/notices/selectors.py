"""Reads about notices for staff pages, and the notification date other apps' clocks start from."""
from __future__ import annotations

from datetime import date

from django.db.models import Count, Q, QuerySet

from assessments.models import Receivable
from assessments.notices.models import MailingBatch, MailingMethod, Notice
from core.text import fold


def notification_date(notice: Notice) -> date | None:
    """The day the addressees are notified, which starts any statutory term that runs from it.

    Decision: a certified notice (TID-4, FRA-8) notifies on the delivery date of its return
    receipt; a regular-mail notice (SID-2 and the others) on the day it was mailed. A notice
    returned undelivered, replaced by a correction, or not mailed yet has notified nobody (None).
    """
    if notice.status == Notice.Status.REPLACED or notice.returned_on:
        return None
    if notice.method == MailingMethod.CERTIFIED_RR:
        return notice.delivered_on
    return notice.mailed_on


def notices_notified(*, on_or_before: date, source_type: str = "") -> QuerySet[Notice]:
    """Current notices whose notification date is on or before `on_or_before` (see notification_date)."""
    qs = Notice.objects.exclude(status=Notice.Status.REPLACED).filter(returned_on__isnull=True).filter(
        Q(method=MailingMethod.CERTIFIED_RR, delivered_on__lte=on_or_before)
        | Q(method=MailingMethod.REGULAR, mailed_on__lte=on_or_before))
    return qs.filter(source_type=source_type) if source_type else qs


def current_notice(receivable: Receivable) -> Notice | None:
    return Notice.objects.filter(receivable=receivable).exclude(status=Notice.Status.REPLACED).first()


def notice_list(*, query: str = "", status: str = "", source_type: str = "") -> QuerySet[Notice]:
    """Notices by number, payment reference, cadastre or addressee name (accents ignored)."""
    qs = Notice.objects.select_related("receivable", "batch", "document").order_by("-year", "-seq", "-revision")
    if status:
        qs = qs.filter(status=status)
    if source_type:
        qs = qs.filter(source_type=source_type)
    query = (query or "").strip()
    if query:
        terms = Q(number__iexact=query.split("-C")[0]) | Q(receivable__payment_reference=query) | Q(
            sort_key__startswith=query)
        for word in fold(query).split():
            terms |= Q(addressee_rows__party__search_text__contains=word)
        qs = qs.filter(terms).distinct()
    return qs


def notice_detail(pk) -> Notice:
    return (Notice.objects.select_related("receivable", "receivable__account", "receivable__account__parcel",
                                          "receivable__account__party", "receivable__office", "receivable__fund",
                                          "document", "batch", "replaces", "created_by")
            .get(pk=pk))


def notice_history(notice: Notice) -> list[Notice]:
    """Every notice of the same receivable, oldest first (the original and its corrections)."""
    return list(Notice.objects.filter(receivable_id=notice.receivable_id).order_by("revision", "pk"))


def batch_list() -> QuerySet[MailingBatch]:
    return MailingBatch.objects.select_related("created_by").order_by("-created_at", "-id")


def batch_progress(batch: MailingBatch) -> dict:
    counts = dict(batch.notices.values_list("status").annotate(n=Count("pk")).order_by())
    return {"total": sum(counts.values()), "mailed": sum(counts.get(s, 0) for s in (
        Notice.Status.MAILED, Notice.Status.DELIVERED, Notice.Status.RETURNED)),
        "delivered": counts.get(Notice.Status.DELIVERED, 0), "returned": counts.get(Notice.Status.RETURNED, 0),
        "replaced": counts.get(Notice.Status.REPLACED, 0)}


def source_label(source_type: str) -> str:
    """A billing run as people name it: "Distrito de Riego de la Costa Sur — año fiscal 2027"."""
    from django.utils.translation import gettext as _

    from districts.models import District

    rec = Receivable.objects.filter(source_type=source_type).order_by("pk").first()
    if rec is None:
        return source_type
    breakdown = rec.breakdown or {}
    fy, code = breakdown.get("fiscal_year"), breakdown.get("district")
    if code:
        district = District.objects.filter(code=code).first()
        name = district.name if district else code
        return (f"{name} — " + _("año fiscal %(fy)s") % {"fy": fy}) if fy else name
    return rec.description.split(" — ")[0][:200]


def source_summaries(limit: int = 30) -> list[dict]:
    """Billing runs with their charges, notices issued, notices in a batch: what is left to do."""
    charges = dict(Receivable.objects.values_list("source_type").annotate(n=Count("pk")).order_by())
    current = Notice.objects.exclude(status=Notice.Status.REPLACED)
    issued = dict(current.values_list("source_type").annotate(n=Count("pk")).order_by())
    rendered = dict(current.filter(document__isnull=False).values_list("source_type").annotate(n=Count("pk"))
                    .order_by())
    batched = dict(current.filter(batch__isnull=False).values_list("source_type").annotate(n=Count("pk")).order_by())
    rows = []
    for source_type, n in sorted(charges.items(), key=lambda kv: kv[0], reverse=True)[:limit]:
        rows.append({"source_type": source_type, "label": source_label(source_type), "charges": n,
                     "issued": issued.get(source_type, 0),
                     "rendered": rendered.get(source_type, 0), "batched": batched.get(source_type, 0)})
    return rows
