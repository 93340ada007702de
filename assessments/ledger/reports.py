"""Collections by fund for a period (FRA-4, SID-3 and TID-5 figures start from here)."""
from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db.models import Count, Sum
from django.utils.translation import gettext as _

from assessments.models import Fund, LedgerEntry
from core.money import ZERO, sum_cents
from core.spreadsheets import csv_writer

COLLECTION_KINDS = (LedgerEntry.Kind.PAYMENT, LedgerEntry.Kind.CREDIT_APPLIED, LedgerEntry.Kind.REVERSAL)


@dataclass(frozen=True)
class FundCollections:
    fund_code: str
    fund_name: str
    principal: Decimal
    surcharge: Decimal
    entries: int

    @property
    def total(self) -> Decimal:
        return self.principal + self.surcharge


@dataclass(frozen=True)
class CollectionsReport:
    start: date
    end: date
    funds: list[FundCollections]
    unapplied_credit: Decimal    # money received and not yet applied to any charge (net of refunds)
    refunds: Decimal

    @property
    def total(self) -> Decimal:
        """Money received in the period, net of returned payments."""
        return sum((f.total for f in self.funds), ZERO) + self.unapplied_credit

    @property
    def net(self) -> Decimal:
        """Received less credits refunded."""
        return self.total - self.refunds


def collections_by_fund(*, start: date, end: date) -> CollectionsReport:
    """What each fund collected between `start` and `end` (effective dates, inclusive): payments
    and credit applied to its charges, less returned payments, split into principal and surcharge."""
    period = {"effective_date__gte": start, "effective_date__lte": end}
    fund_rows = (LedgerEntry.objects.filter(installment__isnull=False, kind__in=COLLECTION_KINDS, **period)
                 .exclude(kind=LedgerEntry.Kind.REVERSAL, reverses__kind__in=[LedgerEntry.Kind.CHARGE,
                                                                             LedgerEntry.Kind.SURCHARGE])
                 .values("receivable__fund_id", "component").annotate(total=Sum("amount"), n=Count("id")))
    sums: dict[int, dict] = {}
    for row in fund_rows:
        d = sums.setdefault(row["receivable__fund_id"], {"PRINCIPAL": ZERO, "SURCHARGE": ZERO, "n": 0})
        d[row["component"]] -= sum_cents(row["total"])
        d["n"] += row["n"]
    funds = {f.pk: f for f in Fund.objects.filter(pk__in=list(sums))}
    out = [FundCollections(funds[k].code, funds[k].name, v["PRINCIPAL"], v["SURCHARGE"], v["n"])
           for k, v in sorted(sums.items(), key=lambda kv: funds[kv[0]].name)]
    pool = sum_cents(LedgerEntry.objects.filter(installment__isnull=True, **period)
                     .exclude(kind=LedgerEntry.Kind.ADJUSTMENT).aggregate(t=Sum("amount"))["t"])
    refunds = sum_cents(LedgerEntry.objects.filter(kind=LedgerEntry.Kind.REFUND, **period)
                        .aggregate(t=Sum("amount"))["t"])
    # The pool's entries: CREDIT (−), CREDIT_APPLIED (+, now counted in a fund), REFUND (+), reversals.
    return CollectionsReport(start=start, end=end, funds=out, unapplied_credit=-(pool - refunds), refunds=refunds)


def collections_csv(report: CollectionsReport) -> str:
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(["fund_code", "fund", "principal", "surcharge", "total", "start", "end"])
    for f in report.funds:
        w.writerow([f.fund_code, f.fund_name, f.principal, f.surcharge, f.total, report.start, report.end])
    w.writerow(["", _("Crédito no aplicado"), report.unapplied_credit, "0.00", report.unapplied_credit,
                report.start, report.end])
    w.writerow(["", _("Reembolsos"), -report.refunds, "0.00", -report.refunds, report.start, report.end])
    w.writerow(["", _("Total neto"), "", "", report.net, report.start, report.end])
    return buf.getvalue()
