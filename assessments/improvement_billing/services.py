"""Every write of improvement-district billing.

`improvement_bill` turns a district's benefit charges for a fiscal year (the districts app's
`improvement_charges_for_year`: SID-1 resolutions, TID-2 ordinances) into receivables of the money
core, one per parcel and instrument, each with its lien (SID-4 / TID-6, LIEN-1) and its notice
(SID-2 by CRIM's regular mail, TID-4 by the association's certified mail). Billing is idempotent:
the receivable's source key (run, instrument, parcel) is found on a second run.

`collections_feed` takes the money received on those charges to where the statutes send it:
CRIM's collections on SID charges into SID-3 batches (5 % retained, the rest remitted within 90
days), the association's collections on TID charges into TID-5 deposits. Each ledger entry is fed
once (CollectionFeed), so the daily task may run twice.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from assessments.improvement_billing import rules
from assessments.improvement_billing.models import BillingRun, CollectionFeed, ImprovementCharge, Program
from assessments.ledger.receivables import ReceivableRow, accounts_for_parcels, receivables_bulk_create
from assessments.models import Fund, LedgerEntry, Receivable
from assessments.notices.services import notices_schedule_after_commit
from core import workqueue
from core.audit import audit
from core.fiscal import fiscal_year_of
from core.models import Flag
from core.money import ZERO
from districts.improvement import services as improvement
from districts.improvement.errors import FormulaRefused
from districts.improvement.models import (
    SidCollectionBatch,
    SidNoticeRound,
    SidResolution,
    TidAccountEntry,
    TidNoticeRound,
    TidOrdinance,
)
from districts.improvement.selectors import improvement_charges_for_year
from districts.models import District, Office, Parcel, Party

SID_FUND = ("sid-fondo-especial", "Fondo de Distritos Especiales de Mejoramiento", "SID", True,
            "Ley de Distritos Especiales de Mejoramiento: SID-3 (fondo especial), SID-4 (gravamen legal tácito)")
# TID-6 (d) names SID charges as financing public infrastructure; a TID charge itself is not
# recorded as such (the reading chosen for TID-6, docs/rules/improvement-districts.md), so its
# lien does not claim (d) over others.
TID_FUND_CITATION = ("Ley de Distritos de Mejoramiento Turístico: TID-5 (cuenta especial de la asociación), "
                     "TID-6 (gravamen legal tácito)")
CRIM_OFFICE = "Centro de Recaudación de Ingresos Municipales (CRIM)"
FEED_KINDS = (LedgerEntry.Kind.PAYMENT, LedgerEntry.Kind.CREDIT_APPLIED, LedgerEntry.Kind.REVERSAL)
BATCH_PREFIX = "RECAUDOS-"

REASON_TEXT = {
    rules.NO_INSTRUMENT: gettext_noop(
        "No hay %(instrument)s vigente para el distrito: no se impone ningún cargo (%(rule)s)."),
    rules.BEFORE_TERM: gettext_noop("FY%(fy)s es anterior al término de %(the)s (%(rule)s): no se factura."),
    rules.TERM_ENDED: gettext_noop("El término de %(the)s terminó antes del FY%(fy)s (%(rule)s): no se factura."),
    rules.NOT_CARRIED_OUT: gettext_noop("El proyecto no se llevó a cabo (SID-5): no se imponen más cargos."),
    rules.NOT_RECEIVED: gettext_noop(
        "El CRIM no ha recibido la copia certificada de la resolución %(number)s (SID-1): no puede imponer "
        "los cargos."),
    rules.TOO_FAR: gettext_noop(
        "FY%(fy)s está fuera de alcance: se factura a lo sumo el próximo año fiscal (FY%(next)s)."),
}


class BillingRefused(ValidationError):
    """Billing refused with its reason; the refusal is recorded on the run and flagged for staff."""

    def __init__(self, run: BillingRun, reason: str, message: str):
        self.run, self.reason, self.text = run, reason, message
        super().__init__({"fiscal_year": message}, code=reason)


def _user(actor):
    return actor if getattr(actor, "is_authenticated", False) else None


# --- funds and offices -------------------------------------------------------------------------

def fund_for(district: District) -> Fund:
    """SID-3: every SID charge goes to the one special fund the statute names; TID-5: each TID
    district's charges go to its own special account."""
    if district.kind == District.Kind.SID:
        code, name, lien_kind, infrastructure, citation = SID_FUND
    else:
        code, name, lien_kind, infrastructure, citation = (
            f"tid-{district.code}"[:40], f"Cuenta especial TID — {district.name}"[:200], "TID", False,
            TID_FUND_CITATION)
    return Fund.objects.get_or_create(code=code, defaults={
        "name": name, "lien_kind": lien_kind, "finances_public_infrastructure": infrastructure,
        "citation": citation})[0]


def crim_office(district: District) -> Office:
    """SID-1 / TID-3: CRIM collects; the district's collecting office when it is CRIM's."""
    for office in (district.collecting_office, district.office):
        if office is not None and office.kind == Office.Kind.CRIM:
            return office
    found = Office.objects.filter(kind=Office.Kind.CRIM).order_by("pk").first()
    return found or Office.objects.get_or_create(name=CRIM_OFFICE, defaults={"kind": Office.Kind.CRIM})[0]


def association_office(association: Party) -> Office:
    """TID-3: the authorized association collects and heads the notices with its own name."""
    name = association.display_name[:200]
    return Office.objects.get_or_create(name=name, defaults={
        "kind": Office.Kind.ASSOCIATION, "email": association.email or "",
        "address_municipality": association.address_municipality})[0]


# --- what may be billed ------------------------------------------------------------------------

def _instrument(district: District) -> tuple[str, str, str]:
    if district.kind == District.Kind.SID:
        return _("una resolución de la Autoridad"), _("la resolución"), "SID-1"
    return _("una ordenanza aprobada y publicada"), _("la ordenanza"), "TID-2"


def billing_gap(district: District, fiscal_year: int, *, today: date) -> tuple[str, str] | None:
    """Why `district` cannot be billed for `fiscal_year` — (reason code, message) — or None."""
    current = fiscal_year_of(today)
    instrument, the, rule = _instrument(district)
    values = {"fy": fiscal_year, "next": current + 1, "instrument": instrument, "the": the, "rule": rule,
              "number": ""}
    if not rules.fiscal_year_in_reach(fiscal_year, current):
        return rules.TOO_FAR, _(REASON_TEXT[rules.TOO_FAR]) % values
    if district.kind == District.Kind.SID:
        resolutions = list(SidResolution.objects.filter(district=district))
        active = [r for r in resolutions if r.project_status == SidResolution.ProjectStatus.ACTIVE]
        gap = rules.term_gap(fiscal_year, [rules.Term(r.first_fiscal_year, r.last_fiscal_year) for r in active])
        if gap == rules.NO_INSTRUMENT and resolutions:
            gap = rules.NOT_CARRIED_OUT
        if gap is None:
            for r in active:
                if fiscal_year in r.fiscal_years and (r.crim_received_on is None or r.crim_received_on > today):
                    values["number"] = r.number
                    gap = rules.NOT_RECEIVED
                    break
    else:
        ordinances = TidOrdinance.objects.filter(petition__district=district,
                                                 mayor_decision=TidOrdinance.Decision.APPROVED,
                                                 published_on__isnull=False)
        gap = rules.term_gap(fiscal_year, [rules.Term(o.first_fiscal_year, o.last_fiscal_year) for o in ordinances])
    if gap is None:
        return None
    return gap, _(REASON_TEXT[gap]) % values


def _check_input(district, fiscal_year) -> tuple[District, int]:
    if not isinstance(district, District):
        raise ValidationError({"district": _("Distrito inexistente: %(d)s.") % {"d": district}})
    if district.kind not in (District.Kind.SID, District.Kind.TID):
        raise ValidationError({"district": _("El distrito %(d)s no es de mejoramiento (SID o TID): sus cargos se "
                                             "facturan con el padrón.") % {"d": district.code}})
    try:
        fy = int(fiscal_year)
    except (TypeError, ValueError):
        raise ValidationError({"fiscal_year": _("Año fiscal inválido: %(v)s.") % {"v": fiscal_year}}) from None
    if not 1950 <= fy <= 2200:
        raise ValidationError({"fiscal_year": _("Año fiscal inválido: %(v)s.") % {"v": fiscal_year}})
    return district, fy


# --- billing -------------------------------------------------------------------------------------

def improvement_bill(*, district: District, fiscal_year, actor, issued_on: date | None = None,
                     trigger: str = BillingRun.Trigger.PAGE, today: date | None = None) -> BillingRun:
    """SID-1 / TID-2: bill `district` for `fiscal_year`: one receivable per parcel and instrument.

    Refused (BillingRefused, nothing billed) when the year is outside every term, the term has
    ended, the project was not carried out (SID-5), CRIM has not received the resolution, or the
    year is beyond next; the refusal is stored on the run and opens a work-queue flag. Running it
    again bills only what is missing (a parcel added to a TID district, say).
    """
    district, fy = _check_input(district, fiscal_year)
    today = today or timezone.localdate()
    issued_on = issued_on or today
    if issued_on > today:
        raise ValidationError({"issued_on": _("La fecha de emisión no puede ser futura.")})
    gap = billing_gap(district, fy, today=issued_on)
    if gap is not None:
        # Its own transaction: the refusal and its flag stay recorded although the caller gets an error.
        with transaction.atomic():
            run = _refuse(district=district, fiscal_year=fy, reason=gap[0], message=gap[1], actor=actor,
                          trigger=trigger, today=today)
        raise BillingRefused(run, *gap)
    return _bill(district=district, fiscal_year=fy, actor=actor, issued_on=issued_on, trigger=trigger)


def _run_for(district: District, fiscal_year: int, **defaults) -> tuple[BillingRun, bool]:
    run, created = BillingRun.objects.select_for_update().get_or_create(
        district=district, fiscal_year=fiscal_year, defaults={"program": district.kind, **defaults})
    return run, created


def _refuse(*, district, fiscal_year, reason, message, actor, trigger, today) -> BillingRun:
    run, _created = _run_for(district, fiscal_year, status=BillingRun.Status.REFUSED, trigger=trigger,
                             run_by=_user(actor))
    if not run.charges.exists():   # a year already billed stays billed; the attempt is still recorded
        run.status = BillingRun.Status.REFUSED
        run.reason, run.message, run.trigger = reason, message, trigger
    attempts = (run.report.get("attempts") or [])[-19:]
    run.report = {**run.report, "attempts": attempts + [
        {"on": today.isoformat(), "trigger": trigger, "refused": reason, "message": message}]}
    run.save()
    rule = "SID-1" if district.kind == District.Kind.SID else "TID-2"
    workqueue.flag_raise(kind=Flag.Kind.OTHER, target=run, rule=rule, severity=Flag.Severity.MEDIUM,
                         opened_on=today, actor=actor,
                         description=_("Facturación rechazada: %(d)s FY%(fy)s. %(m)s") % {
                             "d": district.name, "fy": fiscal_year, "m": message})
    audit(actor=actor, action="improvement_billing.refuse", target=run, summary=f"{run}: {reason}",
          data={"district": district.code, "fiscal_year": fiscal_year, "reason": reason, "rule": rule})
    return run


def _notice_round(row_breakdown: dict, fiscal_year: int) -> dict | None:
    """SID-2 / TID-4: the yearly notice round these notices fulfil (notices mark it mailed)."""
    if row_breakdown.get("resolution_id"):
        found = SidNoticeRound.objects.filter(resolution_id=row_breakdown["resolution_id"],
                                              fiscal_year=fiscal_year).values_list("pk", flat=True).first()
        return {"kind": "SID", "id": found} if found else None
    if row_breakdown.get("ordinance_id") and row_breakdown.get("collector") == rules.ASSOCIATION:
        found = TidNoticeRound.objects.filter(ordinance_id=row_breakdown["ordinance_id"],
                                              fiscal_year=fiscal_year).values_list("pk", flat=True).first()
        return {"kind": "TID", "id": found} if found else None
    return None


@dataclass(frozen=True)
class _Line:
    parcel_id: int
    amount: Decimal
    breakdown: dict
    installments: list[tuple[date, Decimal, date | None]]
    collector: str
    office_id: int
    resolution_id: int | None
    ordinance_id: int | None

    @property
    def source_id(self) -> str:
        """The receivable's natural key within the run: instrument (R = resolution, O = ordinance) and parcel."""
        if self.resolution_id:
            return f"R{self.resolution_id}:{self.parcel_id}"
        return f"O{self.ordinance_id}:{self.parcel_id}"


def _lines(district: District, fiscal_year: int, issued_on: date) -> tuple[list[_Line], list[dict]]:
    try:
        data = improvement_charges_for_year(district, fiscal_year)
    except FormulaRefused as exc:
        raise ValidationError({"fiscal_year": _("TID-2: la fórmula de la ordenanza no puede aplicarse: %(e)s") % {
            "e": "; ".join(exc.messages)}}) from None
    offices: dict[str, int] = {}
    associations = {p.pk: p for p in Party.objects.filter(pk__in={b.get("association_id") for _p, _a, _d, b in data
                                                                    if b.get("association_id")})}
    lines, zero = [], []
    for parcel_id, amount, _dues, breakdown in data:
        if amount <= 0:
            zero.append({"parcel_id": parcel_id, "amount": str(amount)})
            continue
        collector = breakdown.get("collector") or rules.CRIM
        if collector == rules.ASSOCIATION and breakdown.get("association_id"):
            key = f"A{breakdown['association_id']}"
            if key not in offices:
                offices[key] = association_office(associations[breakdown["association_id"]]).pk
        else:
            collector, key = rules.CRIM, "CRIM"
            if key not in offices:
                offices[key] = crim_office(district).pk
        parts = [(date.fromisoformat(d), Decimal(a)) for d, a in breakdown.get("installments") or []]
        parts = parts or rules.single_installment(amount, issued_on)
        lines.append(_Line(parcel_id=parcel_id, amount=amount, breakdown=breakdown,
                           installments=rules.effective_installments(parts, issued_on), collector=collector,
                           office_id=offices[key], resolution_id=breakdown.get("resolution_id"),
                           ordinance_id=breakdown.get("ordinance_id")))
    return lines, zero


def _receivable_row(run: BillingRun, line: _Line, account_id: int, fund: Fund, cadastre: str, issued_on: date,
                    resolution: SidResolution | None) -> ReceivableRow:
    program = run.program
    method = rules.mailing_method(line.collector)
    breakdown = {
        **line.breakdown, "program": program, "issued_on": issued_on.isoformat(), "cadastre": cadastre,
        "mailing_method": method, "mailing_rule": "TID-4" if method == rules.CERTIFIED_RR else (
            "SID-2" if program == Program.SID else "TID-3"),
        "lines": [{"seq": i + 1, "due_date": due.isoformat(), "amount": str(amount),
                   "rule": "SID-1" if program == Program.SID else "TID-2",
                   "moved_from": moved.isoformat() if moved else None}
                  for i, (due, amount, moved) in enumerate(line.installments)],
    }
    if any(moved for _d, _a, moved in line.installments):
        breakdown["late_billing"] = {
            "days": rules.LATE_BILLING_DAYS,
            "text": "Las fechas de pago ya vencidas al facturar pasan a la fecha de facturación + 30 días: "
                    "nadie incurre en mora antes de ser notificado."}
    penalty = line.breakdown.get("late_payment_penalty") or {}
    if penalty.get("terms"):   # SID-2: every notice states the consequences the resolution sets
        breakdown["penalty_terms"] = penalty["terms"]
    notice_round = _notice_round(line.breakdown, run.fiscal_year)
    if notice_round:
        breakdown["notice_round"] = notice_round
    surcharge_rule, terms = Receivable.SurchargeRule.NONE, {}
    if resolution is not None and (resolution.penalty_pct > 0):
        # SID-1: the resolution's penalty, not the property-tax law's.
        surcharge_rule = Receivable.SurchargeRule.RESOLUTION
        terms = {"grace_days": str(resolution.penalty_grace_days),
                 "surcharge_pct": format(resolution.penalty_pct.normalize(), "f"), "interest_pct_per_month": "0",
                 "citation": f"SID-1: Resolución {resolution.number}"}
    if program == Program.SID:
        label = _("Cargo por beneficio SID FY%(fy)s — %(c)s (Res. %(n)s)") % {
            "fy": run.fiscal_year, "c": cadastre, "n": line.breakdown.get("resolution", "")}
    else:
        label = _("Cargo de distrito turístico FY%(fy)s — %(c)s (%(n)s)") % {
            "fy": run.fiscal_year, "c": cadastre, "n": line.breakdown.get("ordinance", "")}
    return ReceivableRow(
        account_id=account_id, fund_id=fund.pk, office_id=line.office_id, kind=Receivable.Kind.BENEFIT_CHARGE,
        source_type=run.source_type, source_id=line.source_id,
        installments=tuple((due, amount) for due, amount, _moved in line.installments), description=label,
        issued_on=issued_on, breakdown=breakdown, surcharge_rule=surcharge_rule, surcharge_terms=terms,
        creates_lien=True)


@transaction.atomic
def _bill(*, district: District, fiscal_year: int, actor, issued_on: date, trigger: str) -> BillingRun:
    run, _created = _run_for(district, fiscal_year, status=BillingRun.Status.BILLED, trigger=trigger,
                             run_by=_user(actor), issued_on=issued_on)
    # Charges added by a later run (a parcel joined the district) are issued on that run's date.
    lines, zero = _lines(district, fiscal_year, issued_on)
    done = set(Receivable.objects.filter(source_type=run.source_type).values_list("source_id", flat=True))
    todo = [line for line in lines if line.source_id not in done]
    fund = fund_for(district)
    accounts = accounts_for_parcels(line.parcel_id for line in todo)
    cadastres = dict(Parcel.objects.filter(pk__in=[line.parcel_id for line in todo]).values_list("pk", "cadastre"))
    resolutions = {r.pk: r for r in SidResolution.objects.filter(pk__in={ln.resolution_id for ln in todo})}
    rows = [_receivable_row(run, line, accounts[line.parcel_id], fund, cadastres[line.parcel_id], issued_on,
                            resolutions.get(line.resolution_id)) for line in todo]
    created_total = ZERO
    if rows:
        result = receivables_bulk_create(rows=rows, actor=actor)
        created_total = result.total
        receivables = dict(Receivable.objects.filter(source_type=run.source_type, source_id__in=[
            line.source_id for line in todo]).values_list("source_id", "pk"))
        ImprovementCharge.objects.bulk_create([ImprovementCharge(
            run=run, receivable_id=receivables[line.source_id], parcel_id=line.parcel_id, program=run.program,
            resolution_id=line.resolution_id, ordinance_id=line.ordinance_id, collector=line.collector,
            fiscal_year=fiscal_year) for line in todo])
        parcel_ids = sorted({line.parcel_id for line in todo})

        def rank():
            from liens.tasks import liens_rank_parcels_task

            for i in range(0, len(parcel_ids), 500):
                liens_rank_parcels_task.delay(parcel_ids[i:i + 500])

        transaction.on_commit(rank)
        notices_schedule_after_commit(source_types=[run.source_type], actor=actor)
    totals = run.charges.aggregate(n=Count("pk"), t=Sum("receivable__amount"))
    was_refused = run.status == BillingRun.Status.REFUSED
    run.status, run.reason, run.message, run.trigger = BillingRun.Status.BILLED, "", "", trigger
    run.issued_on = run.issued_on or issued_on
    run.charges_count, run.charges_total = totals["n"] or 0, totals["t"] or ZERO
    attempts = (run.report.get("attempts") or [])[-19:]
    moved = sum(1 for line in todo if any(m for _d, _a, m in line.installments))
    run.report = {**run.report, "zero": zero, "attempts": attempts + [
        {"on": timezone.localdate().isoformat(), "trigger": trigger, "created": len(todo),
         "total": str(created_total), "existing": len(lines) - len(todo), "moved_due_dates": moved}]}
    run.save()
    if was_refused:
        content_type = ContentType.objects.get_for_model(run)
        for flag in Flag.objects.filter(content_type=content_type, object_id=run.pk, resolved_on__isnull=True):
            workqueue.flag_resolve(flag=flag, actor=actor, resolution=_("Facturado."))
    audit(actor=actor, action="improvement_billing.bill", target=run,
          summary=f"{run}: {len(todo)} cargos nuevos, {created_total}",
          data={"district": district.code, "fiscal_year": fiscal_year, "created": len(todo),
                "total": str(created_total), "existing": len(lines) - len(todo), "moved_due_dates": moved,
                "rule": "SID-1" if run.program == Program.SID else "TID-2"})
    run.created_now = len(todo)
    run.created_total_now = created_total
    return run


def districts_to_bill(fiscal_year: int, *, today: date | None = None) -> list[District]:
    """Active districts whose term covers `fiscal_year` (the yearly task never bills the others)."""
    today = today or timezone.localdate()
    out = []
    for district in District.objects.filter(kind__in=[District.Kind.SID, District.Kind.TID]).order_by("code"):
        if billing_gap(district, fiscal_year, today=today) is None:
            out.append(district)
    return out


# --- collections feed (SID-3, TID-5) -------------------------------------------------------------

def _unfed(on: date):
    fed = CollectionFeed.objects.values("entry_id")
    return (LedgerEntry.objects.filter(receivable__improvement_charge__isnull=False, kind__in=FEED_KINDS,
                                       installment__isnull=False, effective_date__lte=on)
            .exclude(pk__in=fed).select_related("receivable__improvement_charge").order_by("effective_date", "pk"))


def _open_batch(resolution: SidResolution, received_on: date) -> SidCollectionBatch | None:
    return (SidCollectionBatch.objects.select_for_update()
            .filter(resolution=resolution, received_on=received_on, reference__startswith=BATCH_PREFIX,
                    remitted_on__isnull=True).order_by("pk").first())


def _next_reference(resolution: SidResolution, received_on: date) -> str:
    base = f"{BATCH_PREFIX}{received_on:%Y%m%d}"
    taken = set(SidCollectionBatch.objects.filter(resolution=resolution, received_on=received_on,
                                                  reference__startswith=base).values_list("reference", flat=True))
    if base not in taken:
        return base
    k = 2
    while f"{base}-{k}" in taken:
        k += 1
    return f"{base}-{k}"


def _flag_negative(target, *, rule: str, day: date, net: Decimal, actor) -> None:
    workqueue.flag_raise(kind=Flag.Kind.OTHER, target=target, rule=rule, severity=Flag.Severity.HIGH,
                         opened_on=day, actor=actor,
                         description=_("%(r)s: las devoluciones de pagos del %(d)s (%(a)s) exceden lo recaudado ese "
                                       "día; concilie con el cobrador.") % {"r": rule, "d": day.isoformat(),
                                                                            "a": net})


@transaction.atomic
def collections_feed(*, on: date | None = None, actor=None) -> dict:
    """Feed every collection on a benefit charge not fed yet (effective on or before `on`):

    - SID charges (collected by CRIM): the day's net collections of each resolution go into that
      day's open SID-3 batch (created, or extended while not remitted; after its remittance a new
      batch of the same day). The 90-day clock opens with the batch (districts' sid_batch_record).
    - TID charges collected by the association: the day's net collections of each ordinance become
      one TID-5 deposit in its special account.
    - TID charges collected by CRIM stay outside the association's account (TID-3): not fed.
    A day whose reversals exceed its payments is not fed and opens a flag.
    """
    on = on or timezone.localdate()
    groups: dict[tuple, list[LedgerEntry]] = defaultdict(list)
    skipped = 0
    for entry in _unfed(on):
        charge = entry.receivable.improvement_charge
        if charge.program == Program.SID:
            groups[("SID", charge.resolution_id, entry.effective_date)].append(entry)
        elif charge.collector == rules.ASSOCIATION:
            groups[("TID", charge.ordinance_id, entry.effective_date)].append(entry)
        else:
            skipped += 1
    report = {"batches_created": 0, "batches_extended": 0, "deposits": 0, "fed": 0, "amount": ZERO,
              "flagged": 0, "crim_tid_skipped": skipped}
    for (program, instrument_id, day), entries in sorted(groups.items(), key=lambda kv: (kv[0][2], kv[0][:2])):
        net = -sum((e.amount for e in entries), ZERO)
        target_batch = target_entry = None
        if program == "SID":
            resolution = SidResolution.objects.get(pk=instrument_id)
            batch = _open_batch(resolution, day)
            plan = rules.batch_extension(batch.collected if batch else ZERO, net)
            if plan.refused:
                _flag_negative(resolution, rule="SID-3", day=day, net=net, actor=actor)
                report["flagged"] += 1
                continue
            if batch is not None and net:
                target_batch = improvement.sid_batch_extend(actor=actor, batch=batch, collected=plan.collected)
                report["batches_extended"] += 1
            elif batch is None and net > 0:
                try:
                    target_batch = improvement.sid_batch_record(
                        actor=actor, resolution=resolution, received_on=day, collected=net,
                        reference=_next_reference(resolution, day))
                except ValidationError as exc:
                    workqueue.flag_raise(kind=Flag.Kind.OTHER, target=resolution, rule="SID-3", opened_on=day,
                                         actor=actor, description="; ".join(exc.messages))
                    report["flagged"] += 1
                    continue
                report["batches_created"] += 1
            else:
                target_batch = batch
        else:
            ordinance = TidOrdinance.objects.get(pk=instrument_id)
            if net < 0:
                _flag_negative(ordinance, rule="TID-5", day=day, net=net, actor=actor)
                report["flagged"] += 1
                continue
            if net > 0:
                target_entry = improvement.tid_account_entry_add(
                    actor=actor, ordinance=ordinance, kind=TidAccountEntry.Kind.DEPOSIT, entry_date=day, amount=net,
                    purpose=_("Recaudos de cargos por beneficio del %(d)s (TID-5)") % {"d": day.strftime("%d/%m/%Y")})
                report["deposits"] += 1
        CollectionFeed.objects.bulk_create([CollectionFeed(
            entry=e, charge=e.receivable.improvement_charge, amount=-e.amount, sid_batch=target_batch,
            tid_entry=target_entry) for e in entries])
        report["fed"] += len(entries)
        report["amount"] += net
    report["amount"] = str(report["amount"])
    if report["fed"] or report["flagged"]:
        audit(actor=actor, action="improvement_billing.collections_feed", summary=(
            f"{report['fed']} asientos, {report['amount']}"), data=report)
    return report
