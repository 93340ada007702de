"""Reads of the improvement districts with rules: clocks and what is late, the TID-2 preview, the
TID-5 account figures, and `improvement_charges_for_year` — the hook the billing step calls."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db.models import Prefetch, Q, QuerySet
from django.utils.translation import gettext as _

from assessments.rules.sid import admin_expense_check
from assessments.rules.tid_formula import FormulaError, TidParcel, compute_charges, parcel_charge, parse
from core.fiscal import fiscal_year_end, fiscal_year_of, fiscal_year_start
from core.money import ZERO
from core.parameters import DatabaseParameters
from districts.improvement import rules
from districts.improvement.errors import FormulaRefused
from districts.improvement.models import (
    SidCollectionBatch,
    SidRefund,
    SidResolution,
    TidAccountEntry,
    TidFactorFinding,
    TidOrdinance,
    TidPetition,
)
from districts.models import District, Membership, Parcel


def _today(today: date | None) -> date:
    return today or date.today()


def due_state(due: date | None, done_on: date | None, today: date) -> dict:
    """How a statutory term stands: met in time, late, overdue, due today, soon (≤ 7 days) or open."""
    if due is None:
        return {"due": None, "done_on": done_on, "state": "none", "days": None}
    if done_on is not None:
        state = "met" if done_on <= due else "late"
        return {"due": due, "done_on": done_on, "state": state, "days": (done_on - due).days}
    days = (due - today).days
    state = "overdue" if days < 0 else "today" if days == 0 else "soon" if days <= 7 else "open"
    return {"due": due, "done_on": None, "state": state, "days": abs(days)}


def sid_retention_pct(on: date) -> tuple[Decimal, str]:
    """SID-3: CRIM's retention percentage in force on `on`, with the parameter version's label."""
    version = DatabaseParameters().get("district_funds", on)
    return Decimal(version.values["sid_crim_retention_pct"]), version.label()


def tid_cap_pct(on: date) -> Decimal:
    """TID-5: the administrative cap percentage in force on `on`."""
    return Decimal(DatabaseParameters().get("district_funds", on).values["tid_admin_cap_pct"])


# --- parcels as the TID-2 formula sees them --------------------------------------------------------

def member_parcels(district: District, on: date | None = None) -> QuerySet[Parcel]:
    """The district's member parcels on `on` (today by default): included, not yet excluded."""
    on = _today(on)
    members = Membership.objects.filter(district=district, included_on__lte=on).filter(
        Q(excluded_on__isnull=True) | Q(excluded_on__gt=on))
    return Parcel.objects.filter(pk__in=members.values("parcel_id")).order_by("cadastre")


def members_in_fiscal_year(district: District, fiscal_year: int) -> QuerySet[Parcel]:
    """Parcels in the district at some point of the fiscal year."""
    start, end = fiscal_year_start(fiscal_year), fiscal_year_end(fiscal_year)
    members = Membership.objects.filter(district=district, included_on__lte=end).filter(
        Q(excluded_on__isnull=True) | Q(excluded_on__gt=start))
    return Parcel.objects.filter(pk__in=members.values("parcel_id")).order_by("cadastre")


def tid_parcel(parcel: Parcel) -> TidParcel:
    """TID-2 attributes from the register: area (m²; cuerdas and acres derive exactly), assessed
    value, frontage and use class."""
    return TidParcel(id=parcel.cadastre, area_m2=parcel.area_m2, assessed_value=parcel.assessed_value,
                     frontage_m=parcel.frontage_m, use_class=parcel.use_class)


@dataclass(frozen=True)
class PreviewRow:
    parcel: Parcel
    attributes: dict
    charge: Decimal


@dataclass(frozen=True)
class Preview:
    formula: str
    variables: list[str]
    rows: list[PreviewRow]
    total: Decimal
    expected_amount: Decimal | None
    difference: Decimal | None

    def as_json(self) -> dict:
        return {
            "formula": self.formula, "variables": self.variables, "rule": "TID-2",
            "parcels": [{"id": r.parcel.pk, "cadastre": r.parcel.cadastre, "use_class": r.parcel.use_class,
                         "area_m2": str(r.parcel.area_m2), "area_cuerdas": str(r.parcel.area_cuerdas),
                         "area_acres": str(r.parcel.area_acres), "assessed_value": str(r.parcel.assessed_value),
                         "frontage_m": str(r.parcel.frontage_m), "charge": str(r.charge)} for r in self.rows],
            "count": len(self.rows), "total": str(self.total),
            "expected_amount": str(self.expected_amount) if self.expected_amount is not None else None,
            "difference": str(self.difference) if self.difference is not None else None,
        }


def tid_formula_preview(district: District, formula_text: str, expected_amount: Decimal | None = None,
                        on: date | None = None) -> Preview:
    """TID-2 preview: each member parcel's charge and the total against the expected amount.
    A bad formula (or one a parcel cannot be charged by) raises FormulaRefused."""
    try:
        formula = parse(formula_text or "")
    except FormulaError as exc:
        raise FormulaRefused(exc) from None
    parcels = list(member_parcels(district, on))
    try:
        result = compute_charges(formula, [tid_parcel(p) for p in parcels], expected_amount)
    except FormulaError as exc:
        raise FormulaRefused(exc) from None
    rows = [PreviewRow(parcel=p, attributes={}, charge=line.charge) for p, line in zip(parcels, result.parcels,
                                                                                          strict=True)]
    return Preview(formula=formula_text, variables=sorted(formula.names), rows=rows, total=result.total,
                   expected_amount=expected_amount, difference=result.difference)


# --- the billing hook ------------------------------------------------------------------------------

def improvement_charges_for_year(district: District, fiscal_year: int) -> list[tuple[int, Decimal, list[date], dict]]:
    """What the billing step imposes on `district` in FY`fiscal_year`, as pure data:
    `[(parcel_id, amount, due_dates, breakdown), …]`, ordered by parcel id.

    SID (SID-1): each active resolution whose term covers the year contributes its charge lines
    with the resolution's own due dates and late-payment penalty (no exemption, exoneration or
    discount). TID (TID-2): an ordinance approved by the mayor and published, whose term covers
    the year, charges every parcel in the district during the year by its formula. Other kinds: [].
    """
    out: list[tuple[int, Decimal, list[date], dict]] = []
    if district.kind == District.Kind.SID:
        resolutions = SidResolution.objects.filter(
            district=district, project_status=SidResolution.ProjectStatus.ACTIVE,
            first_fiscal_year__lte=fiscal_year).prefetch_related("charges")
        for res in resolutions:
            if fiscal_year not in res.fiscal_years:
                continue
            dues = res.due_dates_for(fiscal_year)
            for charge in res.charges.all():
                breakdown = {
                    "rule": "SID-1", "district": district.code, "fiscal_year": fiscal_year,
                    "resolution_id": res.pk, "resolution": res.number, "term": f"FY{res.first_fiscal_year}–"
                    f"FY{res.last_fiscal_year}", "annual_charge": str(charge.annual_charge),
                    "installments": [(d.isoformat(), str(a)) for d, a in rules.installments(charge.annual_charge,
                                                                                              dues)],
                    "late_payment_penalty": {"pct": str(res.penalty_pct), "grace_days": res.penalty_grace_days,
                                             "terms": res.penalty_terms, "source": "SID-1 (resolution)"},
                    "exemptions": "none (SID-1)", "collector": "CRIM", "lien": "SID-4",
                }
                out.append((charge.parcel_id, charge.annual_charge, dues, breakdown))
    elif district.kind == District.Kind.TID:
        ordinances = TidOrdinance.objects.filter(
            petition__district=district, mayor_decision=TidOrdinance.Decision.APPROVED,
            published_on__isnull=False, first_fiscal_year__lte=fiscal_year)
        for ordinance in ordinances:
            if fiscal_year not in ordinance.fiscal_years:
                continue
            try:
                formula = parse(ordinance.formula)
            except FormulaError as exc:
                raise FormulaRefused(exc) from None
            dues = ordinance.due_dates_for(fiscal_year)
            for parcel in members_in_fiscal_year(district, fiscal_year):
                attrs = tid_parcel(parcel)
                try:
                    amount = parcel_charge(formula, attrs)
                except FormulaError as exc:
                    raise FormulaRefused(exc) from None
                breakdown = {
                    "rule": "TID-2", "district": district.code, "fiscal_year": fiscal_year,
                    "ordinance_id": ordinance.pk, "ordinance": ordinance.number, "formula": ordinance.formula,
                    "attributes": {"area_m2": str(attrs.area_m2), "assessed_value": str(attrs.assessed_value),
                                   "frontage_m": str(attrs.frontage_m), "use_class": attrs.use_class},
                    "installments": [(d.isoformat(), str(a)) for d, a in rules.installments(amount, dues)],
                    "collector": ordinance.collector,
                    "association_id": ordinance.association_id, "lien": "TID-6",
                }
                out.append((parcel.pk, amount, dues, breakdown))
    out.sort(key=lambda row: (row[0], row[3].get("resolution_id") or row[3].get("ordinance_id") or 0))
    return out


# --- SID pages ---------------------------------------------------------------------------------------

def sid_resolutions() -> QuerySet[SidResolution]:
    return SidResolution.objects.select_related("district").prefetch_related("notice_rounds", "batches")


def batch_status(batch: SidCollectionBatch, today: date) -> str:
    if batch.remitted_on is not None:
        return "REMITTED_LATE" if batch.remitted_late else "REMITTED"
    return "OVERDUE" if today > batch.remittance_due_on else "PENDING"


def sid_remittance_report(*, resolution: SidResolution | None = None, today: date | None = None) -> dict:
    """SID-3: what is due when and what is late — every batch with its due date and status, and
    the totals (collected, retained by CRIM, to remit, remitted, pending, overdue)."""
    today = _today(today)
    qs = SidCollectionBatch.objects.select_related("resolution", "resolution__district").order_by(
        "remittance_due_on", "id")
    if resolution is not None:
        qs = qs.filter(resolution=resolution)
    rows = []
    totals = dict.fromkeys(("collected", "retained", "remitted", "remitted_done", "pending", "overdue"), ZERO)
    for b in qs:
        status = batch_status(b, today)
        days_late = 0
        if status in ("REMITTED_LATE", "OVERDUE"):
            days_late = ((b.remitted_on or today) - b.remittance_due_on).days
        rows.append({"batch": b, "status": status, "days_late": days_late,
                     "due": due_state(b.remittance_due_on, b.remitted_on, today)})
        totals["collected"] += b.collected
        totals["retained"] += b.retained
        totals["remitted"] += b.remitted
        if b.remitted_on:
            totals["remitted_done"] += b.remitted
        elif status == "OVERDUE":
            totals["overdue"] += b.remitted
        else:
            totals["pending"] += b.remitted
    return {"rows": rows, "totals": totals, "today": today,
            "late_count": sum(1 for r in rows if r["status"] in ("REMITTED_LATE", "OVERDUE"))}


def notice_rows(rounds, today: date) -> list[dict]:
    """Each notice round with its term's state; `next` marks the first one not yet mailed."""
    rows, seen_open = [], False
    for r in rounds:
        is_next = r.mailed_on is None and not seen_open
        seen_open = seen_open or r.mailed_on is None
        rows.append({"round": r, "due": due_state(r.due_on, r.mailed_on, today), "next": is_next})
    return rows


def sid_resolution_page(resolution: SidResolution, today: date | None = None) -> dict:
    today = _today(today)
    charges = list(resolution.charges.select_related("parcel", "parcel__municipality"))
    refund = SidRefund.objects.filter(resolution=resolution).first()
    return {
        "resolution": resolution,
        "charges": charges,
        "charges_total": sum((c.annual_charge for c in charges), ZERO),
        "notices": notice_rows(resolution.notice_rounds.all(), today),
        "report": sid_remittance_report(resolution=resolution, today=today),
        "refund": refund,
        "refund_lines": list(refund.lines.select_related("parcel", "party")) if refund else [],
        "today": today,
        "due_dates_next": resolution.due_dates_for(resolution.first_fiscal_year),
    }


def sid_next_clock(resolution: SidResolution, today: date) -> dict | None:
    """The next open SID clock of a resolution: an unmailed notice or an unremitted batch."""
    candidates = []
    for r in resolution.notice_rounds.all():
        if r.mailed_on is None:
            candidates.append({"code": "SID-2", "label": _("Notificación %(k)s (FY%(fy)s)") % {
                "k": r.sequence, "fy": r.fiscal_year}, "due": due_state(r.due_on, None, today)})
            break
    for b in resolution.batches.all():
        if b.remitted_on is None:
            candidates.append({"code": "SID-3", "label": _("Remesa del lote del %(d)s") % {
                "d": b.received_on.strftime("%d/%m/%Y")}, "due": due_state(b.remittance_due_on, None, today)})
    if not candidates:
        return None
    return min(candidates, key=lambda c: c["due"]["due"])


# --- TID pages ---------------------------------------------------------------------------------------

def tid_petitions() -> QuerySet[TidPetition]:
    return TidPetition.objects.select_related("district", "municipality").prefetch_related(
        Prefetch("ordinance", queryset=TidOrdinance.objects.select_related("association")))


def _ordinance_of(petition: TidPetition) -> TidOrdinance | None:
    try:
        return petition.ordinance
    except TidOrdinance.DoesNotExist:
        return None


def tid_next_clock(petition: TidPetition, today: date) -> dict | None:
    """The clock the petition is waiting on: ordinance (90 days), mayor (30), publication (week
    after approval) or the association's next certified-mail notice (TID-4)."""
    ordinance = _ordinance_of(petition)
    if petition.status == TidPetition.Status.RECEIVED:
        return {"code": "TID-1-ORDINANCE", "label": _("Ordenanza de la Legislatura Municipal"),
                "due": due_state(petition.ordinance_due_on, None, today)}
    if ordinance is None:
        return None
    if ordinance.mayor_decision == TidOrdinance.Decision.PENDING:
        if ordinance.mayor_due_on is None:
            return {"code": "TID-1-MAYOR", "label": _("Registrar el recibo por el alcalde"),
                    "due": due_state(None, None, today)}
        return {"code": "TID-1-MAYOR", "label": _("Decisión del alcalde"),
                "due": due_state(ordinance.mayor_due_on, None, today)}
    if ordinance.mayor_decision == TidOrdinance.Decision.APPROVED and ordinance.published_on is None:
        return {"code": "TID-1-PUBLICATION", "label": _("Publicación en un periódico de circulación general"),
                "due": due_state(ordinance.publication_due_on, None, today)}
    for r in ordinance.notice_rounds.all():
        if r.mailed_on is None:
            return {"code": "TID-4", "label": _("Notificación por correo certificado %(k)s (FY%(fy)s)") % {
                "k": r.sequence, "fy": r.fiscal_year}, "due": due_state(r.due_on, None, today)}
    return None


def tid_account_summary(ordinance: TidOrdinance, today: date | None = None) -> dict:
    """TID-5 figures to date: collections, expenses, administrative expenses against the 5 % cap,
    the balance, and the fiscal years with collections still missing their CPA audit."""
    today = _today(today)
    entries = list(ordinance.account_entries.all())
    deposits = sum((e.amount for e in entries if e.kind == TidAccountEntry.Kind.DEPOSIT), ZERO)
    expenses = sum((e.amount for e in entries if e.kind == TidAccountEntry.Kind.EXPENSE), ZERO)
    admin = sum((e.amount for e in entries if e.kind == TidAccountEntry.Kind.EXPENSE and e.admin_expense), ZERO)
    pct = tid_cap_pct(today)
    check = admin_expense_check(deposits, admin, ZERO, pct)
    years_with_deposits = sorted({fiscal_year_of(e.entry_date) for e in entries
                                  if e.kind == TidAccountEntry.Kind.DEPOSIT})
    audited = set(ordinance.audits.values_list("fiscal_year", flat=True))
    current_fy = fiscal_year_of(today)
    return {
        "entries": entries, "deposits": deposits, "expenses": expenses, "admin": admin,
        "balance": deposits - expenses, "cap_pct": pct, "cap": check.cap, "available": check.available,
        "within_cap": admin <= check.cap,
        "audits": list(ordinance.audits.all()),
        "audits_missing": [fy for fy in years_with_deposits if fy < current_fy and fy not in audited],
    }


def tid_petition_page(petition: TidPetition, today: date | None = None) -> dict:
    today = _today(today)
    ordinance = _ordinance_of(petition)
    findings = {f.factor: f for f in petition.findings.all()}
    factors = [{"code": code, "text": label, "finding": findings.get(code)}
               for code, label in TidFactorFinding.Factor.choices]
    ctx = {
        "petition": petition, "ordinance": ordinance, "factors": factors, "today": today,
        "findings_complete": len(findings) == len(rules.FACTORS),
        "findings_favorable": all(f.finding == TidFactorFinding.Finding.FAVORABLE for f in findings.values())
        and len(findings) == len(rules.FACTORS),
        "next_clock": tid_next_clock(petition, today),
        "members": member_parcels(petition.district, today).count(),
        "ordinance_clock": due_state(petition.ordinance_due_on,
                                     ordinance.issued_on if ordinance else petition.denied_on, today),
    }
    if ordinance is not None:
        try:
            ctx["preview"] = tid_formula_preview(petition.district, ordinance.formula, ordinance.expected_amount, today)
        except FormulaRefused as exc:
            ctx["preview_error"] = exc.text
        ctx["mayor_clock"] = due_state(ordinance.mayor_due_on, ordinance.decided_on, today)
        ctx["publication_clock"] = due_state(ordinance.publication_due_on, ordinance.published_on, today)
        ctx["notices"] = notice_rows(ordinance.notice_rounds.all(), today)
        ctx["account"] = tid_account_summary(ordinance, today)
    return ctx


def home(today: date | None = None) -> dict:
    """The improvement home page: SID resolutions and TID petitions with the clock each waits on."""
    today = _today(today)
    resolutions = [{"resolution": r, "clock": sid_next_clock(r, today),
                    "late": sum(1 for b in r.batches.all() if b.is_late(today))
                    + sum(1 for n in r.notice_rounds.all() if n.is_late(today)),
                    "charges": r.charges.count()}
                   for r in sid_resolutions()]
    petitions = [{"petition": p, "clock": tid_next_clock(p, today)}
                 for p in tid_petitions().prefetch_related("ordinance__notice_rounds")]
    return {"resolutions": resolutions, "petitions": petitions, "today": today,
            "report": sid_remittance_report(today=today),
            "sid_districts": District.objects.filter(kind=District.Kind.SID).order_by("name"),
            "tid_districts": District.objects.filter(kind=District.Kind.TID).order_by("name")}

