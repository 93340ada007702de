"""Reads of franchise billing: a franchise's charges and debt, FRA-8's oldest unpaid due date,
FRA-4's collections by tariff class, the invoice runs."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db.models import Count, Min, QuerySet, Sum

from assessments.franchise_billing import rules
from assessments.franchise_billing.models import AaaTransfer, FranchiseCharge, InvoiceRun
from assessments.ledger.reports import COLLECTION_KINDS
from assessments.models import Installment, LedgerEntry
from assessments.rules.franchise import CLASSES, uncovered
from core.money import CENT, ZERO, sum_cents
from core.parameters import DatabaseParameters
from franchises.models import Franchise, MeterReading

FAMILY = "fra_tariffs"


# --- a franchise's charges ---------------------------------------------------------------------------

def charges_for(franchise: Franchise | int) -> QuerySet[FranchiseCharge]:
    """Tariff invoices and metered bills of a franchise, newest first, with their installments."""
    pk = franchise.pk if isinstance(franchise, Franchise) else franchise
    return (FranchiseCharge.objects.filter(franchise_id=pk)
            .select_related("receivable", "receivable__fund", "reading", "credit_entry", "adjusts__receivable")
            .prefetch_related("receivable__installments")
            .order_by("-fiscal_year", "kind", "-month", "-id"))


# "Still owed" in SQL: amounts are whole cents, so a positive sum is at least a cent; comparing with half a
# cent keeps SQLite's float sums (0.1 + 0.2 - 0.3 = 5.5e-17) from counting a paid installment as open.
HALF_CENT = Decimal("0.005")


def open_amounts(receivable_ids) -> dict[int, Decimal]:
    """What is still owed on each receivable (its entries' sum: principal and surcharge)."""
    rows = (LedgerEntry.objects.filter(receivable_id__in=list(receivable_ids)).values("receivable_id")
            .annotate(t=Sum("amount")))
    return {r["receivable_id"]: sum_cents(r["t"]) for r in rows}


def unbilled_readings(franchise: Franchise, on: date) -> list[MeterReading]:
    """Readings of ended months with no bill yet (metered franchises without exemption only)."""
    if not franchise.is_metered or franchise.exemption:
        return []
    return [r for r in MeterReading.objects.filter(franchise=franchise, bill__isnull=True).order_by("month")
            if rules.month_ended(r.month, on)]


def _owed_entries(*, on: date):
    """Ledger entries of franchise charges on installments due by `on`, as known on `on`."""
    return LedgerEntry.objects.filter(receivable__franchise_charge__isnull=False, installment__isnull=False,
                                      installment__due_date__lte=on, effective_date__lte=on)


def outstanding_debt(franchise: Franchise, on: date) -> Decimal | None:
    """FRA-7: the debt for water use of this franchise on `on`: what is unpaid on its tariff
    invoices and metered bills whose due date has come (amounts billed in advance and not yet
    due are not a debt).

    None when billing has never charged this franchise: billing cannot vouch for debts it never
    recorded (older ones, or a franchise not yet invoiced), so staff verify and type the amount,
    as before billing existed. This is the provider registered with
    franchises.selectors.register_debt_provider.
    """
    if not FranchiseCharge.objects.filter(franchise_id=franchise.pk).exists():
        return None
    total = (_owed_entries(on=on).filter(receivable__franchise_charge__franchise_id=franchise.pk)
             .aggregate(t=Sum("amount"))["t"] or ZERO)
    return max(total, ZERO).quantize(CENT)


def oldest_unpaid_due(*, on: date) -> dict[int, date]:
    """FRA-8: {franchise id: the due date of its oldest installment still unpaid on `on`}, over
    tariff invoices and metered bills. Franchises with nothing overdue are absent."""
    open_insts = (_owed_entries(on=on).values("installment_id").annotate(t=Sum("amount"))
                  .filter(t__gte=HALF_CENT).values("installment_id"))
    rows = (Installment.objects.filter(pk__in=open_insts)
            .values("receivable__franchise_charge__franchise_id").annotate(oldest=Min("due_date")))
    return {r["receivable__franchise_charge__franchise_id"]: r["oldest"] for r in rows}


# --- invoice runs ------------------------------------------------------------------------------------

def invoice_totals(fiscal_year: int) -> list[dict]:
    """Every tariff invoice of the fiscal year by class: count and amount (all runs)."""
    rows = (FranchiseCharge.objects.filter(kind=FranchiseCharge.Kind.TARIFF, fiscal_year=fiscal_year)
            .values("tariff_class").annotate(amount=Sum("receivable__amount"), count=Count("id")))
    by_class = {r["tariff_class"]: r for r in rows}
    return [{"tariff_class": code, "count": by_class[code]["count"], "amount": by_class[code]["amount"].quantize(CENT)}
            for code in CLASSES if code in by_class]


def runs_for(fiscal_year: int, limit: int = 10) -> QuerySet[InvoiceRun]:
    return InvoiceRun.objects.filter(fiscal_year=fiscal_year).select_related("run_by")[:limit]


def metered_totals(fiscal_year: int) -> dict:
    qs = FranchiseCharge.objects.filter(kind=FranchiseCharge.Kind.METERED, fiscal_year=fiscal_year)
    agg = qs.aggregate(amount=Sum("receivable__amount"), gallons=Sum("gallons"))
    return {"count": qs.count(), "amount": (agg["amount"] or ZERO).quantize(CENT), "gallons": agg["gallons"] or 0}


# --- FRA-4 -------------------------------------------------------------------------------------------

def collections_by_class(*, start: date, end: date) -> dict[str, Decimal]:
    """FRA-4: money collected on franchise charges between `start` and `end` (effective dates,
    inclusive) by the tariff class each charge was billed under: payments and credit applied,
    less returned payments (the same entries as assessments.ledger.reports.collections_by_fund)."""
    rows = (LedgerEntry.objects.filter(receivable__franchise_charge__isnull=False, installment__isnull=False,
                                       kind__in=COLLECTION_KINDS, effective_date__gte=start, effective_date__lte=end)
            .exclude(kind=LedgerEntry.Kind.REVERSAL, reverses__kind__in=[LedgerEntry.Kind.CHARGE,
                                                                         LedgerEntry.Kind.SURCHARGE])
            .values("receivable__franchise_charge__tariff_class").annotate(t=Sum("amount")))
    return {r["receivable__franchise_charge__tariff_class"]: (-r["t"]).quantize(CENT) for r in rows}


@dataclass(frozen=True)
class Fra4Report:
    period: rules.Period
    rows: list[rules.ClassShare]
    transfer_pct: Decimal
    transfer_classes: tuple[str, ...]
    parameters: str
    citation: str
    transfer: AaaTransfer | None = None

    @property
    def collected(self) -> Decimal:
        return sum((r.collected for r in self.rows), ZERO)

    @property
    def transferred(self) -> Decimal:
        return sum((r.transferred for r in self.rows), ZERO)

    @property
    def retained(self) -> Decimal:
        return sum((r.retained for r in self.rows), ZERO)

    @property
    def aaa_collected(self) -> Decimal:
        return sum((r.collected for r in self.rows if r.tariff_class in self.transfer_classes), ZERO)

    @property
    def difference(self) -> Decimal | None:
        """Recorded transfer vs what the period's collections say now (late entries), or None."""
        if self.transfer is None:
            return None
        return self.transferred - self.transfer.transferred


def fra4_report(period: rules.Period, *, params=None) -> Fra4Report:
    """FRA-4 for one period: collected, transferred and retained per class (parameters in force
    on the period's last day), with the transfer recorded for the period, if any."""
    version = (params or DatabaseParameters()).get(FAMILY, period.end)
    values = version.values
    pct = Decimal(str(values["aaa_transfer_pct"]))
    classes = tuple(values["aaa_transfer_classes"])
    rows = rules.aaa_shares(collections_by_class(start=period.start, end=period.end), classes=CLASSES,
                            transfer_pct=pct, transfer_classes=classes)
    transfer = AaaTransfer.objects.filter(period_label=period.label).select_related("recorded_by").first()
    return Fra4Report(period=period, rows=rows, transfer_pct=pct, transfer_classes=classes,
                      parameters=version.label(), citation=values.get("aaa_transfer_citation", ""),
                      transfer=transfer)


def overlapping_transfers(period: rules.Period) -> QuerySet[AaaTransfer]:
    return AaaTransfer.objects.filter(period_start__lte=period.end, period_end__gte=period.start)


def recent_transfers(limit: int = 24) -> QuerySet[AaaTransfer]:
    return AaaTransfer.objects.select_related("recorded_by").order_by("-period_start", "-id")[:limit]


def charge_summary(franchise: Franchise, on: date) -> dict:
    """For the franchise page's card: the latest charges, what is open, the debt due and FRA-8's start."""
    charges = list(charges_for(franchise)[:6])
    open_by = open_amounts(c.receivable_id for c in charges)
    rows = [{"charge": c, "open": open_by.get(c.receivable_id, ZERO)} for c in charges]
    totals = (LedgerEntry.objects.filter(receivable__franchise_charge__franchise_id=franchise.pk)
              .aggregate(t=Sum("amount"))["t"] or ZERO)
    oldest = (Installment.objects.filter(receivable__franchise_charge__franchise_id=franchise.pk,
                                         due_date__lte=on)
              .filter(pk__in=_owed_entries(on=on).values("installment_id").annotate(t=Sum("amount"))
                      .filter(t__gte=HALF_CENT).values("installment_id"))
              .aggregate(d=Min("due_date"))["d"])
    return {"rows": rows, "open_total": sum_cents(totals), "debt": outstanding_debt(franchise, on),
            "oldest_unpaid_due": oldest, "count": FranchiseCharge.objects.filter(franchise=franchise).count()}


def fy_charges(fiscal_year: int) -> QuerySet[FranchiseCharge]:
    return (FranchiseCharge.objects.filter(fiscal_year=fiscal_year, kind=FranchiseCharge.Kind.TARIFF)
            .select_related("franchise", "franchise__holder", "receivable").order_by("franchise__number"))



# --- the days a franchise chain has billed (FRA-3 Decision) ----------------------------------------------

DAY_BILLING_CAUSES = ("", FranchiseCharge.Cause.TERM_EXTENDED)


def chain_ids(franchise: Franchise | int) -> list[int]:
    """The franchise, the franchises it renews (its predecessors) and those that renew it."""
    pk = franchise.pk if isinstance(franchise, Franchise) else franchise
    links = dict(Franchise.objects.filter(predecessor__isnull=False).values_list("pk", "predecessor_id"))
    root, seen = pk, {pk}
    while links.get(root) and links[root] not in seen:
        root = links[root]
        seen.add(root)
    chain, todo = {root}, [root]
    while todo:
        parent = todo.pop()
        for child, pred in links.items():
            if pred == parent and child not in chain:
                chain.add(child)
                todo.append(child)
    return sorted(chain)


def billed_periods(franchise_ids, fiscal_year: int) -> dict[int, list[tuple[date, date]]]:
    """{franchise id: the periods of `fiscal_year` its tariff invoices and term supplements billed,
    net of the days a shortened term credited back}. Volume supplements and credits re-price
    days already billed and bill none."""
    billed: dict[int, list[tuple[date, date]]] = {}
    credited: dict[int, list[tuple[date, date]]] = {}
    for c in FranchiseCharge.objects.filter(franchise_id__in=list(franchise_ids), fiscal_year=fiscal_year,
                                            period_start__isnull=False).exclude(kind=FranchiseCharge.Kind.METERED):
        period = (c.period_start, c.period_end)
        if c.kind in (FranchiseCharge.Kind.TARIFF, FranchiseCharge.Kind.SUPPLEMENT) and c.cause in DAY_BILLING_CAUSES:
            billed.setdefault(c.franchise_id, []).append(period)
        elif c.kind == FranchiseCharge.Kind.CREDIT and c.cause == FranchiseCharge.Cause.TERM_SHORTENED:
            credited.setdefault(c.franchise_id, []).append(period)
    return {fid: sorted(g for p in periods for g in uncovered(p, credited.get(fid, [])))
            for fid, periods in billed.items()}


def chain_invoices(franchise: Franchise | int) -> QuerySet[FranchiseCharge]:
    """Every tariff invoice, supplement and credit of the franchise's chain (renewals included),
    by period: what the invoices API and the overlap check read."""
    return (FranchiseCharge.objects.filter(franchise_id__in=chain_ids(franchise))
            .exclude(kind=FranchiseCharge.Kind.METERED).select_related("franchise", "receivable")
            .order_by("period_start", "id"))


def bills_days(charge: FranchiseCharge) -> bool:
    """An invoice, a metered bill or a term supplement bills days; a volume supplement or credit
    re-prices days its invoice billed, and a shortened-term credit gives days back."""
    if charge.kind in (FranchiseCharge.Kind.TARIFF, FranchiseCharge.Kind.METERED):
        return True
    return charge.kind == FranchiseCharge.Kind.SUPPLEMENT and charge.cause == FranchiseCharge.Cause.TERM_EXTENDED
