"""Supplementary entries of a certified or finalized roll: a parcel included mid-year, a parcel segregated.

Neither edits the roll. An inclusion adds the newcomer's charge for the months it is in the
district as a new charge of the roll; a segregation moves the parent's open charges to its
children by area, with their surcharges and the parent's lien date. Both are idempotent on the
event's natural key (RollCorrection: roll, parcel, key).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from assessments.ledger.allocation import refresh_receivables
from assessments.ledger.common import PRINCIPAL, SURCHARGE, installment_states, lock_accounts, post, user_or_none
from assessments.ledger.receivables import account_for_parcel, receivable_create
from assessments.models import LedgerEntry, Receivable
from assessments.rolls import correction_rules as cr
from assessments.rolls.billing import fund_for, source_type
from assessments.rolls.corrections import OPEN_ROLL_STATES, PinnedParameters, _figures, rank_liens_after_commit
from assessments.rolls.generate import _acres
from assessments.rolls.lajas_midyear import lajas_inclusion
from assessments.rolls.models import Roll, RollCorrection, RollLine
from assessments.rules import irrigation as irr
from assessments.rules import lajas as laj
from core.audit import audit
from core.fiscal import fiscal_year_of, fiscal_year_start, semester_end, semester_start
from core.money import ZERO, plan_apportionment, round_half_up
from districts.models import District, Membership, Parcel, WaterDelivery
from districts.services import record_save
from liens import services as lien_services

Kind = RollCorrection.Kind


def _open_roll(district: District, fiscal_year: int) -> Roll | None:
    return (Roll.objects.select_related("district", "figures")
            .filter(district=district, fiscal_year=fiscal_year, status__in=OPEN_ROLL_STATES).first())


# ---------------------------------------------------------------------------------------------
# Mid-year inclusion


def _months_in_semester(included_on: date, fiscal_year: int, semester: int) -> int:
    """Months of a semester the parcel is in the district (same counting as correction_rules.months_remaining)."""
    start, end = semester_start(fiscal_year, semester), semester_end(fiscal_year, semester)
    if included_on <= start:
        return 6
    if included_on > end:
        return 0
    after = cr.months_remaining(included_on, fiscal_year)
    return after - (6 if semester == 1 else 0)


def _irrigation_inclusion(roll: Roll, member: Membership, on: date) -> tuple[Decimal, dict, list]:
    """IRR: the annual charge prorated by the months remaining.

    Reading (IRR-5, IRR-6, IRR-4, IRR-8, IRR-9): the roll's apportionment is closed, so the
    newcomer's yearly share is what an acre pays on that roll (total × acres / district acres,
    IRR-5's proportion with the roll's own denominator) and it is not added to the other lines.
    The engine then applies IRR-4 (free period), IRR-6 (schedule ceiling) and IRR-8 (water) to
    that share semester by semester, and each semester bills only the months the parcel was in
    the district: amount × months / 6, rounded half-up. In practice IRR-4 (twelve months of
    water counted after inclusion) leaves the first fiscal year free, and the entry says so.
    """
    parcel = member.parcel
    acres = _acres(member.gravity_acres, member.pumped_acres, parcel.area_value, parcel.area_unit)
    months = cr.months_remaining(member.included_on, roll.fiscal_year)
    total, district_acres = Decimal(roll.totals["total"]), Decimal(roll.totals["district_acres"])
    annual_share = cr.prorated_share(total=total, district_acres=district_acres, acres=acres, months=12)
    figures = _figures(roll)
    rules = irr.IrrigationRules.from_parameters(PinnedParameters(roll), roll.fiscal_year)
    plan = irr.IrrigationPlan(figures, rules, irr.assess(figures, rules),
                              plan_apportionment(int(annual_share * 100), [(parcel.cadastre, acres)],
                                                 scale=irr.ACRE_SCALE))
    water = {f"FY{fy}-S{sem}": af for fy, sem, af in WaterDelivery.objects.filter(
        parcel=parcel, fiscal_year__gte=roll.fiscal_year - 2, fiscal_year__lte=roll.fiscal_year)
        .values_list("fiscal_year", "semester", "af_per_acre")}
    charge = irr.parcel_charge(plan, irr.IrrigationParcel(
        id=parcel.cadastre, acres=acres, free_period_end=member.free_period_end,
        first_water_on=member.first_water_on, water_af_per_acre=water))
    lines, installments = [], []
    for row in charge.rows:
        period, due, cents, reason, rule = row[0], row[4], row[5], row[6], row[7]
        in_district = _months_in_semester(member.included_on, roll.fiscal_year, int(period[-1]))
        amount = round_half_up(Decimal(cents).scaleb(-2) * in_district / 6)
        if in_district == 0:
            reason = reason or "NOT_INCLUDED"
        lines.append({"period": period, "due_date": due.isoformat(), "annual_amount": f"{Decimal(cents).scaleb(-2)}",
                      "months_in_district": in_district, "amount": str(amount), "exempt_reason": reason or None,
                      "rule": rule})
        if amount > 0:
            installments.append((cr.due_not_in_past(due, on), amount))
    billed = sum((a for _d, a in installments), ZERO)
    breakdown = {
        "rule": "IRR-5", "rules": ["IRR-4", "IRR-5", "IRR-6", "IRR-8", "IRR-9"], "cadastre": parcel.cadastre,
        "included_on": member.included_on.isoformat(), "months_remaining": months, "acres": str(acres),
        "roll_total": str(total), "district_acres": str(district_acres), "annual_share": str(annual_share),
        "prorated_share": str(cr.prorated_share(total=total, district_acres=district_acres, acres=acres,
                                                months=months)),
        "lines": lines, "parameters": roll.parameters,
        "basis": "Inclusión a mitad de año: parte anual a la tasa por acre del padrón, por los meses restantes.",
    }
    return billed, breakdown, installments


@transaction.atomic
def inclusion_supplement(*, membership: Membership, on: date, actor=None) -> RollCorrection | None:
    """A parcel included during a fiscal year whose roll is certified or finalized gets a supplementary entry.

    Returns the entry (the existing one on a second run), or None when no open roll concerns it.
    """
    member = Membership.objects.select_related("parcel", "district").get(pk=membership.pk)
    roll = _open_roll(member.district, fiscal_year_of(member.included_on))
    if roll is None or RollLine.objects.filter(roll=roll, parcel=member.parcel).exists():
        return None
    # A segregated child is not new land: its share of the parent's charges came with the split.
    if RollCorrection.objects.filter(roll=roll, parcel=member.parcel, kind=RollCorrection.Kind.SPLIT).exists():
        return None
    key = f"INCLUSION:{member.included_on.isoformat()}"
    found = RollCorrection.objects.filter(roll=roll, parcel=member.parcel, key=key).first()
    if found is not None:
        return found
    account = account_for_parcel(member.parcel)
    lock_accounts([account.pk])
    found = RollCorrection.objects.filter(roll=roll, parcel=member.parcel, key=key).first()
    if found is not None:       # written while we waited for the lock
        return found
    if roll.is_irrigation:
        amount, breakdown, installments = _irrigation_inclusion(roll, member, on)
        rule = "IRR-5"
    else:
        inclusion = lajas_inclusion(fiscal_year=roll.fiscal_year, included_on=member.included_on,
                                    twelve_months_on=member.twelve_months_on, first_water_on=member.first_water_on,
                                    permanent=member.status == Membership.Status.PERMANENT)
        amount, breakdown, installments = ZERO, {**inclusion.explain(), "cadastre": member.parcel.cadastre,
                                                 "included_on": member.included_on.isoformat()}, []
        rule = "LAJ-5"
    correction = RollCorrection.objects.create(
        roll=roll, parcel=member.parcel, kind=Kind.INCLUSION, key=key, rule=rule, amount=amount, breakdown=breakdown,
        created_by=user_or_none(actor),
        reason=f"Inclusión de {member.parcel.cadastre} el {member.included_on:%d/%m/%Y} ({rule})")
    if installments:
        correction.receivable = receivable_create(
            account=account, fund=fund_for(roll.district),
            office=roll.district.collecting_office or roll.district.office, kind=Receivable.Kind.ROLL_LINE,
            source_type=source_type(roll), source_id=f"{member.parcel.cadastre}/{key}", installments=installments,
            description=f"Cuota de riego FY{roll.fiscal_year} — {member.parcel.cadastre} (inclusión)",
            breakdown={**breakdown, "correction": correction.pk}, surcharge_rule=Receivable.SurchargeRule.IRR9,
            creates_lien=roll.status == Roll.Status.FINALIZED, issued_on=on, actor=actor)
        correction.save(update_fields=["receivable"])
        if correction.receivable.creates_lien:
            rank_liens_after_commit([member.parcel_id])
    audit(actor=actor, action="roll.correction.inclusion", target=roll,
          summary=f"Inclusión {member.parcel.cadastre}: {amount}", data={"correction": correction.pk})
    return correction


@transaction.atomic
def parcel_include_midyear(*, district: District, parcel: Parcel, included_on: date, on: date, actor,
                           **facts) -> tuple[Membership, RollCorrection | None]:
    """Staff action "Incluir parcela a mitad de año": the membership (validated as the register's forms do)
    and its supplementary entry on the year's roll."""
    if Membership.objects.filter(district=district, parcel=parcel).exists():
        raise ValidationError({"parcel": _("La parcela %(c)s ya está incluida en %(d)s.")
                               % {"c": parcel.cadastre, "d": district.code}})
    member = record_save(actor=actor, instance=Membership(district=district, parcel=parcel, included_on=included_on,
                                                          **facts), action="membership")
    return member, inclusion_supplement(membership=member, on=on, actor=actor)


# ---------------------------------------------------------------------------------------------
# Segregation (split)


@dataclass(frozen=True)
class Child:
    """One parcel segregated from the parent, with its irrigated acres (IRR-5 / LAJ-2 weights)."""

    parcel: Parcel
    gravity_acres: Decimal
    pumped_acres: Decimal = Decimal("0")


def _weights(roll: Roll, children: list[Child]) -> list[tuple[str, Decimal]]:
    """Each child's share weight on `roll`: IRR-5 acres, or the LAJ-2/LAJ-3 weight (gravity acres +
    pumped acres × pumped_factor_pct) with the factor of the `laj_assessment` version the roll pinned
    (PinnedParameters: the roll's own parameters, whatever came later)."""
    if roll.district.kind == District.Kind.LAJAS:
        try:
            factor = laj.LajasRules.from_parameters(PinnedParameters(roll),
                                                    fiscal_year_start(roll.fiscal_year)).pumped_factor_pct
        except (ValueError, LookupError) as exc:     # the roll's pinned parameters no longer read
            raise ValidationError({"children": _("Los parámetros LAJ del padrón %(r)s no se pueden leer: %(e)s") % {
                "r": roll, "e": exc}}) from None
        return [(c.parcel.cadastre, c.gravity_acres + c.pumped_acres * factor / 100) for c in children]
    return [(c.parcel.cadastre, _acres(c.gravity_acres, c.pumped_acres, c.parcel.area_value, c.parcel.area_unit))
            for c in children]


def _no_area() -> ValidationError:
    return ValidationError({"children": _("Las parcelas segregadas no tienen cabida.")})


def _check_split(district: District, parent: Membership, children: list[Child]) -> None:
    errors = {}
    cadastres = [c.parcel.cadastre for c in children]
    if len(children) < 2:
        errors["children"] = _("Una segregación produce al menos dos parcelas.")
    elif len(set(cadastres)) != len(cadastres) or parent.parcel.cadastre in cadastres:
        errors["children"] = _("Las parcelas segregadas deben ser distintas entre sí y de la parcela madre.")
    else:
        taken = list(Membership.objects.filter(district=district, parcel__in=[c.parcel for c in children])
                     .values_list("parcel__cadastre", flat=True))
        if taken:
            errors["children"] = _("Ya están en %(d)s: %(c)s.") % {"d": district.code, "c": ", ".join(sorted(taken))}
    for field, label in (("gravity_acres", _("acres por gravedad")), ("pumped_acres", _("acres por bombeo"))):
        total = sum((getattr(c, field) for c in children), Decimal("0"))
        if total != getattr(parent, field):
            errors[field] = _("Las parcelas segregadas suman %(t)s %(f)s; la parcela madre tiene %(p)s.") % {
                "t": total, "f": label, "p": getattr(parent, field)}
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def parcel_split(*, district: District, parent: Parcel, children: list[Child], on: date,
                 actor) -> list[RollCorrection]:
    """Segregate `parent` into `children` on `on`: the register and every open roll charge of the parent.

    Register: the parent's membership is excluded on `on`; each child is included with its acres and
    the parent's irrigation facts. Reading: the land was in the district all along, so a child keeps
    the parent's inclusion date (IRR-4's clock and LAJ-5's twelve months do not restart); the split
    date is the parent's exclusion date and the corrections' key.

    Charges (IRR-10, LAJ-6: the charge is a lien on the land and follows it): on each certified or
    finalized roll, every open installment of the parent's charges is apportioned over the children
    by area with the largest-remainder method on cents (parts add up to the parent's amount exactly);
    the open surcharge moves the same way; the children's charges keep the parent's due dates and
    surcharge rule (so the surcharge keeps running from the same date) and, when the parent's lien
    exists, their liens keep its constitution date.
    """
    parent_member = (Membership.objects.select_for_update().select_related("parcel")
                     .filter(district=district, parcel=parent, excluded_on__isnull=True).first())
    key = f"SPLIT:{parent.cadastre}:{on.isoformat()}"
    if parent_member is None:
        if Membership.objects.filter(district=district, parcel=parent, excluded_on=on).exists():
            # A second run of the same segregation: what the first one wrote.
            return list(RollCorrection.objects.filter(key=key, kind=Kind.SPLIT).order_by("pk"))
        raise ValidationError({"parent": _("La parcela %(c)s no está incluida en %(d)s.")
                               % {"c": parent.cadastre, "d": district.code}})
    _check_split(district, parent_member, children)
    parent_member.excluded_on = on
    record_save(actor=actor, instance=parent_member, action="membership")
    for child in children:
        record_save(actor=actor, action="membership", instance=Membership(
            district=district, parcel=child.parcel, included_on=parent_member.included_on,
            status=parent_member.status, gravity_acres=child.gravity_acres, pumped_acres=child.pumped_acres,
            first_water_on=parent_member.first_water_on, free_period_end=parent_member.free_period_end,
            twelve_months_on=parent_member.twelve_months_on, credit_pct=parent_member.credit_pct))
    if sum((c.gravity_acres + c.pumped_acres for c in children), Decimal("0")) <= 0 and (
            district.kind == District.Kind.LAJAS or not any(c.parcel.area_value > 0 for c in children)):
        raise _no_area()
    out: list[RollCorrection] = []
    weights_by_roll: dict[str, dict[str, str]] = {}
    for roll in (Roll.objects.select_related("district").filter(district=district, status__in=OPEN_ROLL_STATES)
                 .order_by("fiscal_year")):
        # Per roll: a Lajas roll weighs pumped acres with the factor its own parameters pinned.
        weights = _weights(roll, children)
        if sum((w for _k, w in weights), Decimal("0")) <= 0:
            raise _no_area()
        weights_by_roll[str(roll.pk)] = {k: str(w) for k, w in weights}
        out += _split_roll_charges(roll, parent, children, weights, key, on, actor)
    cadastres = [c.parcel.cadastre for c in children]
    audit(actor=actor, action="parcel.split", target=parent,
          summary=f"{parent.cadastre} segregada el {on:%d/%m/%Y} en {', '.join(cadastres)}",
          data={"children": [[c.parcel.cadastre, str(c.gravity_acres), str(c.pumped_acres)] for c in children],
                "weights_by_roll": weights_by_roll, "corrections": [c.pk for c in out]})
    return out


def _split_roll_charges(roll, parent, children, weights, key, on, actor) -> list[RollCorrection]:
    """Move the parent's open charges of `roll` to the children by `weights` (this roll's weights)."""
    receivables = list(Receivable.objects.filter(source_type=source_type(roll), status=Receivable.Status.OPEN,
                                                 account__parcel=parent).order_by("pk"))
    if not receivables:
        return []
    parent_account = receivables[0].account
    child_accounts = {c.parcel.cadastre: account_for_parcel(c.parcel) for c in children}
    lock_accounts([parent_account.pk, *(a.pk for a in child_accounts.values())])
    states = [s for s in installment_states(parent_account, receivable_ids=[r.pk for r in receivables])
              if s.open_total > 0]
    rule = "IRR-10" if roll.is_irrigation else "LAJ-6"
    memo = f"Segregación de {parent.cadastre} el {on:%d/%m/%Y} ({rule})"
    user = user_or_none(actor)
    # {child: [(due, principal, surcharge, parent state)]}: each open installment apportioned by area.
    parts: dict[str, list] = {k: [] for k, _w in weights}
    parent_entries = []
    for s in states:
        principal = cr.split_parts(s.principal_open, weights)
        surcharge = cr.split_parts(s.surcharge_open, weights)
        for k, _w in weights:
            parts[k].append((s.installment.due_date, principal[k], surcharge[k], s))
        for component, amount in ((PRINCIPAL, s.principal_open), (SURCHARGE, s.surcharge_open)):
            if amount > 0:
                parent_entries.append(LedgerEntry(
                    account=parent_account, receivable=s.receivable, installment=s.installment,
                    kind=LedgerEntry.Kind.ADJUSTMENT, component=component, amount=-amount, effective_date=on,
                    actor=user, rule=rule, memo=memo))
    moved = sum((s.open_total for s in states), ZERO)
    parent_liens = {r.pk: lien_services.lien_by_origin(Receivable.LIEN_ORIGIN, str(r.pk))
                    for r in receivables if r.creates_lien}
    lien_date = min((lien.constituted_on for lien in parent_liens.values() if lien is not None), default=None)
    # The parent's charges leave without settling: no "paid" lien satisfaction, the lien is released below.
    Receivable.objects.filter(pk__in=[r.pk for r in receivables]).update(creates_lien=False)
    created = post(parent_entries)
    refresh_receivables({r.pk for r in receivables}, on=on, actor=actor, reason=memo)
    out = [RollCorrection.objects.create(
        roll=roll, parcel=parent, kind=Kind.SPLIT, key=key, rule=rule, amount=-moved, created_by=user,
        breakdown={"rule": rule, "role": "parent", "moved": str(moved), "weights": {k: str(w) for k, w in weights},
                   "convention": "Apportionment (largest remainder on cents)"},
        reason=memo)]
    out[0].entries.set(created)
    for lien in parent_liens.values():
        if lien is not None and lien.status == lien.Status.ACTIVE:
            lien_services.lien_release(lien=lien, on=on, actor=actor, reason=memo)
    for (k, w), child in zip(weights, children, strict=True):
        out.append(_child_charge(roll, child, child_accounts[k], parts[k], w, key, rule, memo, lien_date, on, actor))
    if lien_date is not None:
        rank_liens_after_commit([parent.pk, *(c.parcel.pk for c in children)])
    return out


def _child_charge(roll, child, account, parts, weight, key, rule, memo, lien_date, on, actor) -> RollCorrection:
    rows = [(due, principal, surcharge, s) for due, principal, surcharge, s in parts if principal + surcharge > 0]
    total = sum((p + sc for _d, p, sc, _s in rows), ZERO)
    breakdown = {"rule": rule, "role": "child", "parent": parts[0][3].receivable.account.parcel.cadastre if parts
                 else "", "weight": str(weight), "moved": str(total),
                 "installments": [{"due_date": d.isoformat(), "principal": str(p), "surcharge": str(sc),
                                   "from": s.receivable.payment_reference} for d, p, sc, s in rows],
                 "lien_constituted_on": lien_date.isoformat() if lien_date else None,
                 "convention": "Apportionment (largest remainder on cents)"}
    correction = RollCorrection.objects.create(
        roll=roll, parcel=child.parcel, source_parcel=parts[0][3].receivable.account.parcel if parts else None,
        kind=Kind.SPLIT, key=key, rule=rule, amount=total, breakdown=breakdown, created_by=user_or_none(actor),
        reason=memo)
    if not rows:
        return correction
    receivable = receivable_create(
        account=account, fund=fund_for(roll.district), office=roll.district.collecting_office or roll.district.office,
        kind=Receivable.Kind.ROLL_LINE, source_type=source_type(roll), source_id=f"{child.parcel.cadastre}/{key}",
        installments=[(d, p) for d, p, _sc, _s in rows], breakdown={**breakdown, "correction": correction.pk},
        description=f"{'Cuota de riego' if roll.is_irrigation else 'Contribución O&M Valle de Lajas'} "
                    f"FY{roll.fiscal_year} — {child.parcel.cadastre} (segregada)",
        surcharge_rule=rows[0][3].receivable.surcharge_rule, creates_lien=False, issued_on=on, actor=actor)
    insts = list(receivable.installments.order_by("seq"))
    surcharge_entries = [LedgerEntry(account=account, receivable=receivable, installment=inst,
                                     kind=LedgerEntry.Kind.SURCHARGE, component=SURCHARGE, amount=sc,
                                     effective_date=on, actor=user_or_none(actor), rule=rule, memo=memo)
                         for inst, (_d, _p, sc, _s) in zip(insts, rows, strict=True) if sc > 0]
    post(surcharge_entries)
    refresh_receivables([receivable.pk], on=on, actor=actor, reason=memo)
    if lien_date is not None:
        # IRR-10/LAJ-6: the lien is on the land; the segregated part keeps the parent's rank date.
        fund = fund_for(roll.district)
        lien_services.lien_register(
            parcel=child.parcel, kind=fund.lien_kind, amount=receivable.amount, constituted_on=lien_date, actor=actor,
            origin_type=Receivable.LIEN_ORIGIN, origin_id=str(receivable.pk),
            origin_label=f"{receivable.payment_reference} {receivable.description}"[:200],
            finances_public_infrastructure=fund.finances_public_infrastructure)
        Receivable.objects.filter(pk=receivable.pk).update(creates_lien=True)
    correction.receivable = receivable
    correction.save(update_fields=["receivable"])
    return correction
