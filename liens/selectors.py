"""Reads with rules for the lien register: the ladder (LIEN-2), the sale distribution (LIEN-3),
the IRR-12 seizure figures and the lien certificate's content.

The ranking is never stored: `parcel_ranking` translates the parcel's liens and the recorded
rulings into liens.rules' dataclasses and runs the pure engine on demand, with the `lien_laws`
and `irr_mortgage` parameters in force on the date. Lien ids given to the engine are the
lien's primary key as a string, as in the `lien-ranking` calculation's contract.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation

from django.contrib.contenttypes.models import ContentType
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.models import Document, Flag
from core.money import ZERO
from core.parameters import DatabaseParameters
from districts.models import District, Membership, Ownership, Parcel
from liens import rules, rules_io
from liens.models import Lien, LienRuling
from liens.outstanding import secured_amounts

LAW_FAMILY = "lien_laws"
MORTGAGE_FAMILY = "irr_mortgage"

# What each reason of a decision means, as staff read it on the ladder and the certificate.
REASON_TEXT = {
    "RULING": _("Resolución legal registrada para este par de gravámenes."),
    "IRR-10": _("IRR-10: el gravamen de riego precede a todo otro derecho, salvo las contribuciones sobre la "
                "propiedad, las hipotecas que cualifican (IRR-11) y los créditos refaccionarios de asociaciones o "
                "cooperativas del distrito."),
    "IRR-11": _("IRR-11: hipoteca que cumple todas las condiciones; precede al gravamen de riego."),
    "LAJ-6": _("LAJ-6: la contribución del Valle de Lajas precede a todo gravamen salvo la contribución sobre la "
               "propiedad."),
    "SID-4": _("SID-4: el gravamen del distrito especial de mejoramiento precede a todo otro, salvo (a) la deuda "
               "contributiva transferida, (b) la contribución sobre la propiedad y (c) los gravámenes anteriores a "
               "la vigencia de la ley."),
    "TID-6": _("TID-6: el gravamen del distrito de mejoramiento turístico precede a todo otro, salvo (a), (b), (c) "
               "de SID-4 y (d) los gravámenes legales tácitos que financian infraestructura pública."),
    "TAX": _("Contribución sobre la propiedad o deuda contributiva transferida: precede a un gravamen no "
             "contributivo."),
    "DATE": _("Fecha de constitución anterior."),
    "REGISTRY": _("Misma fecha: orden de presentación en el Registro de la Propiedad."),
}

REASON_SHORT = {
    "RULING": _("resolución legal"),
    "IRR-10": _("ley de riego"),
    "IRR-11": _("hipoteca que cualifica"),
    "LAJ-6": _("Valle de Lajas"),
    "SID-4": _("distrito especial de mejoramiento"),
    "TID-6": _("distrito de mejoramiento turístico"),
    "TAX": _("contribución sobre la propiedad"),
    "DATE": _("fecha de constitución anterior"),
    "REGISTRY": _("orden de presentación en el Registro"),
}

MORTGAGE_CONDITION_TEXT = {
    "TERMS_NOT_RECORDED": _("los términos de la hipoteca no están registrados"),
    "TERM": _("término menor que el mínimo"),
    "FIXED_ANNUAL_INSTALLMENTS": _("no es pagadera a plazos anuales fijos"),
    "RATE": _("tipo de interés mayor que el máximo"),
    "PURPOSE": _("fin distinto de mejoras permanentes, abono/semilla/ganado/implementos o pago de deudas agrícolas"),
    "PRINCIPAL_PER_CUERDA": _("principal mayor que el máximo por cuerda"),
    "IRRIGATION_BENEFIT": _("no consta que su objeto sea aprovechar el sistema de riego"),
}

MORTGAGE_CONDITION_SHORT = {
    "TERMS_NOT_RECORDED": _("términos no registrados"),
    "TERM": _("término"),
    "FIXED_ANNUAL_INSTALLMENTS": _("plazos anuales fijos"),
    "RATE": _("tipo de interés"),
    "PURPOSE": _("fin"),
    "PRINCIPAL_PER_CUERDA": _("principal por cuerda"),
    "IRRIGATION_BENEFIT": _("beneficio de riego"),
}

# Kinds staff record by hand (LIEN-1 "other encumbrances"); the statutory ones come from the charges.
RECORDABLE_KINDS = ("PROPERTY_TAX", "TRANSFERRED_TAX_DEBT", "MORTGAGE", "REFACCIONARIO", "OTHER")


# --- Which liens and rulings count -----------------------------------------------------------

def liens_in_force(parcel: Parcel, on: date | None = None) -> QuerySet[Lien]:
    """The parcel's liens in force: ACTIVE now (on=None), or on `on`: constituted by then and not yet
    satisfied or released on that day. Ordered by date constituted, registry order, id (the
    engine's input order)."""
    qs = Lien.objects.filter(parcel=parcel)
    if on is None:
        qs = qs.filter(status=Lien.Status.ACTIVE)
    else:
        qs = qs.filter(constituted_on__lte=on).filter(
            Q(status=Lien.Status.ACTIVE) | Q(status_on__isnull=False, status_on__gt=on))
    return qs.order_by("constituted_on", F("presented_seq").asc(nulls_last=True), "id")


def liens_securing(parcel: Parcel, on: date | None = None) -> tuple[list[Lien], dict[int, Decimal]]:
    """LIEN-4: the parcel's liens in force on `on` (today when None) that still secure something on
    that date, and {lien pk: what it secures}. A lien whose charge is fully paid, credited,
    adjusted or written off by then secures nothing and does not rank, certify or deduct."""
    liens = list(liens_in_force(parcel, on))
    secured = secured_amounts(liens, on)
    return [lien for lien in liens if secured[lien.pk] > 0], secured


def rulings_for(parcel: Parcel, lien_ids, on: date | None = None) -> list[LienRuling]:
    """Rulings on the parcel between two of `lien_ids`, decided by the end of `on` (all when None)."""
    qs = LienRuling.objects.filter(parcel=parcel, higher_id__in=lien_ids, lower_id__in=lien_ids)
    if on is not None:
        end = timezone.make_aware(datetime.combine(on, time.max), timezone.get_default_timezone())
        qs = qs.filter(decided_at__lte=end)
    return list(qs.select_related("decided_by").order_by("decided_at", "id"))


# --- Translation into the engine ------------------------------------------------------------

def _decimal(value) -> Decimal:
    if isinstance(value, float):
        value = repr(value)
    number = Decimal(str(value).strip())
    if not number.is_finite():
        raise ValueError(value)
    return number


def mortgage_terms_of(lien: Lien) -> rules.MortgageTerms | None:
    """The recorded IRR-11 terms, or None when missing or incomplete (the engine then reports
    TERMS_NOT_RECORDED and the mortgage does not qualify)."""
    raw = lien.mortgage_terms
    if lien.kind != Lien.Kind.MORTGAGE or not isinstance(raw, dict):
        return None
    try:
        term = raw["term_years"]
        if isinstance(term, bool) or int(term) != Decimal(str(term)):
            return None
        fixed = raw["fixed_annual_installments"]
        benefit = raw.get("irrigation_benefit", True)
        if not isinstance(fixed, bool) or not isinstance(benefit, bool):
            return None
        return rules.MortgageTerms(term_years=int(term), fixed_annual_installments=fixed,
                                   rate_pct=_decimal(raw["rate_pct"]), purpose=str(raw["purpose"]),
                                   principal_per_cuerda=_decimal(raw["principal_per_cuerda"]),
                                   irrigation_benefit=benefit)
    except (KeyError, TypeError, ValueError, InvalidOperation):
        return None


def engine_lien(lien: Lien, outstanding: Decimal | None = None) -> rules.Lien:
    return rules.Lien(id=str(lien.pk), kind=lien.kind, constituted_on=lien.constituted_on, amount=lien.amount,
                      mortgage=mortgage_terms_of(lien), district_cooperative=lien.district_cooperative,
                      finances_public_infrastructure=lien.finances_public_infrastructure,
                      presented_seq=lien.presented_seq, outstanding=outstanding)


@dataclass(frozen=True)
class RankingParameters:
    context: rules.LienContext
    labels: tuple[str, ...]
    citations: tuple[tuple[str, str], ...]  # (label, citation)


def ranking_parameters(on: date) -> RankingParameters:
    """LienContext from the parameters in force on `on`: SID and TID law dates, IRR-11 limits."""
    params = DatabaseParameters()
    laws = params.get(LAW_FAMILY, on)
    limits = params.get(MORTGAGE_FAMILY, on)
    law_dates = laws.values["law_effective_on"]
    ctx = rules.LienContext(sid_law_on=date.fromisoformat(law_dates["SID"]),
                            tid_law_on=date.fromisoformat(law_dates["TID"]),
                            mortgage_limits=rules.MortgageLimits.from_parameters(limits.values))
    return RankingParameters(context=ctx, labels=(laws.label(), limits.label()),
                             citations=((laws.label(), laws.citation), (limits.label(), limits.citation)))


# --- The ranking -----------------------------------------------------------------------------

@dataclass(eq=False)
class LienRow:
    lien: Lien
    id: str
    secured: Decimal = ZERO  # LIEN-4: what the lien secures on the ranking's date (its outstanding amount)
    rank: int | None = None  # 1 = highest; None when the ranking is blocked
    mortgage_failures: tuple[str, ...] = ()
    mortgage_failure_texts: tuple[str, ...] = ()
    mortgage_failure_short: tuple[str, ...] = ()

    @property
    def constituted(self) -> Decimal:
        return self.lien.amount

    @property
    def is_mortgage(self) -> bool:
        return self.lien.kind == Lien.Kind.MORTGAGE

    @property
    def qualifies(self) -> bool:
        return self.is_mortgage and not self.mortgage_failures


@dataclass
class DecisionRow:
    higher: LienRow
    lower: LienRow
    rule: str
    reasons: list[tuple[str, str]]  # (code, text) for each rule named in `rule`
    ruling: LienRuling | None = None

    @property
    def short_reasons(self) -> list[tuple[str, str]]:
        return [(code, str(REASON_SHORT.get(code, ""))) for code, _text in self.reasons]


@dataclass
class ConflictRow:
    a: LienRow
    b: LienRow
    rules: tuple[str, ...]


@dataclass
class Rung:
    rank: int
    rows: list[LienRow]
    above_next: list[DecisionRow] = field(default_factory=list)  # why this rank is above the next one


@dataclass
class ParcelRanking:
    parcel: Parcel
    on: date | None
    rows: list[LienRow]
    ranking: rules.Ranking
    parameters: RankingParameters
    decisions: list[DecisionRow]
    conflicts: list[ConflictRow]
    cycles: list[list[LienRow]]
    ties: list[tuple[LienRow, LienRow]]
    rulings: list[LienRuling]
    rungs: list[Rung] | None

    @property
    def blocked(self) -> bool:
        return self.ranking.blocked

    @property
    def engine_liens(self) -> list[rules.Lien]:
        return [engine_lien(r.lien, r.secured) for r in self.rows]

    @property
    def as_of(self) -> date:
        return self.on or timezone.localdate()

    @property
    def total(self) -> Decimal:
        """LIEN-4: what the liens secure on the date (their outstanding amounts)."""
        return sum((r.secured for r in self.rows), ZERO)

    @property
    def constituted_total(self) -> Decimal:
        return sum((r.lien.amount for r in self.rows), ZERO)

    def row(self, lien_id: str) -> LienRow:
        return self._by_id[lien_id]

    def __post_init__(self):
        self._by_id = {r.id: r for r in self.rows}

    def blocking_text(self) -> str:
        """What blocks the ranking, naming the rules and the liens (the legal-review flag's text)."""
        parts = []
        for c in self.conflicts:
            parts.append(f"Conflicto entre {lien_label(c.a.lien)} y {lien_label(c.b.lien)}: "
                         f"{' contra '.join(c.rules)} reclaman cada una el rango superior (LIEN-2).")
        for cycle in self.cycles:
            parts.append("Ciclo de rangos entre " + ", ".join(lien_label(r.lien) for r in cycle) + " (LIEN-2).")
        return "\n".join(parts)


def lien_label(lien: Lien) -> str:
    text = f"#{lien.pk} {lien.get_kind_display()}"
    if lien.origin_label:
        text += f" ({lien.origin_label})"
    return text


def _reasons(rule: str) -> list[tuple[str, str]]:
    return [(code, str(REASON_TEXT.get(code, ""))) for code in rule.split("/")]


def parcel_ranking(parcel: Parcel, on: date | None = None) -> ParcelRanking:
    """LIEN-2 for the parcel's liens in force (today's when `on` is None), with the rulings
    recorded by then and the parameters in force on the date."""
    when = on or timezone.localdate()
    liens, secured = liens_securing(parcel, on)
    params = ranking_parameters(when)
    rows = []
    for lien in liens:
        row = LienRow(lien=lien, id=str(lien.pk), secured=secured[lien.pk])
        if lien.kind == Lien.Kind.MORTGAGE:
            failed = rules.mortgage_failures(mortgage_terms_of(lien), params.context.mortgage_limits)
            row.mortgage_failures = failed
            row.mortgage_failure_texts = tuple(str(MORTGAGE_CONDITION_TEXT[c]) for c in failed)
            row.mortgage_failure_short = tuple(str(MORTGAGE_CONDITION_SHORT[c]) for c in failed)
        rows.append(row)
    by_id = {r.id: r for r in rows}
    rulings = rulings_for(parcel, [lien.pk for lien in liens], on)
    ruling_by_pair = {frozenset({str(r.higher_id), str(r.lower_id)}): r for r in rulings}
    ranking = rules.rank_liens([engine_lien(lien, secured[lien.pk]) for lien in liens],
                               [rules.Ruling(str(r.higher_id), str(r.lower_id)) for r in rulings], params.context)

    decisions = [DecisionRow(higher=by_id[d.higher], lower=by_id[d.lower], rule=d.rule, reasons=_reasons(d.rule),
                             ruling=ruling_by_pair.get(frozenset({d.higher, d.lower})) if d.rule == "RULING" else None)
                 for d in ranking.decisions]
    conflicts = [ConflictRow(a=by_id[c.a], b=by_id[c.b], rules=c.rules) for c in ranking.conflicts]
    cycles = [[by_id[i] for i in cycle] for cycle in ranking.cycles]
    ties = [(by_id[a], by_id[b]) for a, b in ranking.ties]
    rungs = None
    if ranking.ranks is not None:
        rungs = []
        for n, group in enumerate(ranking.ranks, start=1):
            for i in group:
                by_id[i].rank = n
            rungs.append(Rung(rank=n, rows=[by_id[i] for i in group]))
    # Shown highest first (the contract keeps the engine's order: see ranking_contract).
    position = {r.id: n for n, r in enumerate(rows)}
    decisions.sort(key=lambda d: (d.higher.rank or 0, position[d.higher.id], d.lower.rank or 0,
                                  position[d.lower.id]))
    if rungs:
        for upper, lower in zip(rungs, rungs[1:], strict=False):
            upper_ids = {r.id for r in upper.rows}
            lower_ids = {r.id for r in lower.rows}
            upper.above_next = [d for d in decisions if d.higher.id in upper_ids and d.lower.id in lower_ids]
    return ParcelRanking(parcel=parcel, on=on, rows=rows, ranking=ranking, parameters=params, decisions=decisions,
                         conflicts=conflicts, cycles=cycles, ties=ties, rulings=rulings, rungs=rungs)


def ranking_contract(pr: ParcelRanking, proceeds: Decimal | None = None) -> dict:
    """The ranking in the `lien-ranking` calculation's output shape (docs/compute.md)."""
    ranking = pr.ranking
    distribution = None
    if ranking.ranks is not None and proceeds is not None:
        distribution = rules.distribute(pr.engine_liens, ranking.ranks, proceeds)
    mortgages = [rules_io.mortgage_json(r.id, r.mortgage_failures) for r in pr.rows if r.is_mortgage]
    return rules_io.ranking_json(ranking, distribution, mortgages, pr.parameters.context, pr.parameters.labels)


def ranking_input(pr: ParcelRanking, proceeds: Decimal | None = None) -> dict:
    """The same liens and rulings as a `lien-ranking` calculation input (what-if, tests, support)."""
    liens = []
    for row in pr.rows:
        lien = row.lien
        item = {"id": row.id, "kind": lien.kind, "constituted_on": lien.constituted_on.isoformat(),
                "amount": str(lien.amount), "outstanding": str(row.secured)}
        terms = mortgage_terms_of(lien)
        if terms is not None:
            item["mortgage"] = {"term_years": terms.term_years,
                                "fixed_annual_installments": terms.fixed_annual_installments,
                                "rate_pct": str(terms.rate_pct), "purpose": terms.purpose,
                                "principal_per_cuerda": str(terms.principal_per_cuerda),
                                "irrigation_benefit": terms.irrigation_benefit}
        if lien.district_cooperative:
            item["district_cooperative"] = True
        if lien.finances_public_infrastructure:
            item["finances_public_infrastructure"] = True
        if lien.presented_seq is not None:
            item["presented_seq"] = lien.presented_seq
        liens.append(item)
    ctx = pr.parameters.context
    payload = {"law_effective_on": {"SID": ctx.sid_law_on.isoformat(), "TID": ctx.tid_law_on.isoformat()},
               "as_of": (pr.on or timezone.localdate()).isoformat(), "liens": liens,
               "rulings": [{"higher": str(r.higher_id), "lower": str(r.lower_id)} for r in pr.rulings]}
    if proceeds is not None:
        payload["proceeds"] = str(proceeds)
    return payload


# --- LIEN-3 distribution ----------------------------------------------------------------------

@dataclass
class PayoutRow:
    row: LienRow
    paid: Decimal
    unpaid: Decimal


@dataclass
class DistributionResult:
    ranking: ParcelRanking
    proceeds: Decimal
    payouts: list[PayoutRow] | None  # highest rank first; None when blocked
    remaining: Decimal | None

    @property
    def blocked(self) -> bool:
        return self.payouts is None

    @property
    def total_paid(self) -> Decimal:
        return sum((p.paid for p in self.payouts or ()), ZERO)

    @property
    def total_unpaid(self) -> Decimal:
        return sum((p.unpaid for p in self.payouts or ()), ZERO)


def parcel_distribution(parcel: Parcel, proceeds: Decimal, on: date | None = None) -> DistributionResult:
    """LIEN-3: what each lien in force receives from `proceeds`; nothing while the ranking is blocked."""
    pr = parcel_ranking(parcel, on)
    if pr.ranking.ranks is None:
        return DistributionResult(ranking=pr, proceeds=proceeds, payouts=None, remaining=None)
    dist = rules.distribute(pr.engine_liens, pr.ranking.ranks, proceeds)
    paid = {p.id: p for p in dist.payouts}
    ordered = sorted(pr.rows, key=lambda r: (r.rank, pr.rows.index(r)))
    payouts = [PayoutRow(row=r, paid=paid[r.id].paid, unpaid=paid[r.id].unpaid) for r in ordered]
    return DistributionResult(ranking=pr, proceeds=proceeds, payouts=payouts, remaining=dist.remaining)


# --- IRR-12 seizure ---------------------------------------------------------------------------

def bonded_irrigation_districts(parcel: Parcel, on: date | None = None) -> list[District]:
    """The bonded irrigation districts (IRR) the parcel belongs to on `on` (today by default)."""
    on = on or timezone.localdate()
    memberships = (Membership.objects.filter(parcel=parcel, district__kind=District.Kind.IRRIGATION,
                                             included_on__lte=on)
                   .filter(Q(excluded_on__isnull=True) | Q(excluded_on__gt=on)).select_related("district"))
    return [m.district for m in memberships]


@dataclass(frozen=True)
class SeizureFigures:
    """IRR-12's figures: the statute reads "tax value after deducting all liens"."""

    tax_value: Decimal
    liens_total: Decimal
    net_value: Decimal
    check: rules.SeizureCheck
    whole_property_seizable: bool  # net value within the limit: the property may be seized whole

    @property
    def amount_owed(self) -> Decimal:
        return self.check.amount_owed

    @property
    def max_seizable_value(self) -> Decimal:
        return self.check.max_seizable_value

    @property
    def proposed_value(self) -> Decimal:
        return self.check.proposed_value


def net_tax_figures(tax_value: Decimal, liens_total: Decimal) -> tuple[Decimal, Decimal, Decimal]:
    """IRR-12's reading of "tax value after deducting all liens" (pure): (tax value, liens, net value)."""
    return tax_value, liens_total, tax_value - liens_total


def irr12_figures(tax_value: Decimal, liens_total: Decimal, amount_owed: Decimal,
                  proposed_value: Decimal | None = None) -> SeizureFigures:
    """IRR-12 for one parcel (pure; the one place its figures are computed): the net tax value
    against `max_seizable_value = 2 × amount owed` (liens.rules.seizure_check). Without a
    proposal, the whole property's net value (never negative) is proposed, as the collections
    pages pre-fill the seizure form."""
    tax_value, liens_total, net_value = net_tax_figures(tax_value, liens_total)
    if proposed_value is None:
        proposed_value = max(net_value, ZERO)
    check = rules.seizure_check(amount_owed, proposed_value)
    return SeizureFigures(tax_value=tax_value, liens_total=liens_total, net_value=net_value, check=check,
                          whole_property_seizable=net_value <= check.max_seizable_value)


def net_tax_value(parcel: Parcel, on: date | None = None) -> tuple[Decimal, Decimal, Decimal]:
    """(tax value, what the liens in force secure on `on`, tax value after deducting it) — IRR-12's
    reading, with LIEN-4: a lien deducts its outstanding amount, not the amount constituted."""
    liens, secured = liens_securing(parcel, on)
    return net_tax_figures(parcel.assessed_value, sum((secured[lien.pk] for lien in liens), ZERO))


def net_tax_values(parcel_ids, on: date | None = None) -> dict[int, tuple[Decimal, Decimal, Decimal]]:
    """`net_tax_value` for many parcels in a few queries: {parcel id: (tax value, liens secure, net value)}."""
    ids = {pid for pid in parcel_ids if pid}
    if not ids:
        return {}
    values = dict(Parcel.objects.filter(pk__in=ids).values_list("pk", "assessed_value"))
    qs = Lien.objects.filter(parcel_id__in=ids)
    if on is None:
        qs = qs.filter(status=Lien.Status.ACTIVE)
    else:
        qs = qs.filter(constituted_on__lte=on).filter(
            Q(status=Lien.Status.ACTIVE) | Q(status_on__isnull=False, status_on__gt=on))
    liens = list(qs.only("pk", "parcel_id", "amount", "origin_type", "origin_id"))
    secured = secured_amounts(liens, on)
    totals: dict[int, Decimal] = {}
    for lien in liens:
        totals[lien.parcel_id] = totals.get(lien.parcel_id, ZERO) + secured[lien.pk]
    return {pid: net_tax_figures(values.get(pid, ZERO), totals.get(pid, ZERO)) for pid in ids}


def seizure_figures(parcel: Parcel, amount_owed: Decimal, proposed_value: Decimal,
                    on: date | None = None) -> SeizureFigures:
    tax_value, liens_total, _net = net_tax_value(parcel, on)
    return irr12_figures(tax_value, liens_total, amount_owed, proposed_value)


# --- Certificate ------------------------------------------------------------------------------

def owners_of_record(parcel: Parcel, on: date) -> list[Ownership]:
    return list(Ownership.objects.filter(parcel=parcel, start_date__lte=on)
                .filter(Q(end_date__isnull=True) | Q(end_date__gt=on))
                .select_related("party", "party__address_municipality").order_by("-share_pct", "id"))


def default_certificate_office(parcel: Parcel):
    """The office that certifies by default: the issuing office of the parcel's bonded irrigation
    district, else of any of its districts, else none (the document says "Gobierno de Puerto Rico")."""
    memberships = (Membership.objects.filter(parcel=parcel).select_related("district__office")
                   .order_by("district__kind", "id"))
    chosen = None
    for m in memberships:
        if m.district.kind == District.Kind.IRRIGATION:
            return m.district.office
        chosen = chosen or m.district.office
    return chosen


def certificate_context(parcel: Parcel, on: date, office=None) -> dict:
    """What the lien certificate shows: the parcel, its owners of record and every lien in force
    on `on` with its amount, kind, date constituted, rank and the reason of its rank."""
    pr = parcel_ranking(parcel, on)
    entries = []
    rows = sorted(pr.rows, key=lambda r: (r.rank or 0, pr.rows.index(r)))
    for row in rows:
        reasons = [d for d in pr.decisions if row.id in (d.higher.id, d.lower.id)]
        above = [d for d in reasons if d.lower.id == row.id]
        entries.append({"row": row, "lien": row.lien, "rank": row.rank,
                        "above": above, "below_count": sum(1 for d in reasons if d.higher.id == row.id)})
    used = {code for d in pr.decisions for code, _text in d.reasons}
    legend = [(code, str(text)) for code, text in REASON_SHORT.items() if code in used]
    return {"parcel": parcel, "as_of": on, "owners": owners_of_record(parcel, on), "ranking": pr,
            "entries": entries, "total": pr.total, "constituted_total": pr.constituted_total,
            "office": office or default_certificate_office(parcel),
            "legend": legend}


def parcel_certificates(parcel: Parcel) -> QuerySet[Document]:
    return Document.objects.filter(kind=Document.Kind.LIEN_CERTIFICATE, object_id=parcel.pk,
                                   content_type=ContentType.objects.get_for_model(Parcel)).order_by("-created_at")


# --- Legal-review queue -----------------------------------------------------------------------

def conflict_flags(*, state: str = "open") -> QuerySet[Flag]:
    """LIEN_CONFLICT flags on parcels (the legal-review queue), open by default."""
    qs = Flag.objects.filter(kind=Flag.Kind.LIEN_CONFLICT, content_type=ContentType.objects.get_for_model(Parcel))
    if state == "open":
        qs = qs.filter(resolved_on__isnull=True)
    elif state == "resolved":
        qs = qs.filter(resolved_on__isnull=False)
    return qs.select_related("assigned_to").order_by("resolved_on", "-severity", "opened_on", "id")


def open_flags_for(parcel: Parcel) -> QuerySet[Flag]:
    return Flag.objects.filter(content_type=ContentType.objects.get_for_model(Parcel), object_id=parcel.pk,
                               resolved_on__isnull=True,
                               kind__in=[Flag.Kind.LIEN_CONFLICT, Flag.Kind.SEIZURE_LIMIT]).order_by("kind")


def parcels_with_liens() -> QuerySet[Parcel]:
    """Parcels to re-rank: any active lien, or an open conflict flag (which may need resolving)."""
    flagged = conflict_flags(state="open").values("object_id")
    return (Parcel.objects.filter(Q(liens__status=Lien.Status.ACTIVE) | Q(pk__in=flagged))
            .distinct().order_by("pk"))


def inactive_liens(parcel: Parcel) -> QuerySet[Lien]:
    return Lien.objects.filter(parcel=parcel).exclude(status=Lien.Status.ACTIVE).order_by("-status_on", "-id")
