"""Every write of franchise billing: tariff invoices (FRA-1 to FRA-3), metered bills and the AAA's
readings file (FRA-3), transfers to the AAA (FRA-4), and the daily FRA-8 arrears run.

Amounts come from the `franchise-tariff` calculation (assessments.compute.run), so an invoice
always equals what `manage.py compute franchise-tariff` prints for the franchise. Natural keys
make every write idempotent: one tariff invoice per (franchise, fiscal year), one metered bill
per (franchise, month) — as the receivable's source and as unique constraints here.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from assessments.compute import ComputeInputError, run
from assessments.franchise_billing import readings_csv, rules, selectors
from assessments.franchise_billing.models import AaaTransfer, FranchiseCharge, InvoiceRun, ReadingImport
from assessments.ledger.common import lock_account, post
from assessments.ledger.receivables import account_for_party, credit_apply, receivable_create
from assessments.models import Fund, LedgerEntry, Receivable
from assessments.notices.services import notices_schedule_after_commit
from assessments.rules.franchise import CLASSES, EXEMPTIONS, billing_period, uncovered
from core.audit import audit
from core.daycount import days_inclusive
from core.fiscal import fiscal_year_end, fiscal_year_of, fiscal_year_start
from core.money import ZERO
from core.parameters import DatabaseParameters
from core.uploads import DEFAULT_MAX_BYTES, too_large_message
from franchises import services as franchise_services
from franchises.models import Franchise, MeterReading, TariffClass

FUND_CODE = "franquicias-fondo-especial"
FUND_NAME = "Fondo Especial de Franquicias de Agua (DRNA)"
FUND_CITATION = ("Reglamento de Aguas de Puerto Rico, secciones 8.13 a 8.15 (FRA-4: 90 % de lo cobrado por agua dulce "
                 "subterránea industrial o comercial a la AAA)")
SOURCE_TARIFF = "franchise_billing.tariff"
SOURCE_METERED = "franchise_billing.metered"
METERED = TariffClass.GROUND_INDUSTRIAL


def _user(actor):
    return actor if getattr(actor, "is_authenticated", False) else None


def special_fund() -> Fund:
    """FRA-4's special fund: every franchise charge goes here, GROUND_INDUSTRIAL included (its
    class is recorded on the charge, so FRA-4 can split its collections)."""
    return Fund.objects.get_or_create(code=FUND_CODE, defaults={"name": FUND_NAME, "citation": FUND_CITATION})[0]


def _version(params, on: date):
    return (params or DatabaseParameters()).get(selectors.FAMILY, on)


def tariff_payload(franchise: Franchise, *, as_of: date, gallons: int | None = None) -> dict:
    """The `franchise-tariff` input for a franchise billed on its authorized volume (`gallons`:
    another volume than the franchise's current one, e.g. the one before an amendment)."""
    gallons = franchise.authorized_gallons if gallons is None else gallons
    payload = {"source": franchise.source, "use": franchise.use, "authorized_gallons": str(gallons),
               "payment_plan": franchise.payment_plan, "as_of": as_of.isoformat()}
    if franchise.exemption:
        payload["exempt_reason"] = franchise.exemption
    return payload


def metered_payload(franchise: Franchise, *, gallons: int, month: date) -> dict:
    """The `franchise-tariff` input for one month of a metered (GROUND_INDUSTRIAL) franchise."""
    return {"source": franchise.source, "use": franchise.use, "monthly_gallons_extracted": [str(gallons)],
            "as_of": month.isoformat()}


def _compute(payload: dict, params) -> dict:
    try:
        return run("franchise-tariff", payload, params or DatabaseParameters())
    except ComputeInputError as exc:
        raise ValidationError({"franchise": f"franchise-tariff: {exc.field}: {exc.message}"}) from None


# --- tariff invoices (FRA-1 to FRA-3) ------------------------------------------------------------------

CREATED, EXISTS, EXEMPT, METERED_CLASS, SKIPPED = "CREATED", "EXISTS", "EXEMPT", "METERED", "SKIPPED"


@dataclass(frozen=True)
class InvoiceOutcome:
    status: str
    franchise: Franchise
    charge: FranchiseCharge | None = None
    reason: str = ""
    message: str = ""


def _check_fiscal_year(fiscal_year: int, issued_on: date, today: date) -> None:
    errors = {}
    if not 2000 <= int(fiscal_year) <= fiscal_year_of(today) + 1:
        errors["fiscal_year"] = _("Año fiscal fuera de alcance: se factura hasta el FY%(year)s (el próximo).") % {
            "year": fiscal_year_of(today) + 1}
    if issued_on > today:
        errors["issued_on"] = _("La fecha de emisión no puede ser futura.")
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def franchise_invoice_create(*, franchise: Franchise, fiscal_year: int, actor, issued_on: date | None = None,
                             params=None) -> InvoiceOutcome:
    """FRA-1 to FRA-3: the fiscal year's tariff invoice of one franchise, or why there is none.

    Exempt franchises (FRA-2) and metered ones (GROUND_INDUSTRIAL, billed monthly) get none;
    nor do franchises not active or whose term misses the year. A second call finds the first
    invoice (natural key: franchise and fiscal year) and changes nothing. Installments and due
    dates follow FRA-3 (rules.tariff_invoice): the invoice bills the days of the year the
    authorization covers, pro rata by days in its first and last years, and never a day already
    billed to another franchise of its renewal chain (a renewal's first invoice starts after them).
    """
    today = timezone.localdate()
    issued_on = issued_on or today
    _check_fiscal_year(fiscal_year, issued_on, today)
    f = Franchise.objects.select_for_update(of=("self",)).select_related(
        "holder", "office", "predecessor").get(pk=franchise.pk)
    existing = FranchiseCharge.objects.filter(franchise=f, kind=FranchiseCharge.Kind.TARIFF,
                                              fiscal_year=fiscal_year).first()
    if existing is not None:
        return InvoiceOutcome(EXISTS, f, existing, rules.ALREADY_INVOICED, rules.SKIP_REASONS[rules.ALREADY_INVOICED])
    if f.exemption:
        return InvoiceOutcome(EXEMPT, f, reason=f.exemption, message=EXEMPTIONS.get(f.exemption, ""))
    if f.tariff_class == METERED:
        return InvoiceOutcome(METERED_CLASS, f, reason=METERED,
                              message="Se factura mensualmente según la lectura del contador (FRA-3, sec. 8.14 b).")
    reason = rules.billable_reason(status=f.status, issue_date=f.issue_date, expiry_date=f.expiry_date,
                                   fiscal_year=fiscal_year)
    if reason is not None:
        return InvoiceOutcome(SKIPPED, f, reason=reason, message=rules.SKIP_REASONS[reason])

    # FRA-3 Decision: the days of the year the authorization covers (pro rata in its first and
    # last years), less any day already billed to the franchise it renews or that renews it.
    fy_start, fy_end = fiscal_year_start(fiscal_year), fiscal_year_end(fiscal_year)
    period = billing_period(fy_start=fy_start, fy_end=fy_end, issue_date=f.issue_date, expiry_date=f.expiry_date)
    others = [c for c in selectors.chain_ids(f) if c != f.pk]
    covered = [p for periods in selectors.billed_periods(others, fiscal_year).values() for p in periods]
    gaps = uncovered(period, covered) if period else []
    if not gaps:
        reason = rules.BILLED_IN_CHAIN
        return InvoiceOutcome(SKIPPED, f, reason=reason, message=rules.SKIP_REASONS[reason])
    period_start, period_end = gaps[0]

    payload = tariff_payload(f, as_of=period_start)
    result = _compute(payload, params)
    annual = Decimal(result["annual_tariff"])
    plan = rules.tariff_invoice(fiscal_year=fiscal_year, plan=f.payment_plan, annual=annual,
                                installments=[Decimal(a) for a in result["installments"]], issued_on=period_start,
                                period_end=period_end)
    version = _version(params, period_start)
    covers = [plan.period_start.isoformat(), plan.period_end.isoformat()]
    lines = [{"seq": i + 1, "due_date": d.isoformat(), "amount": str(a), "rule": plan.rule, "covers": covers}
             for i, (d, a) in enumerate(plan.installments)]
    breakdown = {
        "calculation": "franchise-tariff", "input": payload, "rules": ["FRA-1", "FRA-3"],
        "franchise": f.number, "franchise_id": f.pk, "holder": f.holder.display_name, "fiscal_year": fiscal_year,
        "tariff_class": result["tariff_class"], "source": f.source, "use": f.use,
        "authorized_gallons": f.authorized_gallons, "payment_plan": f.payment_plan,
        "annual_tariff": result["annual_tariff"], "installments_calculated": result["installments"],
        "period": {"start": plan.period_start.isoformat(), "end": plan.period_end.isoformat(),
                   "days": plan.days or days_inclusive(plan.period_start, plan.period_end),
                   "days_in_year": days_inclusive(fy_start, fy_end), "rule": "FRA-3"},
        "prorated": {"issued_on": f.issue_date.isoformat(), "expiry_date": f.expiry_date.isoformat(),
                     "days": plan.days, "days_in_year": plan.days_in_year, "amount": str(plan.amount),
                     "rule": "FRA-3", "text": rules.prorated_text(plan, issue_date=f.issue_date,
                                                                  expiry_date=f.expiry_date)}
        if plan.prorated else None,
        "predecessor": f.predecessor.number if f.predecessor_id else None,
        "lines": lines, "citation": result.get("citation", ""),
        "payment_citation": version.values.get("payment_citation", ""), "parameters": result["parameters"],
    }
    description = (f"Tarifa de franquicia de agua FY{fiscal_year} — {f.number} ({result['tariff_class']})"
                   + (" prorrateada" if plan.prorated else "")
                   + f" {plan.period_start:%d/%m/%Y}–{plan.period_end:%d/%m/%Y}")
    receivable = receivable_create(
        account=account_for_party(f.holder), fund=special_fund(), office=f.office, kind=Receivable.Kind.INVOICE,
        source_type=SOURCE_TARIFF, source_id=f"{f.pk}:FY{fiscal_year}", installments=list(plan.installments),
        description=description, breakdown=breakdown, issued_on=issued_on, actor=actor, params=params)
    charge = FranchiseCharge.objects.create(
        franchise=f, kind=FranchiseCharge.Kind.TARIFF, fiscal_year=fiscal_year, tariff_class=result["tariff_class"],
        payment_plan=f.payment_plan, prorated=plan.prorated, receivable=receivable,
        period_start=plan.period_start, period_end=plan.period_end, amount=receivable.amount,
        authorized_gallons=f.authorized_gallons, annual_tariff=annual,
        parameters=", ".join(result["parameters"])[:120], created_by=_user(actor))
    audit(actor=actor, action="franchise_invoice.create", target=charge,
          summary=f"{receivable.payment_reference} {f.number} FY{fiscal_year} {receivable.amount}",
          data={"franchise": f.number, "fiscal_year": fiscal_year, "amount": str(receivable.amount),
                "installments": lines, "prorated": plan.prorated, "parameters": result["parameters"]})
    return InvoiceOutcome(CREATED, f, charge)


# --- supplementary invoices and credits (FRA-3 Decision) ----------------------------------------------

SOURCE_SUPPLEMENT = "franchise_billing.supplement"
CAUSE_TEXT = {
    rules.VOLUME: "enmienda del volumen autorizado",
    rules.TERM_EXTENDED: "vigencia extendida",
    rules.TERM_SHORTENED: "vigencia acortada",
}


def _annual(f: Franchise, gallons: int, fiscal_year: int, params) -> Decimal:
    as_of = max(fiscal_year_start(fiscal_year), f.issue_date)
    return Decimal(_compute(tariff_payload(f, as_of=as_of, gallons=gallons), params)["annual_tariff"])


@transaction.atomic
def franchise_terms_corrections(*, franchise: Franchise, effective_on: date, gallons_before: int,
                                expiry_before: date, actor, application=None, params=None) -> list[FranchiseCharge]:
    """FRA-3 (docs/rules/franchises.md): after an amendment or an in-place renewal took effect on
    `effective_on`, bill or credit the fiscal years already invoiced, pro rata by days, as new
    charges (the issued invoices are never edited): a supplementary invoice (a receivable of its
    own, due on its date) or a credit (a CREDIT ledger entry on the holder's account, applied to
    what is open). See rules.corrections for what each cause bills.

    Franchises billed by meter or exempt have no tariff invoice to correct. Idempotent per
    application, fiscal year and cause (a unique constraint).
    """
    f = Franchise.objects.select_for_update().select_related("holder", "office").get(pk=franchise.pk)
    if f.exemption or f.tariff_class == METERED:
        return []
    today = timezone.localdate()
    issued_on = min(effective_on, today)
    others = [c for c in selectors.chain_ids(f) if c != f.pk]
    created: list[FranchiseCharge] = []
    for invoice in FranchiseCharge.objects.filter(franchise=f, kind=FranchiseCharge.Kind.TARIFF).order_by(
            "fiscal_year"):
        fy = invoice.fiscal_year
        if application is not None and FranchiseCharge.objects.filter(application=application,
                                                                       fiscal_year=fy).exists():
            continue
        before = _annual(f, gallons_before, fy, params)
        after = _annual(f, f.authorized_gallons, fy, params)
        billed = selectors.billed_periods([f.pk], fy).get(f.pk, [])
        chain = [p for periods in selectors.billed_periods(others, fy).values() for p in periods]
        for c in rules.corrections(fiscal_year=fy, billed=billed, effective_on=effective_on, annual_before=before,
                                   annual_after=after, expiry_before=expiry_before, expiry_after=f.expiry_date,
                                   chain_billed=chain):
            created.append(_correction_create(f, invoice, c, issued_on=issued_on, application=application,
                                              actor=actor, params=params))
    return created


@transaction.atomic
def franchise_overbilling_credits(*, franchise: Franchise, actor, on: date | None = None,
                                  params=None) -> list[FranchiseCharge]:
    """FRA-3 Decision, for invoices issued before periods were checked: credit the days a tariff
    invoice billed past the franchise's expiry (sec. 8.14 a bills only what is authorized), at the
    rate they were billed, as new CREDIT charges (cause TERM_SHORTENED). Running it again finds
    nothing left to credit (credited days no longer count as billed)."""
    f = Franchise.objects.select_for_update().select_related("holder", "office").get(pk=franchise.pk)
    if f.exemption or f.tariff_class == METERED:
        return []
    on = min(on or timezone.localdate(), timezone.localdate())
    created = []
    for invoice in FranchiseCharge.objects.filter(franchise=f, kind=FranchiseCharge.Kind.TARIFF).order_by(
            "fiscal_year"):
        billed = selectors.billed_periods([f.pk], invoice.fiscal_year).get(f.pk, [])
        last_billed = max((p[1] for p in billed), default=None)
        if last_billed is None or last_billed <= f.expiry_date:
            continue
        annual = invoice.annual_tariff if invoice.annual_tariff is not None else _annual(
            f, invoice.authorized_gallons or f.authorized_gallons, invoice.fiscal_year, params)
        for c in rules.corrections(fiscal_year=invoice.fiscal_year, billed=billed, effective_on=on,
                                   annual_before=annual, annual_after=annual,
                                   expiry_before=last_billed, expiry_after=f.expiry_date):
            created.append(_correction_create(f, invoice, c, issued_on=on, application=None, actor=actor,
                                              params=params))
    return created


def _correction_create(f: Franchise, invoice: FranchiseCharge, c: rules.Correction, *, issued_on: date,
                       application, actor, params) -> FranchiseCharge:
    what = "Factura suplementaria" if c.amount > 0 else "Crédito"
    text = (f"{what} FY{c.fiscal_year} — {f.number}: {CAUSE_TEXT[c.cause]}, {c.period_start:%d/%m/%Y}–"
            f"{c.period_end:%d/%m/%Y}, {c.days}/{c.days_in_year} días (FRA-3)")
    breakdown = {
        "calculation": "franchise-tariff", "rules": ["FRA-1", "FRA-3"], "franchise": f.number, "franchise_id": f.pk,
        "holder": f.holder.display_name, "fiscal_year": c.fiscal_year, "tariff_class": f.tariff_class,
        "cause": c.cause, "adjusts": invoice.receivable.payment_reference if invoice.receivable_id else None,
        "application_id": getattr(application, "pk", None),
        "period": {"start": c.period_start.isoformat(), "end": c.period_end.isoformat(), "days": c.days,
                   "days_in_year": c.days_in_year, "rule": "FRA-3"},
        "annual_before": str(c.annual_before), "annual_after": str(c.annual_after), "amount": str(c.amount),
        "text": "Prorrata por días de la diferencia de tarifa anual, redondeada una vez (FRA-3)."
        if c.cause == rules.VOLUME else "Prorrata por días de la tarifa anual (FRA-3).",
        "lines": [{"seq": 1, "due_date": issued_on.isoformat(), "amount": str(c.amount), "rule": "FRA-3",
                   "covers": [c.period_start.isoformat(), c.period_end.isoformat()]}],
    }
    fields = {"franchise": f, "fiscal_year": c.fiscal_year, "tariff_class": f.tariff_class,
              "payment_plan": f.payment_plan, "prorated": True, "period_start": c.period_start,
              "period_end": c.period_end, "amount": c.amount, "authorized_gallons": f.authorized_gallons,
              "annual_tariff": c.annual_after, "adjusts": invoice, "cause": c.cause, "application": application,
              "created_by": _user(actor)}
    key = f"{f.pk}:FY{c.fiscal_year}:{c.cause}:{getattr(application, 'pk', None) or issued_on.isoformat()}"
    if c.amount > 0:
        receivable = receivable_create(
            account=account_for_party(f.holder), fund=special_fund(), office=f.office, kind=Receivable.Kind.INVOICE,
            source_type=SOURCE_SUPPLEMENT, source_id=key, installments=[(issued_on, c.amount)], description=text,
            breakdown=breakdown, issued_on=issued_on, actor=actor, params=params)
        charge = FranchiseCharge.objects.create(kind=FranchiseCharge.Kind.SUPPLEMENT, receivable=receivable, **fields)
        # A supplementary invoice is an ordinary invoice: its notice goes out like the year's.
        notices_schedule_after_commit(source_types=[SOURCE_SUPPLEMENT], actor=actor)
    else:
        # A credit is money in the holder's favour: a CREDIT entry on the account (never an edit of
        # the invoice), then applied to what is open like any other credit.
        account = lock_account(account_for_party(f.holder))
        entry = post([LedgerEntry(account=account, kind=LedgerEntry.Kind.CREDIT, component=LedgerEntry.Component.CREDIT,
                                  amount=c.amount, effective_date=issued_on, actor=_user(actor), memo=text[:300],
                                  rule="FRA-3")])[0]
        charge = FranchiseCharge.objects.create(kind=FranchiseCharge.Kind.CREDIT, credit_entry=entry, **fields)
        credit_apply(account=account, on=issued_on, actor=actor, params=params)
    audit(actor=actor, action="franchise_invoice.correction", target=charge, summary=text,
          data={"franchise": f.number, "fiscal_year": c.fiscal_year, "cause": c.cause, "amount": str(c.amount),
                "period": [c.period_start.isoformat(), c.period_end.isoformat()], "breakdown": breakdown})
    return charge


def _entry(f: Franchise, **extra) -> dict:
    return {"franchise_id": f.pk, "number": f.number, "holder": f.holder.display_name,
            "tariff_class": f.tariff_class, **extra}


def franchise_invoices_generate(*, fiscal_year: int, actor, issued_on: date | None = None,
                                trigger: str = InvoiceRun.Trigger.PAGE, record_empty: bool = True,
                                params=None) -> InvoiceRun:
    """FRA-3: the fiscal year's tariff invoices (see _invoices_generate). The run's report is a
    stored record: its messages and labels are in the office's language (Spanish) whoever starts
    the run, like the audit trail."""
    with translation.override(settings.LANGUAGE_CODE):
        return _invoices_generate(fiscal_year=fiscal_year, actor=actor, issued_on=issued_on, trigger=trigger,
                                  record_empty=record_empty, params=params)


@transaction.atomic
def _invoices_generate(*, fiscal_year: int, actor, issued_on: date | None, trigger: str, record_empty: bool,
                       params) -> InvoiceRun:
    """FRA-3: the fiscal year's tariff invoices for every franchise, with the run's report:
    created, skipped (with the reason; already invoiced included), exempt (FRA-2, with the
    reason), metered (GROUND_INDUSTRIAL: monthly bills), errors, and totals by class.

    Running it again creates nothing (each franchise's invoice is found by its natural key). A
    franchise the calculation refuses is reported as an error and the others are still billed.
    With `record_empty=False` a run that created nothing and met no error is not stored (the
    daily catch-up for franchises issued during the year); the unsaved run still carries the report.
    """
    today = timezone.localdate()
    issued_on = issued_on or today
    _check_fiscal_year(fiscal_year, issued_on, today)
    report: dict = {"fiscal_year": fiscal_year, "issued_on": issued_on.isoformat(), "created": [], "skipped": [],
                    "exempt": [], "metered": [], "errors": []}
    by_class: dict[str, dict] = {}
    created_total = ZERO
    for f in Franchise.objects.select_related("holder").order_by("number"):
        try:
            with transaction.atomic():
                outcome = franchise_invoice_create(franchise=f, fiscal_year=fiscal_year, actor=actor,
                                                   issued_on=issued_on, params=params)
        except (ValidationError, ValueError) as exc:
            messages = exc.messages if isinstance(exc, ValidationError) else [str(exc)]
            report["errors"].append(_entry(f, message="; ".join(messages)))
            continue
        if outcome.status == CREATED:
            rec = outcome.charge.receivable
            report["created"].append(_entry(
                f, tariff_class=outcome.charge.tariff_class, payment_plan=outcome.charge.payment_plan,
                amount=str(rec.amount), prorated=outcome.charge.prorated,
                installments=[[i.due_date.isoformat(), str(i.amount)] for i in rec.installments.order_by("seq")],
                payment_reference=rec.payment_reference))
            created_total += rec.amount
            row = by_class.setdefault(outcome.charge.tariff_class, {"count": 0, "amount": ZERO})
            row["count"] += 1
            row["amount"] += rec.amount
        elif outcome.status == EXEMPT:
            report["exempt"].append(_entry(f, exemption=outcome.reason, label=f.get_exemption_display(),
                                           citation=outcome.message))
        elif outcome.status == METERED_CLASS:
            report["metered"].append(_entry(f, unbilled=len(selectors.unbilled_readings(f, today)),
                                            message=outcome.message))
        else:
            report["skipped"].append(_entry(f, reason=outcome.reason, message=outcome.message))
    report["totals_by_class"] = [{"tariff_class": c, "count": by_class[c]["count"],
                                  "amount": str(by_class[c]["amount"])} for c in CLASSES if c in by_class]
    report["created_total"] = str(created_total)
    report["fy_totals_by_class"] = [{"tariff_class": r["tariff_class"], "count": r["count"],
                                     "amount": str(r["amount"])} for r in selectors.invoice_totals(fiscal_year)]
    run_row = InvoiceRun(fiscal_year=fiscal_year, issued_on=issued_on, trigger=trigger, run_by=_user(actor),
                         created_count=len(report["created"]), created_total=created_total, report=report)
    if report["created"]:
        # Invoices get notices like every other charge (issued after commit; idempotent per receivable).
        notices_schedule_after_commit(source_types=[SOURCE_TARIFF], actor=actor)
    if record_empty or report["created"] or report["errors"]:
        run_row.save()
        audit(actor=actor, action="franchise_invoice.run", target=run_row,
              summary=f"FY{fiscal_year}: {len(report['created'])} facturas, {created_total}",
              data={k: len(v) for k, v in report.items() if isinstance(v, list)})
    return run_row


# --- metered bills (FRA-3, sec. 8.14 b) ---------------------------------------------------------------

@transaction.atomic
def meter_bill_create(*, reading: MeterReading, actor, billed_on: date | None = None,
                      params=None) -> FranchiseCharge | None:
    """FRA-3: a month's metered bill, gallons extracted × the rate (`franchise-tariff`'s monthly
    bill), due 30 days (parameter `metered_bill_due_days`) after the bill's date.

    Only for a GROUND_INDUSTRIAL franchise without exemption, for a month that has ended by the
    bill's date. Idempotent on (franchise, month): the same reading billed again returns the bill;
    a reading changed after billing is refused (correct the bill with an adjustment). A month
    whose bill is $0.00 gets no receivable (None).
    """
    billed_on = billed_on or timezone.localdate()
    reading = MeterReading.objects.select_related("franchise", "franchise__holder", "franchise__office").get(
        pk=reading.pk)
    f = Franchise.objects.select_for_update().get(pk=reading.franchise_id)
    errors = {}
    if f.tariff_class != METERED:
        errors["reading"] = _("La franquicia %(number)s es de clase %(tariff_class)s: paga la tarifa anual, "
                              "no por contador.") % {"number": f.number, "tariff_class": f.tariff_class}
    elif f.exemption:
        errors["reading"] = _("La franquicia %(number)s está exenta (%(exemption)s, FRA-2): no se factura.") % {
            "number": f.number, "exemption": f.exemption}
    elif not rules.month_ended(reading.month, billed_on):
        errors["billed_on"] = _("El mes %(month)s no ha terminado el %(date)s.") % {
            "month": f"{reading.month:%m/%Y}", "date": f"{billed_on:%d/%m/%Y}"}
    if billed_on > timezone.localdate():
        errors["billed_on"] = _("La fecha de la factura no puede ser futura.")
    if errors:
        raise ValidationError(errors)
    existing = FranchiseCharge.objects.filter(franchise=f, kind=FranchiseCharge.Kind.METERED,
                                              month=reading.month).select_related("receivable").first()
    if existing is not None:
        if existing.gallons != reading.gallons:
            raise ValidationError({"reading": _(
                "%(number)s %(month)s ya se facturó con %(gallons)s galones (%(reference)s); corrija la factura "
                "con un ajuste.") % {"number": f.number, "month": f"{reading.month:%m/%Y}",
                                    "gallons": f"{existing.gallons:,}",
                                    "reference": existing.receivable.payment_reference}})
        return existing
    result = _compute(metered_payload(f, gallons=reading.gallons, month=reading.month), params)
    amount = Decimal(result["monthly_bills"][0])
    if amount <= 0:
        return None
    version = _version(params, reading.month)
    due_days = int(version.values.get("metered_bill_due_days", 30))
    due = rules.metered_due(billed_on, due_days)
    per_gallon = version.values["classes"][METERED].get("per_gallon")
    breakdown = {
        "calculation": "franchise-tariff", "input": metered_payload(f, gallons=reading.gallons, month=reading.month),
        "rules": ["FRA-1", "FRA-3"], "franchise": f.number, "franchise_id": f.pk, "holder": f.holder.display_name,
        "fiscal_year": fiscal_year_of(reading.month), "month": reading.month.isoformat(),
        "tariff_class": result["tariff_class"], "gallons": reading.gallons, "per_gallon": per_gallon,
        "lines": [{"seq": 1, "due_date": due.isoformat(), "amount": str(amount), "rule": "FRA-3"}],
        "due_days": due_days, "due_citation": version.values.get("metered_bill_due_citation", ""),
        "citation": result.get("citation", ""), "parameters": result["parameters"],
    }
    receivable = receivable_create(
        account=account_for_party(f.holder), fund=special_fund(), office=f.office, kind=Receivable.Kind.INVOICE,
        source_type=SOURCE_METERED, source_id=f"{f.pk}:{reading.month:%Y-%m}", installments=[(due, amount)],
        description=f"Factura por contador {reading.month:%m/%Y} — {f.number}: {reading.gallons:,} galones",
        breakdown=breakdown, issued_on=billed_on, actor=actor, params=params)
    notices_schedule_after_commit(source_types=[SOURCE_METERED], actor=actor)
    charge = FranchiseCharge.objects.create(
        franchise=f, kind=FranchiseCharge.Kind.METERED, fiscal_year=fiscal_year_of(reading.month),
        month=reading.month, reading=reading, gallons=reading.gallons, tariff_class=result["tariff_class"],
        receivable=receivable, parameters=", ".join(result["parameters"])[:120], created_by=_user(actor))
    audit(actor=actor, action="franchise_meter_bill.create", target=charge,
          summary=f"{receivable.payment_reference} {f.number} {reading.month:%Y-%m} {amount}",
          data={"franchise": f.number, "month": reading.month.isoformat(), "gallons": reading.gallons,
                "amount": str(amount), "due_date": due.isoformat()})
    return charge


@dataclass
class BillingResult:
    created: list[FranchiseCharge] = field(default_factory=list)
    no_charge: list[MeterReading] = field(default_factory=list)

    @property
    def total(self) -> Decimal:
        return sum((c.receivable.amount for c in self.created), ZERO)


@transaction.atomic
def meter_bills_create(*, franchise: Franchise, actor, billed_on: date | None = None, params=None) -> BillingResult:
    """Bill every reading of the franchise not billed yet (months ended by the bill's date)."""
    billed_on = billed_on or timezone.localdate()
    result = BillingResult()
    for reading in selectors.unbilled_readings(franchise, billed_on):
        charge = meter_bill_create(reading=reading, actor=actor, billed_on=billed_on, params=params)
        if charge is None:
            result.no_charge.append(reading)
        else:
            result.created.append(charge)
    return result


class ReadingImportError(ValidationError):
    """The file was refused whole; `rows` says where (row, column, value, message)."""

    def __init__(self, rows: list[readings_csv.RowError]) -> None:
        self.rows = rows
        super().__init__([str(r) for r in rows])


@transaction.atomic
def meter_readings_import(*, content: bytes | str, filename: str, actor, billed_on: date | None = None,
                          params=None) -> ReadingImport:
    """The AAA's monthly readings file (franchise number, month, gallons): all or nothing.

    Every row is checked first — readable values, a metered (GROUND_INDUSTRIAL) franchise that
    exists and was issued by then, a month that has ended by the bill's date, no bill already made
    with other gallons — and any error refuses the whole file (ReadingImportError, nothing
    written). Then each row is recorded through the registry's service (origin: the AAA's file)
    and billed; rows already recorded and billed with the same gallons change nothing.
    """
    today = timezone.localdate()
    billed_on = billed_on or today
    raw = content if isinstance(content, bytes) else content.encode("utf-8")
    if len(raw) > DEFAULT_MAX_BYTES:
        raise ReadingImportError([readings_csv.RowError(1, "", "", too_large_message(DEFAULT_MAX_BYTES))])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ReadingImportError([readings_csv.RowError(1, "", "", _("El archivo no está en UTF-8."))]) from None
    rows, errors = readings_csv.parse(text)
    if billed_on > today:
        errors.append(readings_csv.RowError(1, "", billed_on.isoformat(),
                                            _("La fecha de las facturas es futura.")))
    numbers = {r.number for r in rows}
    franchises = {f.number: f for f in Franchise.objects.filter(number__in=numbers).select_related("holder", "office")}
    billed = {(c.franchise.number, c.month): c for c in FranchiseCharge.objects.filter(
        kind=FranchiseCharge.Kind.METERED, franchise__number__in=numbers).select_related("franchise", "receivable")}
    for r in rows:
        col_f, col_m, col_g = r.columns
        f = franchises.get(r.number)
        if f is None:
            errors.append(readings_csv.RowError(r.row, col_f, r.number,
                                                _("No existe una franquicia con ese número.")))
            continue
        if f.tariff_class != METERED:
            errors.append(readings_csv.RowError(r.row, col_f, r.number, _(
                "Es de clase %(tariff_class)s: solo GROUND_INDUSTRIAL se factura por contador.") % {
                "tariff_class": f.tariff_class}))
            continue
        if not rules.month_ended(r.month, billed_on):
            errors.append(readings_csv.RowError(r.row, col_m, f"{r.month:%Y-%m}",
                                                _("El mes no ha terminado el %(date)s.") % {
                                                    "date": f"{billed_on:%d/%m/%Y}"}))
            continue
        if rules.month_ended(r.month, f.issue_date):
            errors.append(readings_csv.RowError(r.row, col_m, f"{r.month:%Y-%m}", _(
                "Anterior a la expedición de la franquicia (%(date)s).") % {"date": f"{f.issue_date:%d/%m/%Y}"}))
            continue
        done = billed.get((r.number, r.month))
        if done is not None and done.gallons != r.gallons:
            errors.append(readings_csv.RowError(
                r.row, col_g, str(r.gallons), _(
                    "Ese mes ya se facturó con %(gallons)s galones (%(reference)s); corrija la factura con un "
                    "ajuste.") % {"gallons": f"{done.gallons:,}", "reference": done.receivable.payment_reference}))
    if errors:
        raise ReadingImportError(sorted(errors, key=lambda e: (e.row, e.column)))

    report = {"rows": len(rows), "readings_created": 0, "readings_updated": 0, "unchanged": 0, "bills_created": 0,
              "bills_total": "0.00", "no_charge": 0, "exempt": 0, "bills": []}
    total = ZERO
    for r in rows:
        f = franchises[r.number]
        before = MeterReading.objects.filter(franchise=f, month=r.month).values_list("gallons", flat=True).first()
        reading = franchise_services.meter_reading_record(actor=actor, franchise=f, month=r.month, gallons=r.gallons,
                                                          origin=MeterReading.Origin.AAA_FILE)
        if before is None:
            report["readings_created"] += 1
        elif before != r.gallons:
            report["readings_updated"] += 1
        if f.exemption:
            report["exempt"] += 1
            continue
        already = (r.number, r.month) in billed
        charge = meter_bill_create(reading=reading, actor=actor, billed_on=billed_on, params=params)
        if charge is None:
            report["no_charge"] += 1
        elif already:
            report["unchanged"] += 1
        else:
            report["bills_created"] += 1
            total += charge.receivable.amount
            report["bills"].append({"row": r.row, "franchise": f.number, "month": f"{r.month:%Y-%m}",
                                    "gallons": r.gallons, "amount": str(charge.receivable.amount),
                                    "payment_reference": charge.receivable.payment_reference,
                                    "due_date": charge.receivable.installments.get().due_date.isoformat()})
    report["bills_total"] = str(total)
    record = ReadingImport.objects.create(filename=filename[:200], sha256=hashlib.sha256(raw).hexdigest(),
                                          billed_on=billed_on, uploaded_by=_user(actor), report=report)
    audit(actor=actor, action="franchise_readings.import", target=record,
          summary=f"{filename}: {len(rows)} lecturas, {report['bills_created']} facturas, {total}",
          data={k: v for k, v in report.items() if k != "bills"})
    return record


# --- FRA-4: transfers to the AAA -----------------------------------------------------------------------

@transaction.atomic
def aaa_transfer_record(*, period: str | rules.Period, transferred_on: date, actor, reference: str = "",
                        notes: str = "", params=None) -> AaaTransfer:
    """FRA-4 (sec. 8.15): record the transfer to the AAA of 90 % of a period's GROUND_INDUSTRIAL
    collections (a month, a fiscal quarter or a fiscal year), computed on the period's total and
    rounded half-up once. One transfer per period; periods never overlap; the period must be over
    by the transfer's date."""
    if isinstance(period, str):
        try:
            period = rules.period_from_label(period)
        except ValueError:
            message = _("Período no reconocido: «%(p)s». Use un mes (2026-11), un trimestre fiscal (FY2027-Q2) o "
                        "un año fiscal (FY2027).") % {"p": period}
            raise ValidationError({"period": message}) from None
    errors = {}
    if transferred_on <= period.end:
        errors["transferred_on"] = _("El período %(period)s termina el %(end)s: se transfiere después de "
                                     "cerrado.") % {"period": period.label, "end": f"{period.end:%d/%m/%Y}"}
    if transferred_on > timezone.localdate():
        errors["transferred_on"] = _("La fecha de la transferencia no puede ser futura.")
    overlap = list(selectors.overlapping_transfers(period).select_for_update())
    if overlap:
        errors["period"] = _("Ya hay una transferencia registrada que cubre parte del período: %(periods)s.") % {
            "periods": ", ".join(t.period_label for t in overlap)}
    if errors:
        raise ValidationError(errors)
    report = selectors.fra4_report(period, params=params)
    collected = report.aaa_collected
    transferred = sum((r.transferred for r in report.rows), ZERO)
    if transferred <= 0:
        raise ValidationError({"period": _("No hay recaudos de %(classes)s que transferir en %(period)s.") % {
            "classes": ", ".join(report.transfer_classes), "period": period.label}})
    transfer = AaaTransfer.objects.create(
        period_kind=period.kind, period_label=period.label, period_start=period.start, period_end=period.end,
        collected=collected, transferred=transferred, retained=collected - transferred,
        transfer_pct=report.transfer_pct, parameters=report.parameters, transferred_on=transferred_on,
        reference=reference.strip()[:60], notes=notes, recorded_by=_user(actor))
    audit(actor=actor, action="aaa_transfer.record", target=transfer,
          summary=f"{period.label}: {transferred} de {collected} a la AAA",
          data={"period": period.label, "collected": str(collected), "transferred": str(transferred),
                "retained": str(collected - transferred), "pct": str(report.transfer_pct),
                "parameters": report.parameters, "transferred_on": transferred_on.isoformat()})
    return transfer


# --- FRA-8: arrears ------------------------------------------------------------------------------------

@transaction.atomic
def franchise_arrears_flags_run(*, today: date, actor=None) -> dict:
    """FRA-8 (sec. 8.19): hand the registry's daily flags run each franchise's oldest unpaid
    tariff due date; it raises the arrears flag from due + 6 calendar months and resolves it
    once paid (with FRA-7 and FRA-10 as every day). Running twice changes nothing."""
    oldest = selectors.oldest_unpaid_due(on=today)
    result = franchise_services.franchise_flags_record(today=today, actor=actor, oldest_unpaid_due=oldest)
    return {**result, "franchises_with_unpaid": len(oldest)}
