"""Every write of the roll cycle. Each is idempotent: run twice, change nothing the second time."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from assessments.rolls import generate, irr9, progress
from assessments.rolls.models import CertifiedFigures, Roll, RollJob, RollLine, RollOverride
from assessments.rules.irrigation import IrrigationInputError
from assessments.rules.lajas import LajasInputError
from core.audit import audit
from core.fiscal import fiscal_year_start
from core.parameters import DatabaseParameters
from districts.models import District

logger = logging.getLogger(__name__)
UNEXPECTED = "Error inesperado"   # how a job's message starts when it failed for no known reason

IRR_FIELDS = ("bond_interest", "bond_principal", "bonds_outstanding", "om_cost", "deficit", "surplus",
              "estimated_hydro_income", "hydro_retained", "other_income")
LAJ_FIELDS = ("om_estimate", "reserve", "water_right_credits", "deficit", "surplus", "misc_income")


class RollError(ValidationError):
    """A roll operation refused, with the reason for the person who asked."""


@dataclass
class Outcome:
    roll: Roll
    changed: bool
    message: str


def district_for_roll(code: str) -> District:
    try:
        district = District.objects.get(code=code)
    except District.DoesNotExist:
        raise RollError(f"No existe el distrito «{code}».") from None
    if district.kind not in (District.Kind.IRRIGATION, District.Kind.LAJAS):
        raise RollError(f"{district.name} no es un distrito de riego: no tiene padrón anual.")
    return district


def figure_fields(district: District) -> tuple[str, ...]:
    return IRR_FIELDS if district.kind == District.Kind.IRRIGATION else LAJ_FIELDS


@transaction.atomic
def figures_save(*, district: District, fiscal_year: int, figures: dict, certified_by: str, certified_on: date,
                 document=None, actor) -> CertifiedFigures:
    """Record (or correct, while no roll is certified) a fiscal year's certified figures.

    The figures are checked by the rule engine itself (reserve ≤ 2 %, retained hydro ≤ 25 %, …)
    so the form refuses exactly what a roll would refuse.
    """
    from assessments.compute import ComputeInputError, run

    clean = {k: str(Decimal(str(figures.get(k, "0")))) for k in figure_fields(district)}
    if district.kind == District.Kind.IRRIGATION and figures.get("unpayable_bond_amount"):
        clean["unpayable_bond_amount"] = str(Decimal(str(figures["unpayable_bond_amount"])))
    probe = {"fiscal_year": fiscal_year, **{k: clean[k] for k in figure_fields(district)}, "parcels": []}
    if district.kind == District.Kind.IRRIGATION:
        probe["completion_certified_on"] = None
    try:
        run("irrigation-roll" if district.kind == District.Kind.IRRIGATION else "lajas-roll", probe,
            params=DatabaseParameters())
    except ComputeInputError as exc:
        if exc.field in clean or exc.field == "fiscal_year":
            raise ValidationError({exc.field: exc.message}) from None
    existing = CertifiedFigures.objects.filter(district=district, fiscal_year=fiscal_year).first()
    if existing and Roll.objects.filter(figures=existing).exclude(status=Roll.Status.DRAFT).exists():
        raise RollError("El padrón de ese año ya está certificado: las cifras no se pueden cambiar.")
    obj = existing or CertifiedFigures(district=district, fiscal_year=fiscal_year)
    obj.figures, obj.certified_by, obj.certified_on, obj.entered_by = clean, certified_by, certified_on, actor
    if document is not None:
        obj.document = document
    obj.save()
    audit(actor=actor, action="figures.save", target=obj, summary=f"Cifras certificadas {obj}", data=clean)
    return obj


def roll_generate(*, district_code: str, fiscal_year: int, actor=None, job: RollJob | None = None,
                  echo=None) -> Outcome:
    """Build (or rebuild) the draft roll of a district and year from the register and the figures.

    All of it happens in one transaction: a worker killed half way leaves no partial roll, and
    the redelivered task builds it once. A certified or finalized roll is left as it is.
    """
    district = district_for_roll(district_code)
    figures = CertifiedFigures.objects.filter(district=district, fiscal_year=fiscal_year).first()
    if figures is None:
        raise RollError(f"Faltan las cifras certificadas de {district.code} para el año fiscal {fiscal_year}.")
    existing = Roll.objects.filter(district=district, fiscal_year=fiscal_year).first()
    if existing is not None and existing.status != Roll.Status.DRAFT:
        # Nothing to do, and the page must not wait: the job ends at once, saying why (FAILED: it did not run).
        outcome = Outcome(existing, False, generate_refusal(existing))
        progress.refuse(job, outcome.message)
        return outcome
    try:
        generate.check_register(district)
    except generate.RollInputError as exc:
        raise RollError(str(exc)) from None
    report = progress.Reporter(job, total=district.memberships.filter(excluded_on__isnull=True).count(), echo=echo)
    try:
        with transaction.atomic():
            roll = (Roll.objects.select_for_update().filter(district=district, fiscal_year=fiscal_year).first())
            if roll is not None and roll.status != Roll.Status.DRAFT:   # certified while we waited for the lock
                outcome = Outcome(roll, False, generate_refusal(roll))
                report.fail(outcome.message)
                return outcome
            if roll is None:
                roll = Roll.objects.create(district=district, fiscal_year=fiscal_year, figures=figures)
            else:
                _delete_lines(roll)
            writer = generate_writer()
            engine = (generate.generate_irrigation if district.kind == District.Kind.IRRIGATION
                      else generate.generate_lajas)
            result = engine(district, {"fiscal_year": fiscal_year, **figures.figures}, DatabaseParameters(),
                            writer.add, roll.pk, report.update)
            writer.flush()
            roll.figures, roll.totals, roll.parameters = figures, result.totals, result.parameters
            roll.line_count, roll.generated_at, roll.generated_by = result.line_count, timezone.now(), actor
            roll.save()
            audit(actor=actor, action="roll.generate", target=roll, summary=f"Padrón generado: {roll}",
                  data={"lines": result.line_count, "total": result.totals.get("total")})
    except (IrrigationInputError, LajasInputError) as exc:
        report.fail(str(exc))
        raise RollError(f"{exc.field}: {exc.message}") from None
    report.finish(f"{result.line_count} líneas")
    return Outcome(roll, True, f"{roll}: {result.line_count} líneas, total {result.totals.get('total')}.")


def generate_refusal(roll: Roll) -> str:
    """Why a roll past its draft is not generated again (its lines are billed; corrections are new entries)."""
    return _("El padrón %(roll)s ya está %(status)s: no se vuelve a generar. Las correcciones se hacen con "
             "ajustes y correcciones del padrón.") % {"roll": roll, "status": roll.get_status_display().lower()}


def _delete_lines(roll: Roll) -> None:
    """Drop a draft's lines in SQL: Django's cascading delete would load every line into memory."""
    RollOverride.objects.filter(line__roll=roll).delete()
    RollLine.objects.filter(roll=roll)._raw_delete(RollLine.objects.db)


def generate_writer():
    from assessments.rolls.writer import LineWriter

    return LineWriter()


@transaction.atomic
def override_request(*, line: RollLine, new_total: Decimal, reason: str, actor) -> RollOverride:
    if line.roll.status != Roll.Status.DRAFT:
        raise RollError("Solo se cambian líneas de un padrón en borrador; después, mediante ajustes.")
    if not reason.strip():
        raise ValidationError({"reason": "Indique la razón del cambio."})
    if new_total < 0:
        raise ValidationError({"new_total": "El monto no puede ser negativo."})
    ov = RollOverride.objects.create(line=line, new_total=new_total, previous_total=line.total, reason=reason,
                                     requested_by=actor)
    audit(actor=actor, action="roll.override.request", target=line.roll,
          summary=f"Cambio pedido {line.cadastre}: {line.total} → {new_total}", data={"reason": reason})
    return ov


@transaction.atomic
def override_decide(*, override: RollOverride, approve: bool, actor) -> RollOverride:
    """A second person approves or rejects; the line changes only on approval."""
    override = RollOverride.objects.select_for_update().get(pk=override.pk)
    if override.status != RollOverride.Status.PENDING:
        return override
    if override.requested_by_id == actor.pk:
        raise RollError("Quien pidió el cambio no puede aprobarlo: lo aprueba otra persona.")
    line = RollLine.objects.select_for_update().get(pk=override.line_id)
    if line.roll.status != Roll.Status.DRAFT:
        raise RollError("El padrón ya no está en borrador.")
    override.status = RollOverride.Status.APPROVED if approve else RollOverride.Status.REJECTED
    override.approved_by, override.decided_at = actor, timezone.now()
    override.save()
    if approve:
        line.total = override.new_total
        line.detail = _rescaled_detail(line, override.new_total)
        line.save(update_fields=["total", "detail"])
        roll = line.roll
        billed = Decimal(roll.totals["billed_total"]) - override.previous_total + override.new_total
        roll.totals = {**roll.totals, "billed_total": str(billed)}
        if "appropriation_needed" in roll.totals:
            roll.totals["appropriation_needed"] = str(Decimal(roll.totals["total"]) - billed)
        roll.save(update_fields=["totals"])
    audit(actor=actor, action=f"roll.override.{'approve' if approve else 'reject'}", target=line.roll,
          summary=f"{line.cadastre}: {override.previous_total} → {override.new_total}")
    return override


def _rescaled_detail(line: RollLine, new_total: Decimal) -> list:
    """Spread an overridden total over the line's semesters/installments: halves, as IRR-9/LAJ-6 do."""
    from core.money import split_halves

    items = [dict(i) for i in line.detail]
    payable = [i for i in items if not i.get("exempt_reason") and i.get("kind") != "free"] or items
    if len(payable) == 2:
        first, second = split_halves(new_total)
        payable[0]["amount"], payable[1]["amount"] = str(first), str(second)
    elif payable:
        payable[0]["amount"] = str(new_total)
    for item in payable:
        item["rule"] = f"{item.get('rule', '')} + ajuste aprobado".strip()
        item["exempt_reason"] = None
    return items


def certify_refusals(roll: Roll) -> list[str]:
    """Why `roll` cannot be certified now (empty: it can). The confirmation page, the view that
    queues the job and the job itself ask the same question, so a refusal is known before any work."""
    if roll.status != Roll.Status.DRAFT:
        return [_("El padrón ya está %(status)s.") % {"status": roll.get_status_display().lower()}]
    reasons = []
    pending = RollOverride.objects.filter(line__roll=roll, status=RollOverride.Status.PENDING).count()
    if pending:
        reasons.append(_("Hay %(n)s cambio(s) de líneas pendientes de aprobación: un aprobador debe aprobarlos o "
                         "rechazarlos antes de certificar.") % {"n": pending})
    if (refusal := irr9.certify_refusal(roll)) is not None:
        reasons.append(refusal)
    if roll.line_count == 0:
        reasons.append(_("El padrón no tiene líneas: genérelo primero."))
    return reasons


def finalize_refusals(roll: Roll, on: date | None = None) -> list[str]:
    """Why `roll` cannot be finalized on `on` (default today; empty: it can). Finalizing constitutes
    the liens dated that day (LIEN-1), and a roll's liens exist only from the first day of the fiscal
    year it bills (IRR-10, LAJ-6): before July 1, the roll waits, certified."""
    if roll.status != Roll.Status.CERTIFIED:
        if roll.status == Roll.Status.FINALIZED:
            return [_("El padrón ya está finalizado.")]
        return [_("Solo se finaliza un padrón certificado.")]
    day = on or timezone.localdate()
    start = fiscal_year_start(roll.fiscal_year)
    if day < start:
        return [_("El padrón FY%(fy)s se finaliza a partir del %(start)s, primer día de su año fiscal: los "
                  "gravámenes no pueden constituirse antes (fecha pedida: %(day)s).") % {
                      "fy": roll.fiscal_year, "start": start.strftime("%d/%m/%Y"), "day": day.strftime("%d/%m/%Y")}]
    return []


def roll_certify(*, roll: Roll, actor, on: date | None = None, job: RollJob | None = None, echo=None) -> Outcome:
    """DRAFT → CERTIFIED and bill every line (IRR-9, LAJ-6), in one transaction: a worker killed half
    way leaves the roll in draft with no charge, and the redelivered task certifies it once. A roll
    no longer in draft is left as it is. Progress goes to `job` (page) and `echo` (command line)."""
    current = Roll.objects.get(pk=roll.pk)
    if current.status != Roll.Status.DRAFT:
        return Outcome(current, False, f"{current} ya estaba {current.get_status_display().lower()}.")
    from assessments.rolls.billing import billable_lines

    report = progress.Reporter(job, total=billable_lines(current).count(), echo=echo)
    return _reported(report, f"{UNEXPECTED} al certificar",
                     lambda: _certify_and_bill(roll=current, actor=actor, on=on, report=report))


def _reported(report: progress.Reporter, failure: str, step) -> Outcome:
    """Run a job's `step` in one transaction; its end (or its failure, with the reason) goes to the job."""
    try:
        with transaction.atomic():
            outcome = step()
    except RollError as exc:
        report.fail("; ".join(exc.messages))
        raise
    except Exception as exc:
        logger.exception("%s", failure)
        report.fail(f"{failure}: {exc}")
        raise
    report.finish(outcome.message)
    return outcome


def _certify_and_bill(*, roll: Roll, actor, on: date | None, report: progress.Reporter) -> Outcome:
    roll = Roll.objects.select_for_update().get(pk=roll.pk)
    if roll.status != Roll.Status.DRAFT:   # certified by another delivery while we waited for the lock
        return Outcome(roll, False, f"{roll} ya estaba {roll.get_status_display().lower()}.")
    reasons = certify_refusals(roll)
    if reasons:
        raise RollError(reasons)
    roll.status, roll.certified_at, roll.certified_by = Roll.Status.CERTIFIED, timezone.now(), actor
    roll.save(update_fields=["status", "certified_at", "certified_by"])
    audit(actor=actor, action="roll.certify", target=roll, summary=f"Padrón certificado: {roll}")
    from assessments.notices.services import notices_schedule_for_roll
    from assessments.rolls.billing import bill_roll

    # Billed now, so notices carry payment references and reach owners before the due date.
    billed = bill_roll(roll=roll, actor=actor, on=on or timezone.localdate(), progress=report.update)
    notices_schedule_for_roll(roll=roll, actor=actor)   # after commit: the notices of its receivables
    return Outcome(roll, True, f"{roll} certificado; {billed} cargos registrados.")


def roll_finalize(*, roll: Roll, actor=None, on: date | None = None, job: RollJob | None = None,
                  echo=None) -> Outcome:
    """CERTIFIED → FINALIZED (immutable from here): the liens of its open charges are constituted today.

    One transaction: a worker killed half way leaves the roll certified with no lien, and the
    redelivered task finalizes it once. A finalized roll is left as it is. Progress (charges whose
    lien is prepared) goes to `job` (page) and `echo` (command line)."""
    current = Roll.objects.get(pk=roll.pk)
    if current.status == Roll.Status.FINALIZED:
        return Outcome(current, False, f"{current} ya estaba finalizado.")
    from assessments.rolls.billing import open_roll_receivables

    report = progress.Reporter(job, total=open_roll_receivables(current).count(), echo=echo)
    return _reported(report, f"{UNEXPECTED} al finalizar",
                     lambda: _finalize(roll=current, actor=actor, on=on, report=report))


def _finalize(*, roll: Roll, actor, on: date | None, report: progress.Reporter) -> Outcome:
    roll = Roll.objects.select_for_update().get(pk=roll.pk)
    if roll.status == Roll.Status.FINALIZED:   # finalized by another delivery while we waited for the lock
        return Outcome(roll, False, f"{roll} ya estaba finalizado.")
    reasons = finalize_refusals(roll, on=on)
    if reasons:
        raise RollError(reasons)
    roll.status, roll.finalized_at = Roll.Status.FINALIZED, timezone.now()
    roll.save(update_fields=["status", "finalized_at"])
    audit(actor=actor, action="roll.finalize", target=roll, summary=f"Padrón finalizado: {roll}")
    from assessments.notices.services import notices_schedule_for_roll
    from assessments.rolls.billing import register_roll_liens
    from liens.tasks import liens_rank_parcels_task

    parcels = register_roll_liens(roll=roll, actor=actor, on=on or timezone.localdate(), progress=report.update)
    for i in range(0, len(parcels), 500):
        chunk = parcels[i:i + 500]
        transaction.on_commit(lambda chunk=chunk: liens_rank_parcels_task.delay(chunk))
    notices_schedule_for_roll(roll=roll, actor=actor)   # after commit: whatever notice is not issued yet
    return Outcome(roll, True, f"{roll} finalizado; {len(parcels)} gravámenes constituidos.")


def rolls_finalize_due(*, today: date, actor=None) -> list[Outcome]:
    """July 1 (and every day after, in case a tick was missed): finalize certified rolls whose FY started."""
    from core.fiscal import fiscal_year_of

    fy = fiscal_year_of(today)
    outcomes = []
    for roll in Roll.objects.filter(status=Roll.Status.CERTIFIED, fiscal_year__lte=fy):
        outcomes.append(roll_finalize(roll=roll, actor=actor, on=today))
    return outcomes
