"""Corrections of a certified or finalized roll during the year: late water records re-evaluate IRR-8.

The roll's lines are never edited. A re-evaluation runs the IRR engine for one parcel with the
roll's own figures, parameters, share and acres (only the water and irrigation facts are read
anew), compares each semester with what the roll and earlier corrections already bill, and posts
the difference as a new entry: an increase is a new charge of the roll (same fund, IRR-9 dates
not in the past), a decrease an ADJUSTMENT entry on the charge's installment (or a credit on the
parcel's account when that installment is already paid). Mid-year inclusions and segregations
are in `assessments.rolls.supplements`.

Why no four-eyes `Adjustment` request for a decrease: the four-eyes path exists for a person's
discretion (ledger.adjustments). Here nobody chooses the amount: the engine derives it from a
water record that was itself entered through an audited path, and the RollCorrection row names
the rule (IRR-8), its inputs and its result. Waiting for a second person would leave the ledger
contradicting the law's own outcome, so the system posts it as "approved by rule", with the
correction as its record and an audit entry in the same transaction.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Q

from assessments.ledger.allocation import refresh_receivables
from assessments.ledger.common import CREDIT, PRINCIPAL, installment_states, lock_account, post, user_or_none
from assessments.ledger.receivables import account_for_parcel, receivable_create
from assessments.models import LedgerEntry, Receivable
from assessments.rolls import correction_rules as cr
from assessments.rolls.billing import fund_for, source_type
from assessments.rolls.models import Roll, RollCorrection, RollLine, RollOverride
from assessments.rules import irrigation as irr
from core.audit import audit
from core.money import ZERO, format_cents, plan_apportionment
from core.parameters import DatabaseParameters
from core.rule_parameters import ParameterVersion, shipped_versions
from districts.models import District, Membership, WaterDelivery

Kind = RollCorrection.Kind
OPEN_ROLL_STATES = (Roll.Status.CERTIFIED, Roll.Status.FINALIZED)


class PinnedParameters:
    """The parameter versions a roll was generated with (`roll.parameters`), whatever came later."""

    def __init__(self, roll: Roll) -> None:
        self.pinned = {p["family"]: p["version"] for p in roll.parameters or []}
        self.fallback = DatabaseParameters()

    def get(self, family: str, on: date) -> ParameterVersion:
        version = self.pinned.get(family)
        if version is not None:
            from core.models import ParameterVersion as Row

            row = Row.objects.filter(family=family, version=version).first()
            if row is not None:
                return ParameterVersion(row.family, row.version, row.effective_from, row.citation, row.values)
            for shipped in shipped_versions(family):
                if shipped.version == version:
                    return shipped
        return self.fallback.get(family, on)


# ---------------------------------------------------------------------------------------------
# Which rolls a water record concerns


def rolls_for_water(parcel_ids, fiscal_years) -> dict[int, set[int]]:
    """{roll id: parcel ids} of certified/finalized irrigation rolls a water record may change.

    IRR-8 reads, for charges due in FY R, semesters of FY R − 1 (test a, and b for dues up to
    January) and S1 of FY R itself (test b for stubs due from February): a record of FY f
    concerns the rolls of FY f and FY f + 1.
    """
    years = set()
    for fy in fiscal_years:
        years.update((fy, fy + 1))
    rows = (RollLine.objects.filter(parcel_id__in=set(parcel_ids), roll__fiscal_year__in=years,
                                    roll__status__in=OPEN_ROLL_STATES,
                                    roll__district__kind=District.Kind.IRRIGATION)
            .values_list("roll_id", "parcel_id"))
    out: dict[int, set[int]] = {}
    for roll_id, parcel_id in rows:
        out.setdefault(roll_id, set()).add(parcel_id)
    return out


# ---------------------------------------------------------------------------------------------
# IRR-8 re-evaluation of one parcel


def _figures(roll: Roll) -> irr.IrrigationFigures:
    f = roll.figures.figures
    return irr.IrrigationFigures(
        fiscal_year=roll.fiscal_year, completion_certified_on=roll.district.completion_certified_on,
        **{k: Decimal(str(f[k])) for k in ("bond_interest", "bond_principal", "bonds_outstanding", "om_cost",
                                            "deficit", "surplus", "estimated_hydro_income", "hydro_retained",
                                            "other_income")})


@dataclass(frozen=True)
class RollContext:
    """What every parcel of one roll shares: its figures, pinned parameters and IRR-1 assessment (read once)."""

    figures: irr.IrrigationFigures
    rules: irr.IrrigationRules
    assessment: irr.Assessment


def roll_context(roll: Roll) -> RollContext:
    figures = _figures(roll)
    rules = irr.IrrigationRules.from_parameters(PinnedParameters(roll), roll.fiscal_year)
    return RollContext(figures, rules, irr.assess(figures, rules))


def _water_periods(roll: Roll, parcel_ids) -> dict[int, dict[str, Decimal]]:
    """{parcel id: {"FY2026-S1": af per acre}} for the fiscal years IRR-8 reads on this roll."""
    out: dict[int, dict[str, Decimal]] = {}
    for pid, fy, sem, af in WaterDelivery.objects.filter(
            parcel_id__in=list(parcel_ids), fiscal_year__gte=roll.fiscal_year - 2,
            fiscal_year__lte=roll.fiscal_year).order_by().values_list("parcel_id", "fiscal_year", "semester",
                                                                       "af_per_acre"):
        out.setdefault(pid, {})[f"FY{fy}-S{sem}"] = af
    return out


def _evaluate(ctx: RollContext, line: RollLine, free_period_end, first_water_on,
              water: dict[str, Decimal]) -> dict[str, cr.PeriodAmount]:
    # The roll's IRR-5 share stays as apportioned over the whole district: a plan over this parcel
    # alone whose total is that share gives the kernel exactly the roll's share.
    share_cents = int(line.share * 100)
    plan = irr.IrrigationPlan(ctx.figures, ctx.rules, ctx.assessment,
                              plan_apportionment(share_cents, [(line.cadastre, line.weight)], scale=irr.ACRE_SCALE))
    charge = irr.parcel_charge(plan, irr.IrrigationParcel(
        id=line.cadastre, acres=line.weight, free_period_end=free_period_end, first_water_on=first_water_on,
        water_af_per_acre=water))
    return {row[0]: cr.PeriodAmount(row[0], row[4], Decimal(row[5]).scaleb(-2), row[6] or "", row[7])
            for row in charge.rows}


def evaluate_line(roll: Roll, line: RollLine, ctx: RollContext | None = None) -> dict[str, cr.PeriodAmount]:
    """The engine's answer today for this line: the roll's figures, parameters, share and acres, with the
    water records and irrigation facts (free-period end, first water) now on file."""
    member = Membership.objects.filter(district=roll.district, parcel_id=line.parcel_id).order_by("pk").first()
    if member is None:      # the register lost the membership: nothing to re-evaluate against
        return billed_periods(roll, line)
    water = _water_periods(roll, [line.parcel_id]).get(line.parcel_id, {})
    return _evaluate(ctx or roll_context(roll), line, member.free_period_end, member.first_water_on, water)


def billed_periods(roll: Roll, line: RollLine) -> dict[str, cr.PeriodAmount]:
    """What the roll bills the parcel per semester now: the line, as replaced by its latest re-evaluation."""
    latest = (RollCorrection.objects.filter(roll=roll, parcel_id=line.parcel_id, kind=Kind.WATER_REEVALUATION)
              .order_by("-created_at", "-pk").first())
    return cr.periods_from_detail(latest.breakdown["after"] if latest else line.detail)


@transaction.atomic
def water_reevaluate(*, roll: Roll, parcel_id: int, on: date, actor=None,
                     ctx: RollContext | None = None) -> RollCorrection | None:
    """IRR-8 (last paragraph): re-evaluate one parcel of a certified/finalized roll; post the difference once.

    Returns the new correction, or None when nothing changes (so a second run is a no-op).
    `ctx` (roll_context) lets a caller re-evaluating many parcels of one roll read the roll once.
    """
    if ctx is None:
        roll = Roll.objects.select_related("district", "figures").get(pk=roll.pk)
    if roll.status not in OPEN_ROLL_STATES or not roll.is_irrigation:
        return None
    line = RollLine.objects.filter(roll=roll, parcel_id=parcel_id).select_related("parcel").order_by("pk").first()
    if line is None:
        return None
    if RollOverride.objects.filter(line=line, status=RollOverride.Status.APPROVED).exists():
        # A line a person changed (with a reason and a second approver) is not recomputed by machine;
        # staff correct it by a manual adjustment instead.
        return None
    if Membership.objects.filter(district=roll.district, parcel_id=parcel_id, excluded_on__isnull=False).exists():
        # Excluded or segregated (its open charges moved to the children): staff correct by hand, with a reason.
        return None
    ctx = ctx or roll_context(roll)
    # Most records of a bulk import change nothing: find that out without taking the account lock.
    if not cr.period_deltas(billed_periods(roll, line), evaluate_line(roll, line, ctx)):
        return None
    account = lock_account(account_for_parcel(line.parcel))   # serializes concurrent re-evaluations
    before = billed_periods(roll, line)
    after = evaluate_line(roll, line, ctx)
    deltas = cr.period_deltas(before, after)
    if not deltas:         # another run posted it while we waited for the lock
        return None
    n = RollCorrection.objects.filter(roll=roll, parcel_id=parcel_id, kind=Kind.WATER_REEVALUATION).count() + 1
    key = f"IRR-8#{n}"
    total = sum(deltas.values(), ZERO)
    breakdown = {
        "rule": "IRR-8", "citation": irr.CITATIONS["IRR-8"], "cadastre": line.cadastre,
        "share": str(line.share), "acres": str(line.weight), "parameters": roll.parameters,
        "before": cr.periods_as_detail(before), "after": cr.periods_as_detail(after),
        "deltas": {p: str(d) for p, d in deltas.items()},
        "basis": "Registro de agua entrado o corregido después de generado el padrón (IRR-8).",
    }
    try:
        with transaction.atomic():
            correction = RollCorrection.objects.create(
                roll=roll, parcel_id=parcel_id, kind=Kind.WATER_REEVALUATION, key=key, rule="IRR-8", amount=total,
                breakdown=breakdown, created_by=user_or_none(actor),
                reason=f"Reevaluación IRR-8 de {line.cadastre}: {format_cents(int(total * 100))}")
    except IntegrityError:      # the same event written meanwhile by a redelivered task
        return None
    increases = {p: d for p, d in deltas.items() if d > 0}
    decreases = {p: -d for p, d in deltas.items() if d < 0}
    if increases:
        correction.receivable = _charge_increase(roll, line, account, correction, increases, after, on, actor)
        correction.save(update_fields=["receivable"])
        if correction.receivable.creates_lien:
            rank_liens_after_commit([parcel_id])
    if decreases:
        entries = _credit_decrease(roll, line, account, correction, decreases, before, on, actor)
        correction.entries.set(entries)
    audit(actor=actor, action="roll.correction.water", target=roll,
          summary=f"IRR-8 {line.cadastre}: {total}", data={"correction": correction.pk, "deltas": breakdown["deltas"]})
    return correction


def rank_liens_after_commit(parcel_ids) -> None:
    """LIEN-2: a new or moved lien changes the parcel's ranking; re-rank once the transaction commits."""
    from liens.tasks import liens_rank_parcels_task

    ids = sorted(set(parcel_ids))
    if ids:
        transaction.on_commit(lambda: liens_rank_parcels_task.delay(ids))


def _charge_increase(roll, line, account, correction, increases, after, on, actor) -> Receivable:
    periods = sorted(increases, key=lambda p: after[p].due_date)
    installments = [(cr.due_not_in_past(after[p].due_date, on), increases[p]) for p in periods]
    return receivable_create(
        account=account, fund=fund_for(roll.district),
        office=roll.district.collecting_office or roll.district.office, kind=Receivable.Kind.ROLL_LINE,
        source_type=source_type(roll), source_id=f"{line.cadastre}/{correction.key}", installments=installments,
        description=f"Cuota de riego FY{roll.fiscal_year} — {line.cadastre} (reevaluación IRR-8)",
        breakdown={**correction.breakdown, "correction": correction.pk,
                   "periods": {p: i + 1 for i, p in enumerate(periods)}},
        surcharge_rule=Receivable.SurchargeRule.IRR9, creates_lien=roll.status == Roll.Status.FINALIZED,
        issued_on=on, actor=actor)


def _parcel_receivables(roll: Roll, cadastre: str):
    return Receivable.objects.filter(Q(source_id=cadastre) | Q(source_id__startswith=f"{cadastre}/"),
                                     source_type=source_type(roll))


def _credit_decrease(roll, line, account, correction, decreases, before, on, actor) -> list[LedgerEntry]:
    """Reduce the open principal of the installments that carry each period; what was paid becomes credit."""
    receivables = list(_parcel_receivables(roll, line.cadastre))
    states = installment_states(account, receivable_ids=[r.pk for r in receivables])
    user = user_or_none(actor)
    memo = f"Reevaluación IRR-8 {line.cadastre} FY{roll.fiscal_year}"
    entries: list[LedgerEntry] = []
    for period, amount in decreases.items():
        left = amount
        # The roll's own installment (matched by its due date) and any earlier increase for the period, newest first.
        carriers = [s for s in states if (s.receivable.source_id == line.cadastre
                                          and s.installment.due_date == before[period].due_date)
                    or (s.receivable.breakdown.get("periods", {}).get(period) == s.installment.seq)]
        for s in sorted(carriers, key=lambda s: -s.receivable.pk):
            take = min(left, s.principal_open)
            if take > 0:
                entries.append(LedgerEntry(account=account, receivable=s.receivable, installment=s.installment,
                                           kind=LedgerEntry.Kind.ADJUSTMENT, component=PRINCIPAL, amount=-take,
                                           effective_date=on, actor=user, rule="IRR-8", memo=memo))
                s.principal_open -= take
                left -= take
            if left == 0:
                break
        # already paid: the overpayment is a credit on the parcel's account (docs/rules/README.md#payments)
        if left > 0:
            entries.append(LedgerEntry(account=account, kind=LedgerEntry.Kind.ADJUSTMENT, component=CREDIT,
                                       amount=-left, effective_date=on, actor=user, rule="IRR-8", memo=memo))
    created = post(entries)
    refresh_receivables({e.receivable_id for e in created}, on=on, actor=actor, reason=memo)
    return created


def changed_parcels(roll: Roll, ctx: RollContext, parcel_ids, chunk: int = 900) -> list[int]:
    """The parcels whose IRR-8 outcome differs from what the roll bills them, read a chunk at a time.

    A bulk import mostly re-sends unchanged records: this finds the few that change in a handful of
    queries per chunk, so only those take the account lock and the per-parcel transaction.
    """
    ids = sorted(set(parcel_ids))
    out = []
    for i in range(0, len(ids), chunk):
        part = ids[i:i + chunk]
        lines = list(RollLine.objects.filter(roll=roll, parcel_id__in=part).order_by())
        overridden = set(RollOverride.objects.filter(line__roll=roll, line__parcel_id__in=part,
                                                     status=RollOverride.Status.APPROVED)
                         .values_list("line__parcel_id", flat=True))
        latest = dict(RollCorrection.objects.filter(roll=roll, parcel_id__in=part, kind=Kind.WATER_REEVALUATION)
                      .order_by("created_at", "pk").values_list("parcel_id", "breakdown"))
        facts = {pid: (fpe, fwo) for pid, fpe, fwo in Membership.objects.filter(
            district=roll.district, parcel_id__in=part, excluded_on__isnull=True).order_by().values_list(
            "parcel_id", "free_period_end", "first_water_on")}
        water = _water_periods(roll, part)
        for line in lines:
            pid = line.parcel_id
            if pid in overridden or pid not in facts:
                continue
            before = cr.periods_from_detail(latest[pid]["after"] if pid in latest else line.detail)
            if cr.period_deltas(before, _evaluate(ctx, line, *facts[pid], water.get(pid, {}))):
                out.append(pid)
    return out


def roll_water_reevaluate(*, roll_id: int, parcel_ids, on: date, actor=None) -> list[RollCorrection]:
    """Re-evaluate many parcels of one roll (the task of a bulk water import); each change in its own transaction."""
    roll = Roll.objects.select_related("district", "figures").filter(pk=roll_id).first()
    if roll is None or roll.status not in OPEN_ROLL_STATES or not roll.is_irrigation:
        return []
    ctx = roll_context(roll)
    out = []
    for parcel_id in changed_parcels(roll, ctx, parcel_ids):
        found = water_reevaluate(roll=roll, parcel_id=parcel_id, on=on, actor=actor, ctx=ctx)
        if found is not None:
            out.append(found)
    return out
