"""Reads of the money core for staff pages and the API."""
from __future__ import annotations

from decimal import Decimal

from django.db.models import Q, QuerySet, Sum

from assessments.models import Account, Adjustment, BankFile, CashierBatch, LedgerEntry, Payment, Receivable
from core.money import sum_cents
from core.text import fold
from districts.reference import normalize_cadastre


def account_search(query: str) -> QuerySet[Account]:
    """Accounts by cadastre, payment reference or holder/owner name (accents ignored)."""
    qs = Account.objects.select_related("parcel", "parcel__municipality", "party").order_by("id")
    query = (query or "").strip()
    if not query:
        return qs.none()
    folded = fold(query)
    by_ref = Receivable.objects.filter(payment_reference=query).values("account_id")
    # A cadastre typed without dashes ("37100111134") is looked up as the register writes it.
    terms = (Q(pk__in=by_ref) | Q(parcel__cadastre__startswith=query)
             | Q(parcel__cadastre__startswith=normalize_cadastre(query)))
    for word in folded.split():
        terms |= Q(party__search_text__contains=word)
    owner_hits = Q()
    for word in folded.split():
        owner_hits &= Q(parcel__ownerships__party__search_text__contains=word,
                        parcel__ownerships__end_date__isnull=True)
    return qs.filter(terms | owner_hits).distinct()


def account_detail(pk: int) -> Account:
    return Account.objects.select_related("parcel", "parcel__municipality", "party").get(pk=pk)


def account_payments(account: Account):
    return (Payment.objects.filter(account=account).select_related("batch", "recorded_by")
            .order_by("-paid_on", "-id"))


def open_batch_for(user, business_date) -> CashierBatch | None:
    return CashierBatch.objects.filter(cashier=user, business_date=business_date,
                                       status=CashierBatch.Status.OPEN).first()


def batch_payments(batch: CashierBatch):
    return batch.payments.select_related("account", "account__parcel", "account__party").order_by("id")


def recent_batches(limit: int = 20):
    return CashierBatch.objects.select_related("cashier").order_by("-business_date", "-id")[:limit]


def pending_adjustments():
    return (Adjustment.objects.filter(status=Adjustment.Status.PENDING)
            .select_related("account", "account__parcel", "account__party", "receivable", "installment",
                            "requested_by").order_by("created_at", "id"))


def decided_adjustments(limit: int = 20):
    return (Adjustment.objects.exclude(status=Adjustment.Status.PENDING)
            .select_related("account", "requested_by", "decided_by").order_by("-decided_at", "-id")[:limit])


def recent_bank_files(limit: int = 20):
    return BankFile.objects.select_related("uploaded_by").order_by("-uploaded_at", "-id")[:limit]


def receivables_for(*, account_id=None, status=None, fund=None) -> QuerySet[Receivable]:
    qs = Receivable.objects.select_related("fund", "office", "account").prefetch_related("installments")
    if account_id:
        qs = qs.filter(account_id=account_id)
    if status:
        qs = qs.filter(status=status)
    if fund:
        qs = qs.filter(fund__code=fund)
    return qs.order_by("issued_on", "id")


def principal_open_on(receivable_ids, on) -> dict[str, Decimal]:
    """{receivable id (text): principal still open on `on`} — the ledger's sum of the PRINCIPAL
    entries effective by that day (charges, payments, credits applied, adjustments, write-offs,
    reversals of returned checks). What the charge's lien secures (LIEN-4) is derived from it."""
    ids = sorted({int(i) for i in receivable_ids if str(i).isdigit()})
    out: dict[str, Decimal] = {}
    for i in range(0, len(ids), 900):
        rows = (LedgerEntry.objects.filter(receivable_id__in=ids[i:i + 900], component=LedgerEntry.Component.PRINCIPAL,
                                           effective_date__lte=on)
                .order_by().values("receivable_id").annotate(t=Sum("amount")))
        out.update({str(r["receivable_id"]): sum_cents(r["t"]) for r in rows})
    return out
