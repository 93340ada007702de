"""Receipts (*recibos*) as issued PDF documents through core's document service."""
from __future__ import annotations

import re
from decimal import Decimal

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from assessments.models import LedgerEntry, Payment
from core.money import sum_cents


def receipt_document(payment: Payment):
    """The receipt already issued for `payment`, if any."""
    from core.models import Document

    return (Document.objects.filter(kind=Document.Kind.RECEIPT, object_id=payment.pk,
                                    content_type=ContentType.objects.get_for_model(Payment))
            .order_by("-created_at").first())


SURCHARGE_RULES = {"LAJ-7": "LAJ-7", "IRR-9": "IRR-9", "RESOLUTION": "SID-1"}


RULE_ID = re.compile(r"\b(?:IRR|LAJ|FRA|SID|TID|LIEN)-\d+[a-z]?\b")


def receipt_rule(receivable, installment, *, surcharge: bool) -> str:
    """The rule a receipt line is paid under: for a surcharge the rule that imposes it; else the
    charge's rule, or the rule of the roll line of that installment's due date."""
    if surcharge:
        return SURCHARGE_RULES.get(receivable.surcharge_rule, "")
    breakdown = receivable.breakdown or {}
    found = RULE_ID.search(str(breakdown.get("rule") or ""))
    if found:
        return found.group(0)
    due = installment.due_date.isoformat() if installment is not None else ""
    for line in breakdown.get("lines") or ():
        if isinstance(line, dict) and line.get("due_date") == due:
            found = RULE_ID.search(str(line.get("rule") or ""))
            if found:
                return found.group(0)
    return ""


def lajas_parts(breakdown: dict) -> dict | None:
    """LAJ-3/LAJ-4: a Lajas contribution's gross, the water-right credit and the net, as the statute
    has them stated (the notice already does; the receipt says the same)."""
    if not {"gross", "credit", "net"} <= breakdown.keys():
        return None
    try:
        return {k: Decimal(str(breakdown[k])) for k in ("gross", "credit", "net")}
    except ArithmeticError:
        return None


def receipt_context(payment: Payment) -> dict:
    entries = list(payment.entries.exclude(kind=LedgerEntry.Kind.REVERSAL)
                   .select_related("receivable", "receivable__office", "installment").order_by("id"))
    lines = []
    for e in entries:
        if e.kind == LedgerEntry.Kind.SURCHARGE:
            continue
        rule, lajas = "", None
        if e.component == LedgerEntry.Component.CREDIT:
            label = _("Crédito a favor de la cuenta") if e.amount < 0 else _("Saldo no asignado")
        else:
            surcharge = e.component == LedgerEntry.Component.SURCHARGE
            what = _("Recargo") if surcharge else _("Principal")
            label = f"{e.receivable.payment_reference} · {e.receivable.description} · {_('plazo')} " \
                    f"{e.installment.seq} · {what}"
            rule = receipt_rule(e.receivable, e.installment, surcharge=surcharge)
            if not surcharge:
                lajas = lajas_parts(e.receivable.breakdown or {})
        lines.append({"description": label, "amount": -e.amount, "rule": rule, "lajas": lajas})
    offices = [e.receivable.office for e in entries if e.receivable_id]
    account = payment.account
    owners = []
    if account.parcel_id:
        # The owners of record on the day of payment: a receipt printed later (an owner's first
        # download) must not name whoever bought the parcel since.
        owners = [o.party for o in account.parcel.ownerships.filter(start_date__lte=payment.paid_on)
                  .filter(Q(end_date__isnull=True) | Q(end_date__gt=payment.paid_on)).select_related("party")]
    balance_after = (LedgerEntry.objects.filter(account=account, posted_at__lte=max(
        (e.posted_at for e in entries), default=timezone.now())).aggregate(t=Sum("amount"))["t"])
    balance_after = sum_cents(balance_after)
    return {"payment": payment, "account": account, "lines": lines, "total": payment.amount,
            "office": offices[0] if offices else None, "owners": owners, "balance_after": balance_after,
            "breakdowns": {e.receivable.pk: e.receivable.breakdown for e in entries if e.receivable_id}}


@transaction.atomic
def receipt_issue(*, payment: Payment, actor, language: str = "es"):
    """Issue the receipt PDF once (a second call returns the same document). The payment row is
    locked, so a cashier's print and an owner's first download at the same moment issue one."""
    from core.documents.services import document_render

    Payment.objects.select_for_update().filter(pk=payment.pk).first()
    found = receipt_document(payment)
    if found is not None:
        return found
    context = receipt_context(payment)
    owner_ids = [p.pk for p in context["owners"]] + ([payment.payer_party_id] if payment.payer_party_id else [])
    return document_render(template_name="assessments/ledger/receipt_pdf.html", context=context, kind="RECEIPT",
                           title=_("Recibo de pago %(n)s") % {"n": payment.receipt_number},
                           owner_party_ids=owner_ids, related=payment, actor=actor, language=language)


@transaction.atomic
def payoff_certificate_issue(*, account, as_of, actor, language: str = "es"):
    """The *certificación de deuda* as of a date, as an issued PDF with its verification code."""
    from assessments.ledger.statements import payoff_certificate
    from core.documents.services import document_render

    context = payoff_certificate(account=account, as_of=as_of)
    owner_ids = [o.party_id for o in context["owners"]] + ([account.party_id] if account.party_id else [])
    return document_render(template_name="assessments/ledger/certificate_pdf.html", context=context,
                           kind="CERTIFICATE", title=_("Certificación de deuda al %(d)s") % {
                               "d": as_of.strftime("%d/%m/%Y")},
                           owner_party_ids=owner_ids, related=account, actor=actor, language=language)


def receipt_on_request(*, payment: Payment, actor, language: str = "es"):
    """The receipt an owner asks for: the one issued, or issued now for a posted payment.

    Receipts are otherwise issued when the cashier prints them; an owner paying by bank file or
    API gets theirs on first download. The payment row is locked so two first downloads at once
    issue one receipt, not two. A returned payment without a receipt gets none (None).
    """
    found = receipt_document(payment)
    if found is not None:
        return found
    with transaction.atomic():
        current = Payment.objects.select_for_update().get(pk=payment.pk)   # returned meanwhile? read under the lock
        if current.status != Payment.Status.POSTED:
            return receipt_document(current)
        return receipt_issue(payment=current, actor=actor, language=language)

