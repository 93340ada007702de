"""Every write of the improvement districts' life cycles: validate, save and audit in one transaction.

SID (the special improvement districts law): resolutions and their charges (SID-1), CRIM's receipt
and the yearly notices (SID-2), collection batches with CRIM's retention and the 90-day remittance
(SID-3), and the refund when the project is not carried out (SID-5).
TID (the tourism improvement districts law): the mayor's petition and the Legislature's findings
and ordinance (TID-1, TID-2), the mayor's decision and the publication (TID-1), the collector and
association (TID-3, TID-4), and the association's account with its 5 % administrative cap and
yearly audits (TID-5).

Statutory due dates are computed with the DEADLINES engine, stored on these records, and opened as
clocks in core's work queue against the record they concern; doing the act meets the clock.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date
from decimal import Decimal

from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from assessments.rules.sid import Remittance, remittance
from assessments.rules.tid_formula import FormulaError, compute_charges, parse
from core import workqueue
from core.audit import audit
from core.models import Flag
from core.money import CENT, to_decimal
from districts.improvement import clocks, rules
from districts.improvement.errors import AdminCapExceeded, FormulaRefused
from districts.improvement.models import (
    SidCollectionBatch,
    SidNoticeRound,
    SidRefund,
    SidRefundLine,
    SidResolution,
    SidResolutionCharge,
    TidAccountEntry,
    TidAudit,
    TidFactorFinding,
    TidNoticeRound,
    TidOrdinance,
    TidPetition,
)
from districts.improvement.selectors import member_parcels, sid_retention_pct, tid_cap_pct, tid_parcel
from districts.models import District, Membership, Municipality, Parcel, Party

RECEIPT_RECORDED = gettext_noop("El recibo ya se registró el %(d)s.")


# --- helpers ----------------------------------------------------------------------------------

def _money(value, field: str) -> Decimal:
    try:
        amount = to_decimal(value)
    except (TypeError, ValueError):
        raise ValidationError({field: _("Indique un monto válido.")}) from None
    if not amount.is_finite() or amount != amount.quantize(CENT):
        raise ValidationError({field: _("El monto debe expresarse en centavos exactos.")})
    return amount.quantize(CENT)


def _jsonable(data: Mapping) -> dict:
    out = {}
    for key, value in data.items():
        if isinstance(value, date | Decimal):
            out[key] = str(value)
        elif hasattr(value, "pk"):
            out[key] = value.pk
        else:
            out[key] = value
    return out


def _refuse_sid1(fields: Iterable[str]) -> None:
    forbidden = rules.sid1_forbidden_fields(fields)
    if forbidden:
        raise ValidationError({"__all__": rules.SID1_MESSAGE.format(fields=", ".join(forbidden))}, code="sid1")


def _save(instance, *, actor, action: str, summary: str = "", data: dict | None = None):
    instance.full_clean()
    instance.save()
    audit(actor=actor, action=action, target=instance, summary=summary or str(instance), data=data or {})
    return instance


# === SID ========================================================================================

SID_RESOLUTION_FIELDS = ("number", "adopted_on", "term_years", "first_fiscal_year", "due_dates", "penalty_pct",
                         "penalty_grace_days", "penalty_terms", "certified_copy")


@transaction.atomic
def sid_resolution_create(*, actor, district: District, number: str, adopted_on: date, term_years: int,
                          first_fiscal_year: int, due_dates: list[str], penalty_pct=Decimal("0"),
                          penalty_grace_days: int = 0, penalty_terms: str = "", certified_copy=None,
                          **other) -> SidResolution:
    """SID-1: record the Authority's resolution. Exemptions, exonerations and prompt-payment
    discounts are refused; the payment dates and the late-payment penalty are the resolution's."""
    _refuse_sid1(other)
    if other:
        raise TypeError(f"unexpected fields: {', '.join(sorted(other))}")
    existing = SidResolution.objects.filter(district=district, number=number).first()
    if existing is not None:
        raise ValidationError({"number": _("Ya existe la resolución %(n)s en este distrito.") % {"n": number}})
    resolution = SidResolution(
        district=district, number=number, adopted_on=adopted_on, term_years=term_years,
        first_fiscal_year=first_fiscal_year, due_dates=rules.normalize_month_days(due_dates or [])
        if _valid_month_days(due_dates) else due_dates,
        penalty_pct=penalty_pct, penalty_grace_days=penalty_grace_days, penalty_terms=penalty_terms)
    if certified_copy:
        resolution.certified_copy = certified_copy
    return _save(resolution, actor=actor, action="sid.resolution.create",
                 data={"district": district.code, "number": number, "term_years": term_years})


def _valid_month_days(values) -> bool:
    try:
        rules.normalize_month_days(values or [])
    except (TypeError, ValueError):
        return False
    return True


@transaction.atomic
def sid_resolution_update(*, actor, resolution: SidResolution, **changes) -> SidResolution:
    """Change the resolution's terms (SID-1 refusals apply)."""
    _refuse_sid1(changes)
    unknown = set(changes) - set(SID_RESOLUTION_FIELDS)
    if unknown:
        raise TypeError(f"unexpected fields: {', '.join(sorted(unknown))}")
    resolution = SidResolution.objects.select_for_update().get(pk=resolution.pk)
    term_changes = {f for f in ("term_years", "first_fiscal_year")
                    if f in changes and changes[f] != getattr(resolution, f)}
    if term_changes and resolution.notice_rounds.exists():
        raise ValidationError(_("El CRIM ya recibió la resolución y sus notificaciones están calendarizadas: el "
                                "término no puede cambiarse."))
    for field, value in changes.items():
        if field == "due_dates" and _valid_month_days(value):
            value = rules.normalize_month_days(value)
        if field == "certified_copy" and not value:
            continue
        setattr(resolution, field, value)
    return _save(resolution, actor=actor, action="sid.resolution.update", data=_jsonable(
        {k: v for k, v in changes.items() if k != "certified_copy"}))


@transaction.atomic
def sid_charge_set(*, actor, resolution: SidResolution, parcel: Parcel, annual_charge, **other) -> SidResolutionCharge:
    """SID-1: set one property's annual benefit charge. The parcel must be in the district; no
    exemption, exoneration or discount can accompany it."""
    _refuse_sid1(other)
    if other:
        raise TypeError(f"unexpected fields: {', '.join(sorted(other))}")
    resolution = SidResolution.objects.select_related("district").get(pk=resolution.pk)
    amount = _money(annual_charge, "annual_charge")
    if amount < 0:
        raise ValidationError({"annual_charge": _("El cargo anual no puede ser negativo.")})
    if resolution.project_status != SidResolution.ProjectStatus.ACTIVE:
        raise ValidationError(_("El proyecto no se llevó a cabo: no se imponen cargos (SID-5)."))
    if not Membership.objects.filter(district=resolution.district_id, parcel=parcel).exists():
        raise ValidationError({"parcel": _("La parcela %(p)s no está incluida en el distrito.") % {"p": parcel}})
    charge, created = SidResolutionCharge.objects.select_for_update().get_or_create(
        resolution=resolution, parcel=parcel, defaults={"annual_charge": amount})
    if not created:
        if charge.annual_charge == amount:
            return charge
        charge.annual_charge = amount
    return _save(charge, actor=actor, action="sid.charge.set", summary=f"{resolution.number}: {parcel} {amount}",
                 data={"resolution": resolution.pk, "parcel": parcel.cadastre, "annual_charge": str(amount)})


@transaction.atomic
def sid_charges_set(*, actor, resolution: SidResolution, lines: Iterable[Mapping]) -> list[SidResolutionCharge]:
    """Several charges at once: each line a mapping with `parcel` and `annual_charge` only."""
    lines = list(lines)
    _refuse_sid1({key for line in lines for key in line})
    return [sid_charge_set(actor=actor, resolution=resolution, **dict(line)) for line in lines]


@transaction.atomic
def sid_crim_receipt_record(*, actor, resolution: SidResolution, received_on: date) -> SidResolution:
    """SID-2: CRIM received the certified copy. Opens the notice clock: the first regular-mail notice
    within 180 days, then one every year of the term (each moved past weekends and holidays)."""
    resolution = SidResolution.objects.select_for_update().select_related("district").get(pk=resolution.pk)
    if resolution.crim_received_on == received_on and resolution.notice_rounds.exists():
        return resolution
    if resolution.crim_received_on is not None:
        raise ValidationError({"received_on": _(RECEIPT_RECORDED) % {
            "d": resolution.crim_received_on.isoformat()}})
    if received_on < resolution.adopted_on:
        raise ValidationError({"received_on": _("El CRIM no puede recibirla antes de adoptarse.")})
    dues = clocks.schedule(clocks.SID_NOTICE, received_on, resolution.term_years)
    SidNoticeRound.objects.bulk_create([
        SidNoticeRound(resolution=resolution, sequence=k + 1, fiscal_year=resolution.first_fiscal_year + k,
                       due_on=d.due, moved_from=d.moved_from)
        for k, d in enumerate(dues)])
    resolution.crim_received_on = received_on
    _save(resolution, actor=actor, action="sid.resolution.crim_received",
          summary=f"{resolution}: CRIM {received_on.isoformat()}",
          data={"received_on": received_on.isoformat(), "first_notice_due": dues[0].due.isoformat(),
                "clock": clocks.SID_NOTICE})
    _open_notice_clock(resolution.notice_rounds.get(sequence=1), actor=actor)
    return resolution


def _open_notice_clock(notice_round, *, actor) -> None:
    """SID-2 / TID-4: the work-queue clock of one notice round (started by the receipt)."""
    if isinstance(notice_round, SidNoticeRound):
        parent, code = notice_round.resolution, clocks.SID_NOTICE
        start, district = parent.crim_received_on, parent.district
        label = _("Notificación SID por correo regular, año %(k)s (FY%(fy)s): %(r)s")
    else:
        parent, code = notice_round.ordinance, clocks.TID_NOTICE
        start, district = parent.association_received_on, parent.petition.district
        label = _("Notificación TID por correo certificado, año %(k)s (FY%(fy)s): %(r)s")
    clocks.open_clock(code=code, start=start, due_on=notice_round.due_on, target=notice_round, district=district,
                      label=label % {"k": notice_round.sequence, "fy": notice_round.fiscal_year, "r": parent},
                      actor=actor)


@transaction.atomic
def sid_notice_mailed(*, actor, notice_round: SidNoticeRound, mailed_on: date) -> SidNoticeRound:
    """SID-2: CRIM mailed this year's notices (regular mail); late when after the due date."""
    notice_round = SidNoticeRound.objects.select_for_update().select_related(
        "resolution", "resolution__district").get(pk=notice_round.pk)
    if notice_round.mailed_on == mailed_on:
        return notice_round
    if notice_round.mailed_on is not None:
        raise ValidationError({"mailed_on": _("Ya se registró el envío de esta notificación.")})
    received = notice_round.resolution.crim_received_on
    if received and mailed_on < received:
        raise ValidationError({"mailed_on": _("No puede enviarse antes de que el CRIM reciba la resolución.")})
    notice_round.mailed_on = mailed_on
    _save(notice_round, actor=actor, action="sid.notice.mailed",
          data={"mailed_on": mailed_on.isoformat(), "due_on": notice_round.due_on.isoformat(),
                "late": mailed_on > notice_round.due_on})
    clocks.meet_clock(code=clocks.SID_NOTICE, target=notice_round, on=mailed_on, actor=actor)
    following = notice_round.resolution.notice_rounds.filter(sequence=notice_round.sequence + 1).first()
    if following is not None:
        _open_notice_clock(following, actor=actor)
    return notice_round


def sid_batch_figures(received_on: date, collected: Decimal) -> tuple[Decimal, str, Remittance]:
    """SID-3 figures of a batch's total (the one place they are computed): the retention in force on
    the day of receipt, rounded once on the batch (docs/rules/README.md#money: per batch, never per payment).
    Returns (retention pct, parameters label, assessments.rules.sid.Remittance)."""
    pct, label = sid_retention_pct(received_on)
    return pct, label, remittance(collected, pct)


@transaction.atomic
def sid_batch_record(*, actor, resolution: SidResolution, received_on: date, collected, reference: str = "") \
        -> SidCollectionBatch:
    """SID-3: CRIM received a batch of collections. 5 % retained (rounded once on the batch), the
    rest remitted to the Authority within 90 days of receipt, moved past weekends and holidays.
    Recording the same batch twice changes nothing."""
    resolution = SidResolution.objects.select_for_update().select_related("district").get(pk=resolution.pk)
    amount = _money(collected, "collected")
    if amount < 0:
        raise ValidationError({"collected": _("El recaudo no puede ser negativo.")})
    existing = SidCollectionBatch.objects.filter(resolution=resolution, received_on=received_on,
                                                 reference=reference).first()
    if existing is not None:
        if existing.collected == amount:
            return existing
        raise ValidationError({"reference": _("Ya existe ese lote con otro monto (%(a)s).") % {
            "a": existing.collected}})
    if resolution.crim_received_on is None or received_on < resolution.crim_received_on:
        raise ValidationError({"received_on": _("El CRIM cobra solo después de recibir la resolución.")})
    pct, label, result = sid_batch_figures(received_on, amount)
    deadline = clocks.due(clocks.SID_REMITTANCE, received_on)
    batch = SidCollectionBatch(
        resolution=resolution, reference=reference, received_on=received_on, collected=amount,
        retention_pct=pct, retained=result.retained, remitted=result.remitted, parameters_label=label,
        remittance_due_on=deadline.due, remittance_moved_from=deadline.moved_from)
    _save(batch, actor=actor, action="sid.batch.record",
          summary=f"{resolution.number}: {amount} ({received_on.isoformat()})",
          data={"collected": str(amount), "retained": str(result.retained), "remitted": str(result.remitted),
                "remittance_due_on": deadline.due.isoformat(), "rule": "SID-3", "parameters": label})
    clocks.open_clock(code=clocks.SID_REMITTANCE, start=received_on, due_on=deadline.due, target=batch,
                      district=resolution.district, actor=actor,
                      label=_("Remesa SID a la Autoridad ($%(m)s): %(r)s") % {"m": result.remitted, "r": resolution})
    return batch


@transaction.atomic
def sid_batch_extend(*, actor, batch: SidCollectionBatch, collected: Decimal) -> SidCollectionBatch:
    """SID-3: more of the same day's collections in a batch not yet remitted (the collections feed).
    The retention is recomputed on the batch's new total and rounded once (sid_batch_figures)."""
    batch = SidCollectionBatch.objects.select_for_update().get(pk=batch.pk)
    if batch.remitted_on is not None:
        raise ValidationError({"collected": _("El lote ya se remitió: lo cobrado después va en otro lote.")})
    if collected < 0:   # a returned payment lowers the batch, never below zero (rules.batch_extension flags that)
        raise ValidationError({"collected": _("Lo cobrado en un lote no puede ser negativo: %(new)s.") % {
            "new": collected}})
    pct, label, result = sid_batch_figures(batch.received_on, collected)
    before = batch.collected
    batch.collected, batch.retention_pct, batch.parameters_label = collected, pct, label
    batch.retained, batch.remitted = result.retained, result.remitted
    batch.save(update_fields=["collected", "retention_pct", "parameters_label", "retained", "remitted",
                              "updated_at"])
    audit(actor=actor, action="sid.batch.extend", target=batch, summary=f"{batch}: {before} → {collected}",
          data={"before": str(before), "collected": str(collected), "retained": str(result.retained),
                "remitted": str(result.remitted), "rule": "SID-3", "parameters": label})
    return batch


@transaction.atomic
def sid_batch_remit(*, actor, batch: SidCollectionBatch, remitted_on: date) -> SidCollectionBatch:
    """SID-3: CRIM remitted the batch's 95 % to the Authority; late when after the due date."""
    batch = SidCollectionBatch.objects.select_for_update().get(pk=batch.pk)
    if batch.remitted_on == remitted_on:
        return batch
    if batch.remitted_on is not None:
        raise ValidationError({"remitted_on": _("Ya se registró la remesa de este lote.")})
    if remitted_on < batch.received_on:
        raise ValidationError({"remitted_on": _("La remesa no puede ser anterior al recibo.")})
    batch.remitted_on = remitted_on
    batch.remitted_late = remitted_on > batch.remittance_due_on
    _save(batch, actor=actor, action="sid.batch.remit",
          data={"remitted_on": remitted_on.isoformat(), "due_on": batch.remittance_due_on.isoformat(),
                "late": batch.remitted_late})
    clocks.meet_clock(code=clocks.SID_REMITTANCE, target=batch, on=remitted_on, actor=actor)
    return batch


@transaction.atomic
def sid_project_not_carried_out(*, actor, resolution: SidResolution, on: date, reason: str) -> SidResolution:
    """SID-5: the financed project will not be carried out; owners' payments are to be refunded."""
    resolution = SidResolution.objects.select_for_update().get(pk=resolution.pk)
    if resolution.project_status == SidResolution.ProjectStatus.NOT_CARRIED_OUT:
        return resolution
    if not reason.strip():
        raise ValidationError({"reason": _("Indique el motivo.")})
    resolution.project_status = SidResolution.ProjectStatus.NOT_CARRIED_OUT
    resolution.not_carried_out_on = on
    resolution.not_carried_out_reason = reason
    return _save(resolution, actor=actor, action="sid.project.not_carried_out", data={"on": on.isoformat(),
                                                                                        "reason": reason})


def _as_payment(row, resolution: SidResolution, charged: set[int]) -> rules.PaymentRow:
    if isinstance(row, rules.PaymentRow):
        parcel_id, party_id, paid = row.parcel_id, row.party_id, row.paid
    else:
        parcel, party, paid = row
        parcel_id = parcel.pk if hasattr(parcel, "pk") else int(parcel)
        party_id = party.pk if hasattr(party, "pk") else int(party)
    if parcel_id not in charged:
        raise ValidationError({"payments": _("La parcela %(p)s no tiene cargos en la resolución %(r)s.") % {
            "p": parcel_id, "r": resolution.number}})
    return rules.PaymentRow(parcel_id=parcel_id, party_id=party_id, paid=_money(paid, "payments"))


@transaction.atomic
def sid_refund_create(*, actor, resolution: SidResolution, payments: Iterable, decided_on: date,
                      notes: str = "") -> SidRefund:
    """SID-5: refund everything the owners paid, gross, CRIM's 5 % included. `payments` are the
    owners' payments on this resolution's charges — (parcel, party, amount paid) rows supplied by
    the caller, since payments live in assessments. Sources recorded separately: the Authority's
    remitted 95 %, the fund's undistributed balance, and CRIM's retention flagged for recovery."""
    resolution = SidResolution.objects.select_for_update().get(pk=resolution.pk)
    if resolution.project_status != SidResolution.ProjectStatus.NOT_CARRIED_OUT:
        raise ValidationError(_("SID-5: solo se devuelve cuando el proyecto no se lleva a cabo."))
    if SidRefund.objects.filter(resolution=resolution).exists():
        raise ValidationError(_("Ya se calculó la devolución de esta resolución."))
    charged = set(resolution.charges.values_list("parcel_id", flat=True))
    rows = [_as_payment(row, resolution, charged) for row in payments]
    parties = set(Party.objects.filter(pk__in={r.party_id for r in rows}).values_list("pk", flat=True))
    missing = sorted({r.party_id for r in rows} - parties)
    if missing:
        raise ValidationError({"payments": _("Personas inexistentes: %(ids)s") % {"ids": missing}})
    batches = list(resolution.batches.all())
    crim_retained = sum((b.retained for b in batches), Decimal("0.00"))
    authority = sum((b.remitted for b in batches if b.remitted_on is not None), Decimal("0.00"))
    try:
        plan = rules.refund_plan(rows, crim_retained=crim_retained, authority_remitted=authority)
    except rules.RefundError as exc:
        raise ValidationError({"payments": str(exc)}) from None
    refund = SidRefund.objects.create(
        resolution=resolution, decided_on=decided_on, total=plan.total, from_authority=plan.from_authority,
        from_fund=plan.from_fund, from_crim=plan.from_crim, crim_recovery_pending=plan.from_crim > 0, notes=notes)
    SidRefundLine.objects.bulk_create([
        SidRefundLine(refund=refund, parcel_id=line.parcel_id, party_id=line.party_id, paid=line.paid,
                      from_authority=line.from_authority, from_fund=line.from_fund, from_crim=line.from_crim)
        for line in plan.lines])
    audit(actor=actor, action="sid.refund.create", target=refund, summary=str(refund),
          data={"total": str(plan.total), "from_authority": str(plan.from_authority),
                "from_fund": str(plan.from_fund), "from_crim": str(plan.from_crim), "lines": len(plan.lines),
                "crim_recovery_pending": refund.crim_recovery_pending, "rule": "SID-5"})
    if refund.crim_recovery_pending:
        workqueue.flag_raise(
            kind=Flag.Kind.OTHER, target=refund, rule="SID-5", severity=Flag.Severity.HIGH, opened_on=decided_on,
            actor=actor, description=_("Recobrar del CRIM su retención de $%(a)s para la devolución de la "
                                       "resolución %(r)s (SID-5).") % {"a": plan.from_crim, "r": resolution.number})
    return refund


@transaction.atomic
def sid_refund_crim_recovered(*, actor, refund: SidRefund, on: date) -> SidRefund:
    """SID-5: CRIM returned its retention for the refund."""
    refund = SidRefund.objects.select_for_update().get(pk=refund.pk)
    if refund.crim_recovered_on == on:
        return refund
    if not refund.crim_recovery_pending:
        raise ValidationError(_("No hay recobro pendiente del CRIM."))
    refund.crim_recovery_pending = False
    refund.crim_recovered_on = on
    refund.save(update_fields=["crim_recovery_pending", "crim_recovered_on", "updated_at"])
    audit(actor=actor, action="sid.refund.crim_recovered", target=refund, summary=str(refund),
          data={"on": on.isoformat(), "amount": str(refund.from_crim)})
    content_type = ContentType.objects.get_for_model(refund)
    for flag in Flag.objects.filter(content_type=content_type, object_id=refund.pk, rule="SID-5",
                                    resolved_on__isnull=True):
        workqueue.flag_resolve(flag=flag, actor=actor, on=on, resolution=_("Retención recobrada del CRIM."))
    return refund


# === TID ========================================================================================

@transaction.atomic
def tid_petition_create(*, actor, district: District, municipality: Municipality, petition_text: str,
                        legislature_received_on: date) -> TidPetition:
    """TID-1: the Municipal Legislature received the mayor's petition; the ordinance is due in 90 days."""
    deadline = clocks.due(clocks.TID_ORDINANCE, legislature_received_on)
    petition = TidPetition(district=district, municipality=municipality, petition_text=petition_text,
                           legislature_received_on=legislature_received_on, ordinance_due_on=deadline.due,
                           ordinance_due_moved_from=deadline.moved_from)
    _save(petition, actor=actor, action="tid.petition.create",
          data={"district": district.code, "received_on": legislature_received_on.isoformat(),
                "ordinance_due_on": deadline.due.isoformat(), "clock": clocks.TID_ORDINANCE})
    clocks.open_clock(code=clocks.TID_ORDINANCE, start=legislature_received_on, due_on=deadline.due, target=petition,
                      district=district, actor=actor,
                      label=_("Ordenanza de la Legislatura Municipal: %(p)s") % {"p": petition})
    return petition


def _open_petition(petition: TidPetition) -> TidPetition:
    petition = TidPetition.objects.select_for_update().get(pk=petition.pk)
    if petition.status != TidPetition.Status.RECEIVED:
        raise ValidationError(_("La Legislatura ya decidió esta petición."))
    return petition


@transaction.atomic
def tid_finding_record(*, actor, petition: TidPetition, factor: str, finding: str, notes: str = "") -> TidFactorFinding:
    """TID-1: the Legislature's finding on factor (a)–(e)."""
    petition = _open_petition(petition)
    if factor not in rules.FACTORS:
        raise ValidationError({"factor": _("Factor inválido.")})
    row = TidFactorFinding.objects.filter(petition=petition, factor=factor).first() or \
        TidFactorFinding(petition=petition, factor=factor)
    if row.pk and row.finding == finding and row.notes == notes:
        return row
    row.finding, row.notes = finding, notes
    return _save(row, actor=actor, action="tid.finding.record", summary=f"{petition}: ({factor}) {finding}",
                 data={"petition": petition.pk, "factor": factor, "finding": finding})


@transaction.atomic
def tid_petition_deny(*, actor, petition: TidPetition, on: date) -> TidPetition:
    """TID-1: the Legislature declines to authorize the district."""
    petition = _open_petition(petition)
    if on < petition.legislature_received_on:
        raise ValidationError({"on": _("No puede ser anterior al recibo de la petición.")})
    petition.status = TidPetition.Status.DENIED
    petition.denied_on = on
    _save(petition, actor=actor, action="tid.petition.deny", data={"on": on.isoformat()})
    clocks.meet_clock(code=clocks.TID_ORDINANCE, target=petition, on=on, actor=actor)
    return petition


def check_formula(text: str, district: District | None = None, on: date | None = None):
    """TID-2: parse the formula, then evaluate it over the district's member parcels (a division by
    zero or a negative charge on any of them refuses it too). Raises FormulaRefused."""
    try:
        formula = parse(text or "")
    except FormulaError as exc:
        raise FormulaRefused(exc) from None
    if district is not None:
        try:
            compute_charges(formula, [tid_parcel(p) for p in member_parcels(district, on)])
        except FormulaError as exc:
            raise FormulaRefused(exc) from None
    return formula


@transaction.atomic
def tid_ordinance_issue(*, actor, petition: TidPetition, number: str, name: str, issued_on: date, expected_amount,
                        term_years: int, first_fiscal_year: int, formula: str, due_dates: list[str] | None = None,
                        association_authorized: bool = False) -> TidOrdinance:
    """TID-1/TID-2: the Legislature issues the ordinance (name, expected amount, term, formula).

    All five factors must have a favorable finding. A bad formula is refused with its position and
    reason. Issued after the 90-day term, the ordinance is recorded and flagged late."""
    petition = _open_petition(petition)
    findings = {f.factor: f.finding == TidFactorFinding.Finding.FAVORABLE for f in petition.findings.all()}
    missing, unfavorable = rules.missing_or_unfavorable(findings)
    if missing:
        raise ValidationError(_("TID-1: faltan las determinaciones de los factores %(f)s.") % {
            "f": ", ".join(f"({m})" for m in missing)})
    if unfavorable:
        raise ValidationError(_("TID-1: los factores %(f)s son desfavorables; la ordenanza no puede autorizar "
                                "el distrito.") % {"f": ", ".join(f"({u})" for u in unfavorable)})
    if issued_on < petition.legislature_received_on:
        raise ValidationError({"issued_on": _("No puede ser anterior al recibo de la petición.")})
    check_formula(formula, petition.district)
    ordinance = TidOrdinance(
        petition=petition, number=number, name=name, issued_on=issued_on,
        issued_late=issued_on > petition.ordinance_due_on, expected_amount=_money(expected_amount, "expected_amount"),
        term_years=term_years, first_fiscal_year=first_fiscal_year, formula=formula.strip(),
        due_dates=rules.normalize_month_days(due_dates or []) if _valid_month_days(due_dates) else due_dates,
        association_authorized=association_authorized)
    _save(ordinance, actor=actor, action="tid.ordinance.issue", summary=str(ordinance),
          data={"petition": petition.pk, "issued_on": issued_on.isoformat(), "late": ordinance.issued_late,
                "formula": ordinance.formula, "expected_amount": str(ordinance.expected_amount)})
    petition.status = TidPetition.Status.ORDINANCE
    petition.save(update_fields=["status", "updated_at"])
    clocks.meet_clock(code=clocks.TID_ORDINANCE, target=petition, on=issued_on, actor=actor)
    return ordinance


def _locked(ordinance: TidOrdinance) -> TidOrdinance:
    return TidOrdinance.objects.select_for_update().select_related("petition", "petition__district").get(
        pk=ordinance.pk)


@transaction.atomic
def tid_ordinance_formula_change(*, actor, ordinance: TidOrdinance, formula: str, expected_amount=None) -> TidOrdinance:
    """TID-2: correct the formula (or expected amount) before the mayor decides."""
    ordinance = _locked(ordinance)
    if ordinance.mayor_decision != TidOrdinance.Decision.PENDING:
        raise ValidationError(_("El alcalde ya decidió: la ordenanza no puede cambiar."))
    check_formula(formula, ordinance.petition.district)
    before = ordinance.formula
    ordinance.formula = formula.strip()
    if expected_amount is not None:
        ordinance.expected_amount = _money(expected_amount, "expected_amount")
    return _save(ordinance, actor=actor, action="tid.ordinance.formula",
                 data={"before": before, "after": ordinance.formula})


@transaction.atomic
def tid_mayor_receipt(*, actor, ordinance: TidOrdinance, received_on: date) -> TidOrdinance:
    """TID-1: the mayor received the ordinance; the decision is due within 30 days."""
    ordinance = _locked(ordinance)
    if ordinance.mayor_received_on == received_on:
        return ordinance
    if ordinance.mayor_received_on is not None:
        raise ValidationError({"received_on": _(RECEIPT_RECORDED) % {"d": f"{ordinance.mayor_received_on:%d/%m/%Y}"}})
    if received_on < ordinance.issued_on:
        raise ValidationError({"received_on": _("No puede recibirla antes de aprobarse.")})
    deadline = clocks.due(clocks.TID_MAYOR, received_on)
    ordinance.mayor_received_on = received_on
    ordinance.mayor_due_on = deadline.due
    _save(ordinance, actor=actor, action="tid.ordinance.mayor_received",
          data={"received_on": received_on.isoformat(), "due_on": deadline.due.isoformat(), "clock": clocks.TID_MAYOR})
    clocks.open_clock(code=clocks.TID_MAYOR, start=received_on, due_on=deadline.due, target=ordinance,
                      district=ordinance.petition.district, actor=actor,
                      label=_("Decisión del alcalde sobre la ordenanza %(o)s") % {"o": ordinance})
    return ordinance


@transaction.atomic
def tid_mayor_decide(*, actor, ordinance: TidOrdinance, decision: str, decided_on: date) -> TidOrdinance:
    """TID-1: the mayor approves or disapproves (late when after the 30 days). On approval the
    publication clock starts: once, during the week after approval."""
    ordinance = _locked(ordinance)
    if ordinance.mayor_decision == decision and ordinance.decided_on == decided_on:
        return ordinance
    if ordinance.mayor_decision != TidOrdinance.Decision.PENDING:
        raise ValidationError(_("El alcalde ya decidió."))
    if decision not in (TidOrdinance.Decision.APPROVED, TidOrdinance.Decision.DISAPPROVED):
        raise ValidationError({"decision": _("Indique si la aprueba o la desaprueba.")})
    if ordinance.mayor_received_on is None:
        raise ValidationError(_("Registre primero la fecha en que el alcalde recibió la ordenanza."))
    if decided_on < ordinance.mayor_received_on:
        raise ValidationError({"decided_on": _("No puede decidir antes de recibirla.")})
    ordinance.mayor_decision = decision
    ordinance.decided_on = decided_on
    ordinance.decided_late = decided_on > ordinance.mayor_due_on
    data = {"decision": decision, "decided_on": decided_on.isoformat(), "late": ordinance.decided_late}
    petition = ordinance.petition
    if decision == TidOrdinance.Decision.APPROVED:
        deadline = clocks.due(clocks.TID_PUBLICATION, decided_on)
        ordinance.publication_due_on = deadline.due
        petition.status = TidPetition.Status.APPROVED
        data.update(publication_due_on=deadline.due.isoformat(), clock=clocks.TID_PUBLICATION)
    else:
        petition.status = TidPetition.Status.DISAPPROVED
    _save(ordinance, actor=actor, action="tid.ordinance.mayor_decision", data=data)
    petition.save(update_fields=["status", "updated_at"])
    clocks.meet_clock(code=clocks.TID_MAYOR, target=ordinance, on=decided_on, actor=actor)
    if decision == TidOrdinance.Decision.APPROVED:
        clocks.open_clock(code=clocks.TID_PUBLICATION, start=decided_on, due_on=ordinance.publication_due_on,
                          target=ordinance, district=petition.district, actor=actor,
                          label=_("Publicación de la ordenanza %(o)s en un periódico") % {"o": ordinance})
    return ordinance


@transaction.atomic
def tid_publication_record(*, actor, ordinance: TidOrdinance, newspaper: str, published_on: date) -> TidOrdinance:
    """TID-1: published once, at the petitioner's cost, in a newspaper of general circulation during
    the week after the mayor's approval (the approval date + 7 days, moved past holidays). A late
    publication is recorded with a flag for legal review (Flag LATE_PUBLICATION), never refused."""
    ordinance = _locked(ordinance)
    if ordinance.published_on == published_on and ordinance.newspaper == newspaper:
        return ordinance
    if ordinance.mayor_decision != TidOrdinance.Decision.APPROVED:
        raise ValidationError(_("Solo se publica una ordenanza aprobada por el alcalde."))
    if ordinance.published_on is not None:
        raise ValidationError(_("La ordenanza se publica una sola vez; ya se publicó el %(d)s.") % {
            "d": ordinance.published_on.isoformat()})
    if not newspaper.strip():
        raise ValidationError({"newspaper": _("Indique el periódico de circulación general.")})
    if published_on < ordinance.decided_on:
        raise ValidationError({"published_on": _(
            "TID-1: la ordenanza se publica después de la aprobación del alcalde (%(d)s).") % {
            "d": ordinance.decided_on.strftime("%d/%m/%Y")}})
    # The statute sets the week but no consequence for missing it: a late publication is recorded
    # and flagged for legal review, never refused, and billing goes on (docs/rules, TID-1).
    late = published_on > ordinance.publication_due_on
    ordinance.newspaper = newspaper.strip()
    ordinance.published_on = published_on
    _save(ordinance, actor=actor, action="tid.ordinance.publish",
          data={"newspaper": ordinance.newspaper, "published_on": published_on.isoformat(), "late": late})
    if late:
        workqueue.flag_raise(
            kind=Flag.Kind.LATE_PUBLICATION, target=ordinance, rule="TID-1", severity=Flag.Severity.HIGH,
            opened_on=published_on, actor=actor,
            description=_("Publicada el %(p)s en %(n)s, después del plazo de la semana siguiente a la aprobación "
                          "(vencía el %(d)s). Revisión legal; no impide la facturación.") % {
                "p": published_on.strftime("%d/%m/%Y"), "n": ordinance.newspaper,
                "d": ordinance.publication_due_on.strftime("%d/%m/%Y")})
    petition = ordinance.petition
    petition.status = TidPetition.Status.PUBLISHED
    petition.save(update_fields=["status", "updated_at"])
    clocks.meet_clock(code=clocks.TID_PUBLICATION, target=ordinance, on=published_on, actor=actor)
    return ordinance


@transaction.atomic
def tid_collector_set(*, actor, ordinance: TidOrdinance, collector: str, copy_sent_to_crim_on: date | None = None,
                      association: Party | None = None) -> TidOrdinance:
    """TID-3: CRIM collects, or — only when the ordinance authorizes it — the district's association.
    The municipality sends CRIM a copy of the ordinance either way."""
    ordinance = _locked(ordinance)
    if ordinance.mayor_decision != TidOrdinance.Decision.APPROVED:
        raise ValidationError(_("La ordenanza no está aprobada por el alcalde."))
    wanted_association = association.pk if association and collector == TidOrdinance.Collector.ASSOCIATION else None
    if (ordinance.collector, ordinance.association_id, ordinance.copy_sent_to_crim_on) == (
            collector, wanted_association, copy_sent_to_crim_on):
        return ordinance  # nothing changes
    if collector == TidOrdinance.Collector.ASSOCIATION:
        if not ordinance.association_authorized:
            raise ValidationError({"collector": _("TID-3: la ordenanza no autoriza a la asociación a cobrar.")})
        if association is None or association.kind != Party.Kind.ORGANIZATION:
            raise ValidationError({"association": _("Indique la asociación (una organización).")})
    elif collector == TidOrdinance.Collector.CRIM:
        association = None
    else:
        raise ValidationError({"collector": _("Cobrador inválido.")})
    if ordinance.association_received_on and (collector != ordinance.collector
                                              or association != ordinance.association):
        raise ValidationError(_("La asociación ya recibió la ordenanza: el cobrador no puede cambiar."))
    if copy_sent_to_crim_on and copy_sent_to_crim_on < ordinance.decided_on:
        raise ValidationError({"copy_sent_to_crim_on": _("No puede ser anterior a la aprobación.")})
    ordinance.collector = collector
    ordinance.association = association
    ordinance.copy_sent_to_crim_on = copy_sent_to_crim_on
    return _save(ordinance, actor=actor, action="tid.ordinance.collector",
                 data={"collector": collector, "association": association.pk if association else None,
                       "copy_sent_to_crim_on": copy_sent_to_crim_on.isoformat() if copy_sent_to_crim_on else None})


@transaction.atomic
def tid_association_receipt(*, actor, ordinance: TidOrdinance, received_on: date) -> TidOrdinance:
    """TID-4: the association received the ordinance: certified-mail notices to every owner within
    30 days, then at least yearly until the term ends."""
    ordinance = _locked(ordinance)
    if ordinance.association_received_on == received_on and ordinance.notice_rounds.exists():
        return ordinance
    if ordinance.collector != TidOrdinance.Collector.ASSOCIATION or ordinance.association_id is None:
        raise ValidationError(_("TID-4: solo una asociación autorizada notifica por correo certificado."))
    if ordinance.association_received_on is not None:
        raise ValidationError({"received_on": _(RECEIPT_RECORDED) % {
            "d": ordinance.association_received_on.isoformat()}})
    if received_on < ordinance.decided_on:
        raise ValidationError({"received_on": _("No puede recibirla antes de la aprobación del alcalde.")})
    dues = clocks.schedule(clocks.TID_NOTICE, received_on, ordinance.term_years)
    TidNoticeRound.objects.bulk_create([
        TidNoticeRound(ordinance=ordinance, sequence=k + 1, fiscal_year=ordinance.first_fiscal_year + k,
                       due_on=d.due, moved_from=d.moved_from)
        for k, d in enumerate(dues)])
    ordinance.association_received_on = received_on
    _save(ordinance, actor=actor, action="tid.ordinance.association_received",
          data={"received_on": received_on.isoformat(), "first_notice_due": dues[0].due.isoformat(),
                "clock": clocks.TID_NOTICE})
    _open_notice_clock(ordinance.notice_rounds.get(sequence=1), actor=actor)
    return ordinance


@transaction.atomic
def tid_notice_mailed(*, actor, notice_round: TidNoticeRound, mailed_on: date) -> TidNoticeRound:
    """TID-4: the association mailed this year's certified-mail notices; late when after the due date."""
    notice_round = TidNoticeRound.objects.select_for_update().select_related(
        "ordinance", "ordinance__petition", "ordinance__petition__district").get(pk=notice_round.pk)
    if notice_round.mailed_on == mailed_on:
        return notice_round
    if notice_round.mailed_on is not None:
        raise ValidationError({"mailed_on": _("Ya se registró el envío de esta notificación.")})
    received = notice_round.ordinance.association_received_on
    if received and mailed_on < received:
        raise ValidationError({"mailed_on": _("No puede enviarse antes de que la asociación reciba la ordenanza.")})
    notice_round.mailed_on = mailed_on
    _save(notice_round, actor=actor, action="tid.notice.mailed",
          data={"mailed_on": mailed_on.isoformat(), "due_on": notice_round.due_on.isoformat(),
                "late": mailed_on > notice_round.due_on})
    clocks.meet_clock(code=clocks.TID_NOTICE, target=notice_round, on=mailed_on, actor=actor)
    following = notice_round.ordinance.notice_rounds.filter(sequence=notice_round.sequence + 1).first()
    if following is not None:
        _open_notice_clock(following, actor=actor)
    return notice_round


def _account_facts(ordinance: TidOrdinance) -> list[rules.AccountEntryFact]:
    return [rules.AccountEntryFact(on=e.entry_date, kind=e.kind, amount=e.amount, admin_expense=e.admin_expense)
            for e in ordinance.account_entries.all()]


@transaction.atomic
def tid_account_entry_add(*, actor, ordinance: TidOrdinance, kind: str, entry_date: date, amount, purpose: str,
                          admin_expense: bool = False, supporting_document=None) -> TidAccountEntry:
    """TID-5: a deposit of collections or an expense in the association's special account.

    An administrative expense that would take administrative expenses to date above 5 % of
    collections to date (on its date or any later date with administrative expenses) is refused
    with the figures."""
    ordinance = _locked(ordinance)
    if ordinance.collector != TidOrdinance.Collector.ASSOCIATION:
        raise ValidationError(_("TID-5: la cuenta especial es de la asociación autorizada a cobrar."))
    value = _money(amount, "amount")
    if value <= 0:
        raise ValidationError({"amount": _("El monto debe ser positivo.")})
    if kind not in TidAccountEntry.Kind.values:
        raise ValidationError({"kind": _("Tipo inválido.")})
    if kind == TidAccountEntry.Kind.DEPOSIT and admin_expense:
        raise ValidationError({"admin_expense": _("Un depósito no es un gasto administrativo.")})
    if entry_date < ordinance.issued_on:
        # The account exists from the ordinance on; an earlier date is a typing error (0127 for 2027).
        raise ValidationError({"entry_date": _("La fecha %(d)s es anterior a la ordenanza, aprobada el %(o)s.") % {
            "d": entry_date.strftime("%d/%m/%Y"), "o": ordinance.issued_on.strftime("%d/%m/%Y")}})
    figures = {}
    if kind == TidAccountEntry.Kind.EXPENSE and admin_expense:
        try:
            pct = tid_cap_pct(entry_date)
        except LookupError as exc:  # no TID-5 parameters in force on that date
            raise ValidationError({"entry_date": _("No hay parámetros de TID-5 vigentes el %(d)s.") % {
                "d": entry_date.strftime("%d/%m/%Y")}}) from exc
        result = rules.admin_cap_on_timeline(_account_facts(ordinance), on=entry_date, proposed=value, cap_pct=pct)
        if not result.allowed:
            raise AdminCapExceeded(result.check, result.collected_to_date, pct, result.on)
        figures = {"cap": str(result.check.cap), "spent_after": str(result.check.spent_after),
                   "collected_to_date": str(result.collected_to_date), "rule": "TID-5"}
    entry = TidAccountEntry(ordinance=ordinance, kind=kind, entry_date=entry_date, amount=value,
                            purpose=purpose, admin_expense=admin_expense)
    if supporting_document:
        entry.supporting_document = supporting_document
    return _save(entry, actor=actor, action="tid.account.entry",
                 summary=f"{ordinance.number}: {entry}", data={"kind": kind, "amount": str(value),
                                                               "admin_expense": admin_expense, **figures})


@transaction.atomic
def tid_audit_record(*, actor, ordinance: TidOrdinance, fiscal_year: int, cpa_name: str, received_on: date,
                     report=None) -> TidAudit:
    """TID-5: the CPA's yearly audit of the special account."""
    if TidAudit.objects.filter(ordinance=ordinance, fiscal_year=fiscal_year).exists():
        raise ValidationError({"fiscal_year": _("Ya se registró la auditoría de ese año fiscal.")})
    row = TidAudit(ordinance=ordinance, fiscal_year=fiscal_year, cpa_name=cpa_name, received_on=received_on)
    if report:
        row.report = report
    return _save(row, actor=actor, action="tid.audit.record",
                 data={"fiscal_year": fiscal_year, "cpa_name": cpa_name, "received_on": received_on.isoformat()})
