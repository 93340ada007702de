"""A roll's charges in the money core (IRR-9, LAJ-6) and its liens (IRR-10, LAJ-6, LIEN-1).

Billing happens when the roll is certified, so notices carry their payment references and reach
owners before the July 1 due date; the liens are constituted when the roll is finalized (LIEN-1:
"for a roll's liens, the day the roll is finalized"). Each line with something to pay becomes one
charge document with its installments; before a Lajas parcel is liable (LAJ-5), the water it used
is sold by the acre-foot and billed the same way. Source keys make both steps idempotent.
"""
from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from django.db.models import Sum

from assessments.ledger.receivables import ReceivableRow, accounts_for_parcels, receivables_bulk_create
from assessments.models import Fund, LedgerEntry, Receivable
from assessments.rolls.models import Roll, RollLine
from assessments.rules import lajas
from core.parameters import DatabaseParameters
from districts.models import Membership, WaterDelivery
from liens import services as lien_services

CHUNK = 5000
FUNDS = {
    "IRRIGATION": ("riego-bonos", "Fondo de Riego — distritos financiados con bonos", "IRRIGATION", True,
                   "Ley de Riego Público, IRR-10"),
    "LAJAS": ("lajas-explotacion", "Fondo de Explotación — Sistema de Riego del Valle de Lajas", "LAJAS", False,
              "Ley del Sistema de Riego del Valle de Lajas, LAJ-1, LAJ-6"),
}


def fund_for(district) -> Fund:
    code, name, lien_kind, infrastructure, citation = FUNDS[district.kind]
    return Fund.objects.get_or_create(code=code, defaults={
        "name": name, "lien_kind": lien_kind, "finances_public_infrastructure": infrastructure,
        "citation": citation})[0]


def source_type(roll: Roll) -> str:
    return f"rolls.Roll:{roll.pk}"


def _parameter_refs(roll: Roll) -> list:
    """Each parameter version the roll used, without its citation text: the citations stay on the
    roll (`breakdown["roll"]`), so 100,000 charges do not each carry a kilobyte of the same text."""
    return [{k: p[k] for k in ("family", "version", "effective_from") if k in p} if isinstance(p, dict) else p
            for p in roll.parameters]


def _row(roll: Roll, line: RollLine, account_id: int, fund: Fund, on: date) -> ReceivableRow | None:
    payable = [(date.fromisoformat(d["due_date"]), Decimal(d["amount"])) for d in line.detail
               if Decimal(d["amount"]) > 0]
    if not payable:
        return None
    irrigation = roll.is_irrigation
    breakdown = {"roll": roll.pk, "district": roll.district.code, "fiscal_year": roll.fiscal_year,
                 "cadastre": line.cadastre, "weight": str(line.weight), "lines": line.detail,
                 "parameters": _parameter_refs(roll)}
    if not irrigation:   # LAJ-4: receipts and notices show contribution, credit and net
        breakdown.update(gross=str(line.share), credit=str(line.credit), net=str(line.total))
    else:
        breakdown.update(share=str(line.share), total=str(line.total))
    return ReceivableRow(
        account_id=account_id, fund_id=fund.pk, office_id=roll.district.collecting_office_id or roll.district.office_id,
        kind=Receivable.Kind.ROLL_LINE, source_type=source_type(roll), source_id=line.cadastre,
        # The lien comes at finalization (register_roll_liens), not with the charge.
        installments=tuple(payable), issued_on=on, breakdown=breakdown, creates_lien=False,
        description=f"{'Cuota de riego' if irrigation else 'Contribución O&M Valle de Lajas'} "
                    f"FY{roll.fiscal_year} — {line.cadastre}",
        surcharge_rule=Receivable.SurchargeRule.IRR9 if irrigation else Receivable.SurchargeRule.LAJ7)


def billable_lines(roll: Roll):
    """The lines that become charges: something to pay."""
    return RollLine.objects.filter(roll=roll, total__gt=0)


def bill_roll(*, roll: Roll, actor, on: date, progress=None) -> int:
    """Post the certified roll's charges; returns how many receivables were created (0 on a second run).
    `progress(done)` is called after each batch with the number of lines billed so far."""
    fund = fund_for(roll.district)
    created = done = 0
    lines = billable_lines(roll).order_by("cadastre")
    batch: list[RollLine] = []
    for line in lines.iterator(chunk_size=CHUNK):
        batch.append(line)
        if len(batch) >= CHUNK:
            created += _bill_batch(roll, batch, fund, actor, on)
            done += len(batch)
            batch = []
            if progress is not None:
                progress(done)
    if batch:
        created += _bill_batch(roll, batch, fund, actor, on)
        done += len(batch)
        if progress is not None:
            progress(done)
    if not roll.is_irrigation:
        created += bill_water_sales(roll=roll, actor=actor, on=on)
    if roll.billed_at is None:
        roll.billed_at = roll.certified_at
        Roll.objects.filter(pk=roll.pk).update(billed_at=roll.billed_at)
    return created


def open_roll_receivables(roll: Roll):
    """The roll's charges still open: each constitutes its lien when the roll is finalized."""
    return Receivable.objects.filter(source_type=source_type(roll), status=Receivable.Status.OPEN)


def register_roll_liens(*, roll: Roll, actor, on: date, progress=None) -> list[int]:
    """LIEN-1 on finalization: each open charge of the roll constitutes its lien on the land, dated `on`.

    A charge already paid in full before July 1 constitutes none. Returns the parcels whose ranking
    must be recomputed (the caller queues that after commit). `progress(done)` is told after each
    batch of charges prepared, and once more when their liens are registered.
    """
    fund = fund_for(roll.district)
    receivables = open_roll_receivables(roll).select_related("account").order_by("pk")
    rows, ids, parcels = [], [], []
    for rec in receivables.iterator(chunk_size=CHUNK):
        rows.append({"parcel_id": rec.account.parcel_id, "kind": fund.lien_kind, "amount": rec.amount,
                     "constituted_on": on, "origin_type": Receivable.LIEN_ORIGIN, "origin_id": str(rec.pk),
                     "origin_label": f"{rec.payment_reference} {rec.description}"[:200],
                     "finances_public_infrastructure": fund.finances_public_infrastructure})
        ids.append(rec.pk)
        parcels.append(rec.account.parcel_id)
        if progress is not None and len(ids) % CHUNK == 0:
            progress(len(ids))
    lien_services.lien_register_bulk(rows=rows, actor=actor)
    # From now on full payment satisfies the lien and a returned payment reinstates it.
    for i in range(0, len(ids), CHUNK):
        Receivable.objects.filter(pk__in=ids[i:i + CHUNK]).update(creates_lien=True)
    if progress is not None:
        progress(len(ids))
    return parcels


def _bill_batch(roll, lines, fund, actor, on) -> int:
    accounts = accounts_for_parcels(line.parcel_id for line in lines)
    rows = [r for r in (_row(roll, line, accounts[line.parcel_id], fund, on) for line in lines) if r]
    return receivables_bulk_create(rows=rows, actor=actor).created if rows else 0


def bill_water_sales(*, roll: Roll, actor, on: date) -> int:
    """LAJ-5: before a Lajas parcel is liable it pays for the water it used, per acre-foot (parameter
    `laj_water_sales`), on its real acres; water offered and not used is not sold. The roll of each
    year sells the year before, for every year before liability — the last one included, so the
    roll of a parcel's first liable year still sells the water of the year before it."""
    params = DatabaseParameters()
    try:
        version = params.get("laj_water_sales", on)
    except LookupError:
        return 0
    price = Decimal(str(version.values["price_per_acre_foot"]))
    fund = fund_for(roll.district)
    prior = roll.fiscal_year - 1
    members = {m.parcel_id: m for m in Membership.objects.filter(district=roll.district, excluded_on__isnull=True)
               .select_related("parcel")}
    lines = [line for line in RollLine.objects.filter(roll=roll).order_by("cadastre")
             if line.parcel_id in members and lajas.sells_water_of_prior_year(
                 lajas.liability_start(members[line.parcel_id].twelve_months_on), roll.fiscal_year)]
    used: dict[int, list[Decimal]] = {}
    for parcel_id, af in (WaterDelivery.objects.filter(parcel_id__in=[line.parcel_id for line in lines],
                                                       fiscal_year=prior, offered_only=False)
                          .values_list("parcel_id", "af_per_acre")):
        used.setdefault(parcel_id, []).append(af)
    accounts = accounts_for_parcels(line.parcel_id for line in lines)
    rows = []
    for line in lines:
        m = members[line.parcel_id]
        acres = real_acres(m)
        sale = lajas.water_sale(used_af_per_acre=used.get(line.parcel_id, ()), real_acres=acres,
                                price_per_acre_foot=price)
        if sale.amount <= 0:
            continue
        rows.append(ReceivableRow(
            account_id=accounts[line.parcel_id], fund_id=fund.pk,
            office_id=roll.district.collecting_office_id or roll.district.office_id, kind=Receivable.Kind.WATER_SALE,
            source_type=f"rolls.WaterSale:{roll.pk}", source_id=line.cadastre,
            installments=((on + timedelta(days=30), sale.amount),), issued_on=on, creates_lien=False,
            description=f"Venta de agua FY{prior} — {line.cadastre} ({sale.acre_feet:.2f} acre-pies)",
            breakdown={"rule": "LAJ-5", "fiscal_year_of_water": prior, "acre_feet": str(sale.acre_feet),
                       "real_acres": str(acres), "price_per_acre_foot": str(price),
                       "parameters": [version.describe()]}))
    return receivables_bulk_create(rows=rows, actor=actor).created if rows else 0


def real_acres(membership: Membership) -> Decimal:
    """The parcel's real irrigated acres (gravity + pumped, unweighted); its recorded area when none."""
    irrigated = membership.gravity_acres + membership.pumped_acres
    return irrigated if irrigated > 0 else membership.parcel.area_acres


def roll_collected(roll: Roll) -> Decimal:
    """What has been collected on the roll's charges (payments net of reversals)."""
    total = LedgerEntry.objects.filter(
        receivable__source_type=source_type(roll),
        kind__in=[LedgerEntry.Kind.PAYMENT, LedgerEntry.Kind.REVERSAL, LedgerEntry.Kind.CREDIT_APPLIED],
        component=LedgerEntry.Component.PRINCIPAL).aggregate(s=Sum("amount"))["s"] or Decimal(0)
    return -total
