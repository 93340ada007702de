"""What a notice says, gathered from its receivable, its snapshot and the surcharge terms in force.

`addressees_for` takes the snapshot when a notice is numbered; `notice_context` builds the
template context when its PDF is rendered. A RenderCache carries what many notices of one run
share (surcharge terms, districts, offices), so a chunk of 200 asks the database once for them.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation

from django.db.models import Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from assessments.ledger import surcharge_rules as sr
from assessments.ledger.surcharges import TermsCache
from assessments.models import LedgerEntry, Receivable
from assessments.notices import rules, texts
from assessments.notices.barcode import code128_data_uri
from core.money import ZERO
from districts.models import District, Ownership, Party

PROGRAM_NOUN = {
    "IRR": gettext_lazy("Cuota de riego"), "LAJ": gettext_lazy("Contribución de operación y mantenimiento (O&M)"),
    "SID": gettext_lazy("Cargo por beneficio"), "TID": gettext_lazy("Cargo del distrito de mejoramiento turístico"),
    "FRA": gettext_lazy("Tarifa de franquicia de agua"), "OTHER": gettext_lazy("Cargo"),
}
SHORT_NOUN = {"LAJ": gettext_lazy("Contribución O&M")}
EXEMPT_REASONS = {
    "WATER_BELOW_MINIMUM": "IRR-8", "NOT_YET_LIABLE": "LAJ-5", "FREE_PERIOD": "IRR-4",
}
# The rule that sends delinquent amounts to the property-tax seizure procedure, per program.
COLLECTION_RULE = {"IRR": "IRR-12", "LAJ": "LAJ-7", "SID": "SID-1", "TID": "TID-6"}
PERIOD = re.compile(r"FY(\d{4})-S([12])")
INSTALLMENT_RULES = ("SID-1", "TID-2")   # benefit charges: installments set by the resolution or ordinance


def _dec(value, default: Decimal = ZERO) -> Decimal:
    try:
        return Decimal(str(value))
    except (InvalidOperation, TypeError, ValueError):
        return default


def _date(value) -> date | None:
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except (TypeError, ValueError):
        return None


# --- who a notice is addressed to ---------------------------------------------------------------

def _snapshot(party: Party, share: Decimal | None) -> dict:
    attention = ""
    if party.kind == Party.Kind.ORGANIZATION and party.representative_id:
        rep = party.representative
        attention = rep.display_name + (f", {party.representative_title}" if party.representative_title else "")
    return {"party_id": party.pk, "name": party.display_name, "kind": party.kind,
            "share_pct": str(share) if share is not None else None, "address_lines": party.address_lines,
            "attention": attention, "language": party.notice_language}


def addressees_for(receivables: list[Receivable], on: date) -> dict[int, list[dict]]:
    """{receivable id: [snapshot, …]}: the owners of record of the parcel on `on` (largest share
    first), or the account's own party (a franchise holder)."""
    parcel_ids = {r.account.parcel_id for r in receivables if r.account.parcel_id}
    owners: dict[int, list[dict]] = defaultdict(list)
    if parcel_ids:
        rows = (Ownership.objects.filter(parcel_id__in=parcel_ids, start_date__lte=on)
                .exclude(end_date__lte=on)
                .select_related("party", "party__address_municipality", "party__representative")
                .order_by("parcel_id", "-share_pct", "party__first_surname", "party__organization_name", "party_id"))
        for o in rows:
            owners[o.parcel_id].append(_snapshot(o.party, o.share_pct))
    out = {}
    for r in receivables:
        if r.account.parcel_id:
            out[r.pk] = owners.get(r.account.parcel_id, [])
        else:
            out[r.pk] = [_snapshot(r.account.party, None)]
    return out


# --- the rendering context ------------------------------------------------------------------------

@dataclass
class RenderCache:
    """Shared by the notices of one run: surcharge terms by rule and due date, districts by code."""

    terms: TermsCache = field(default_factory=TermsCache)
    districts: dict = field(default_factory=dict)

    def district(self, code) -> District | None:
        if not code:
            return None
        if code not in self.districts:
            self.districts[code] = (District.objects.select_related("office", "collecting_office",
                                                                     "office__address_municipality")
                                    .filter(code=code).first())
        return self.districts[code]


def _period_label(line: dict, due: date | None) -> str:
    match = PERIOD.match(str(line.get("period") or ""))
    if match:
        fy, semester = match.group(1), match.group(2)
    elif due is not None:
        fy, semester = str(due.year + 1 if due.month >= 7 else due.year), "1" if due.month >= 7 else "2"
    else:
        return ""
    if semester == "1":
        return _("1.er semestre, AF %(fy)s (jul.–dic.)") % {"fy": fy}
    return _("2.º semestre, AF %(fy)s (ene.–jun.)") % {"fy": fy}


def _line_label(line: dict, due: date | None, count: int) -> tuple[str, str]:
    """(what the line is, how its amount was bounded) as printed in the concept column."""
    if line.get("kind") == "stub":
        label = _("Fracción inicial hasta el próximo semestre")
    elif isinstance(line.get("covers"), list) and len(line["covers"]) == 2 and all(map(_date, line["covers"])):
        # A franchise tariff line bills its own period (FRA-3), not a fiscal semester.
        start, end = (_date(d) for d in line["covers"])
        label = _("Tarifa del %(start)s al %(end)s") % {"start": f"{start:%d/%m/%Y}", "end": f"{end:%d/%m/%Y}"}
        if count > 1:
            label += " · " + _("plazo %(n)s de %(t)s") % {"n": line.get("seq") or "?", "t": count}
    elif line.get("seq") and not line.get("period") and rules.rule_id(line.get("rule")) in INSTALLMENT_RULES:
        # SID-1 / TID-2 installments follow the resolution or ordinance, not the fiscal semesters.
        label = _("Plazo %(n)s de %(t)s") % {"n": line["seq"], "t": count}
    else:
        label = _period_label(line, due) or str(line.get("description") or line.get("label") or "")
    basis = {"schedule": _("cuota máxima por acre"), "share": _("parte proporcional")}.get(line.get("basis"), "")
    return label, basis


def lines_of(receivable: Receivable, program: str) -> list[dict]:
    """Every line of the charge with its amount, rule ID and short citation."""
    breakdown = receivable.breakdown or {}
    raw = breakdown.get("lines")
    out = []
    if isinstance(raw, list) and raw:
        for line in raw:
            if not isinstance(line, dict):
                continue
            due = _date(line.get("due_date"))
            reason = line.get("exempt_reason")
            rule = rules.rule_id(line.get("rule")) or EXEMPT_REASONS.get(reason or "", "")
            amount = _dec(line.get("amount"))
            if kind_free(line) and amount == 0 and not reason:
                continue
            label, basis = _line_label(line, due, len(raw))
            moved_from = _date(line.get("moved_from"))
            out.append({"label": label, "basis_label": basis, "rule": rule, "moved_from": moved_from,
                        "adjusted": "ajuste" in str(line.get("rule") or ""),
                        "citation": texts.SHORT_CITATIONS.get(rule, line.get("citation", "")),
                        "due_date": due, "amount": amount, "exempt_reason": reason or ""})
    if not out:
        rule = (rules.rule_id(str(breakdown.get("rule") or "")) or rules.rule_id(receivable.surcharge_rule)
                or {"FRA": "FRA-1", "SID": "SID-1", "TID": "TID-2"}.get(program, ""))
        first_due = min((i.due_date for i in receivable.installments.all()), default=None)
        out.append({"label": receivable.description, "basis_label": "", "rule": rule, "adjusted": False,
                    "citation": texts.SHORT_CITATIONS.get(rule, str(breakdown.get("citation") or "")),
                    "due_date": first_due, "amount": receivable.amount, "exempt_reason": ""})
    return out


def kind_free(line: dict) -> bool:
    return line.get("kind") == "free"


def _pct(value: Decimal) -> str:
    """A percentage as the statute writes it: 0.5, 10, 1.25 (no trailing zeros)."""
    return f"{value.normalize():f}"


def consequences_of(receivable: Receivable, program: str, installments, cache: RenderCache) -> list[dict]:
    """The consequences of not paying on time: surcharge by rule, lien, collection. Never empty."""
    out = []
    first_due = installments[0].due_date if installments else receivable.issued_on
    terms = cache.terms.for_installment(receivable, first_due)
    rule = receivable.surcharge_rule
    if rule == "LAJ-7":
        grace = terms.lajas.grace_days if terms.lajas is not None else 60
        pct = terms.lajas.surcharge_pct_per_month if terms.lajas is not None else Decimal("0.5")
        out.append({"rule": "LAJ-7", "title": _("Recargo por morosidad"), "text": _(
            "Un plazo no pagado dentro de los %(days)s días siguientes a su vencimiento queda moroso y paga "
            "además %(pct)s %% del plazo por cada mes o fracción de mes desde entonces, sin otro aviso.")
            % {"days": grace, "pct": _pct(pct)}})
    elif rule == "IRR-9":
        if terms.active:
            text = _("La cuota vence y se cobra como la contribución sobre la propiedad (%(cit)s): queda morosa "
                     "a los %(days)s días de su vencimiento y paga un recargo de %(s)s %% más %(i)s %% por cada mes "
                     "o fracción de mes de atraso.") % {
                "cit": terms.citation, "days": terms.grace_days, "s": _pct(terms.surcharge_pct),
                "i": _pct(terms.interest_pct_per_month)}
        else:
            text = _("La cuota vence y se cobra en la forma y en las fechas de la contribución sobre la propiedad "
                     "inmueble: su morosidad, sus intereses y sus recargos son los de esa ley.")
        out.append({"rule": "IRR-9", "title": _("Recargo por morosidad"), "text": text})
    elif rule == "RESOLUTION":
        source_rule = "TID-2" if program == "TID" else "SID-1"
        document = _("la ordenanza") if program == "TID" else _("la resolución")
        if terms.active:
            text = _("Según %(doc)s%(cit)s: el pago queda moroso a los %(days)s días de su vencimiento y paga un "
                     "recargo de %(s)s %% más %(i)s %% por cada mes o fracción de mes de atraso.") % {
                "doc": document, "cit": f" ({terms.citation})" if terms.citation else "", "days": terms.grace_days,
                "s": _pct(terms.surcharge_pct), "i": _pct(terms.interest_pct_per_month)}
        else:
            text = _("%(doc)s no fija recargo por pago tardío; el cargo sigue vencido hasta que se pague.") % {
                "doc": document.capitalize()}
        out.append({"rule": source_rule, "title": _("Recargo por pago tardío"), "text": text})
    penalty_text = (receivable.breakdown or {}).get("penalty_terms")
    if penalty_text:
        # The instrument's own words, quoted as adopted (they are not translated with the notice).
        out.append({"rule": "TID-2" if program == "TID" else "SID-1",
                    "title": _("Términos de pago (texto de la resolución)") if program == "SID"
                    else _("Términos de pago (texto de la ordenanza)"), "text": f"«{penalty_text}»"})
    # A roll's charge constitutes its lien when the roll is finalized (July 1), after its notice is
    # issued: the notice says so all the same. Water sold by use (LAJ-5) creates none.
    if program in texts.LIEN_TEXT and receivable.account.parcel_id and (
            receivable.creates_lien or receivable.kind == Receivable.Kind.ROLL_LINE or program in ("SID", "TID")):
        out.append({"rule": texts.LIEN_RULE[program], "title": _("Gravamen sobre la propiedad"),
                    "text": texts.LIEN_TEXT[program]})
    if program == "FRA":
        out.append({"rule": "FRA-8", "title": _("Franquicia"), "text": texts.COLLECTION_TEXT["FRA"]})
    else:
        out.append({"rule": COLLECTION_RULE.get(program, ""), "title": _("Cobro de lo adeudado"),
                    "text": texts.COLLECTION_TEXT["default"]})
    return out


def _grace_end(cache: RenderCache, receivable: Receivable, due: date) -> date | None:
    terms = cache.terms.for_installment(receivable, due)
    if receivable.surcharge_rule == "LAJ-7":
        return due + timedelta(days=terms.lajas.grace_days if terms.lajas is not None else 60)
    if terms.active:
        return terms.grace_end(due)
    return None


def _overdue(cache: RenderCache, receivable: Receivable, inst, open_amount: Decimal, on: date,
             posted: Decimal) -> dict:
    """An installment already due when the notice is dated: the notice says it is overdue (never
    prints its date as if it were ahead) and states the surcharge owed on the notice's date, posted
    and accrued, under the rule that imposes it."""
    if inst.due_date >= on or open_amount <= 0:
        return {"overdue": False, "surcharge": ZERO, "surcharge_rule": ""}
    terms = cache.terms.for_installment(receivable, inst.due_date)
    accrued = sr.portion_surcharge(terms, open_amount, inst.due_date, on)
    rule = {sr.LAJ7: "LAJ-7", sr.IRR9: "IRR-9", sr.RESOLUTION: "SID-1"}.get(receivable.surcharge_rule, "")
    return {"overdue": True, "surcharge": max(posted, ZERO) + accrued, "surcharge_rule": rule}


def payee_of(program: str, collector) -> tuple[str, str]:
    """(to whom checks are made out, the rule that says so or ""): the Secretary of the Treasury
    when the Treasury collects or for franchise tariffs (FRA-3), else the collecting office."""
    if rules.payee_is_treasurer(program=program, office_kind=getattr(collector, "kind", "")):
        return str(_("Secretario de Hacienda")), "FRA-3" if program == "FRA" else ""
    return str(getattr(collector, "name", "") or _("la oficina que cobra")), ""


def mailing_of(program: str, certified: bool) -> tuple[str, str]:
    """(the rule, the sentence the notice prints) on how the notice is mailed."""
    rule = rules.mailing_rule(program)
    if rule == "SID-2":
        text = _("Este aviso se envía por correo regular a cada dueño de récord, como dispone SID-2, dentro de los "
                 "180 días de recibida la resolución y cada año mientras dure el cargo.")
    elif rule == "TID-4":
        text = _("Este aviso se envía por correo certificado con acuse de recibo a cada dueño de récord, como "
                 "dispone TID-4, dentro de los 30 días de recibida la ordenanza y al menos cada año.")
    elif rule == "FRA-3" and certified:
        text = _("Este aviso se envía por correo certificado con acuse de recibo al concesionario.")
    elif rule == "FRA-3":
        text = _("Esta factura se envía por correo regular al concesionario (FRA-3). Los avisos de modificación, "
                 "suspensión o revocación (sec. 8.19) se envían por correo certificado con acuse de recibo.")
    elif certified:
        text = _("Este aviso se envía por correo certificado con acuse de recibo.")
    else:
        text = _("Este aviso se envía por correo regular a la dirección postal del registro.")
    return rule, text


def notice_context(notice, *, activation_codes: dict[int, str] | None = None, cache: RenderCache | None = None,
                   portal_url: str = "") -> dict:
    """The context of templates/notices/notice.html for `notice` (its receivable preloaded or not)."""
    cache = cache or RenderCache()
    receivable = notice.receivable
    account = receivable.account
    breakdown = receivable.breakdown or {}
    program = notice.program
    district = cache.district(breakdown.get("district"))
    office = (district.office if district is not None else None) or receivable.office
    installments = sorted(receivable.installments.all(), key=lambda i: (i.due_date, i.seq))
    sums: dict[tuple[int, str], Decimal] = {
        (row["installment_id"], row["component"]): row["s"] for row in LedgerEntry.objects.filter(
            receivable=receivable, installment__isnull=False,
            component__in=(LedgerEntry.Component.PRINCIPAL, LedgerEntry.Component.SURCHARGE))
        .values("installment_id", "component").annotate(s=Sum("amount")).order_by()}
    rows = []
    for inst in installments:
        open_amount = max(sums.get((inst.pk, LedgerEntry.Component.PRINCIPAL), inst.amount) or ZERO, ZERO)
        rows.append({"seq": inst.seq, "due_date": inst.due_date, "amount": inst.amount, "open": open_amount,
                     "grace_end": _grace_end(cache, receivable, inst.due_date),
                     **_overdue(cache, receivable, inst, open_amount, notice.issued_on,
                                posted=sums.get((inst.pk, LedgerEntry.Component.SURCHARGE)) or ZERO)})
    amount_due = sum((r["open"] for r in rows), ZERO)
    surcharge_due = sum((r["surcharge"] for r in rows), ZERO)
    lajas = None
    if "gross" in breakdown and "net" in breakdown:
        lajas = {"gross": _dec(breakdown.get("gross")), "credit": _dec(breakdown.get("credit")),
                 "net": _dec(breakdown.get("net"))}
    fiscal_year = breakdown.get("fiscal_year")
    raw_period = breakdown.get("period") if isinstance(breakdown.get("period"), dict) else {}
    period = ({"start": _date(raw_period.get("start")), "end": _date(raw_period.get("end")),
               "days": raw_period.get("days"), "days_in_year": raw_period.get("days_in_year"),
               "rule": raw_period.get("rule", "")} if raw_period.get("start") else None)
    noun = PROGRAM_NOUN.get(program, PROGRAM_NOUN["OTHER"])
    if fiscal_year:
        headline = _("%(what)s del año fiscal %(fy)s") % {"what": SHORT_NOUN.get(program, noun), "fy": fiscal_year}
    else:
        headline = receivable.description
    franchise = breakdown.get("franchise")
    if isinstance(franchise, dict):
        franchise = franchise.get("number")
    payee, payee_rule = payee_of(program, receivable.office)
    mailing_rule, mailing_text = mailing_of(program, notice.method == "CERTIFIED_RR")
    parameters = ", ".join(f"{p.get('family', '')} {p.get('version', '')}".strip() for p in
                           breakdown.get("parameters") or [] if isinstance(p, dict))
    codes = activation_codes or {}
    addressees = [{**a, "activation_code": codes.get(a.get("party_id"), "")} for a in notice.addressees]
    groups: list[dict] = []   # co-owners at one address are printed together, above it
    for a in addressees:
        key = (tuple(a.get("address_lines") or ()), a.get("attention", ""))
        if groups and groups[-1]["key"] == key:
            groups[-1]["people"].append(a)
        else:
            groups.append({"key": key, "people": [a], "address_lines": list(key[0]), "attention": key[1]})
    return {
        "notice": notice, "receivable": receivable, "office": office, "collector": receivable.office,
        "program": program, "program_label": notice.get_program_display(), "program_noun": noun, "headline": headline,
        "district": district, "fiscal_year": fiscal_year, "period": period,
        "parcel": account.parcel if account.parcel_id else None,
        "holder": account.party if account.party_id else None, "franchise_number": franchise or "",
        "addressees": addressees, "addressee_groups": groups, "several": len(addressees) > 1,
        "has_codes": any(a["activation_code"] for a in addressees),
        "lines": lines_of(receivable, program), "lajas": lajas, "installments": rows,
        "total": receivable.amount, "amount_due": amount_due, "credited": receivable.amount - amount_due,
        "surcharge_due": surcharge_due, "owed_on_date": amount_due + surcharge_due,
        "overdue": any(r["overdue"] for r in rows), "upcoming": [r for r in rows if not r["overdue"]],
        "consequences": consequences_of(receivable, program, installments, cache),
        "barcode_src": code128_data_uri(receivable.payment_reference), "portal_url": portal_url,
        "replaces": notice.replaces, "method_label": notice.get_method_display(),
        "certified": notice.method == "CERTIFIED_RR", "payee": payee, "payee_rule": payee_rule,
        "mailing_rule": mailing_rule, "mailing_text": mailing_text, "parameters": parameters,
        "language": notice.language,
        "citations": {"LAJ3": texts.SHORT_CITATIONS["LAJ-3"], "LAJ4": texts.SHORT_CITATIONS["LAJ-4"]},
    }
