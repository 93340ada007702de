"""Lien rules: LIEN-2 ranking with reasons, LIEN-3 sale distribution, IRR-11 qualifying
mortgages and the IRR-12 seizure limit. Pure: frozen dataclasses in, frozen dataclasses out.

LIEN-2 decides every pair of liens on a property, in this order:

1. a recorded ruling for the pair (`RULING`);
2. the votes of the statutory liens in the pair, each by its own statute (IRR-10/IRR-11,
   LAJ-6, SID-4, TID-6). Two statutory liens whose votes disagree are a *conflict*: nothing
   is ranked or distributed until a ruling is recorded. Agreeing votes are named together,
   in the pair's order ("IRR-10/TID-6");
3. a property-tax or transferred tax-debt lien over any other (`TAX`);
4. the earlier date constituted (`DATE`), then the order of presentation at the Property
   Registry (`REGISTRY`), else a tie (same rank).

The pairwise decisions must then form an order: liens caught in a cycle are flagged too.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from core.money import ZERO, apportion

TAX_KINDS = frozenset({"PROPERTY_TAX", "TRANSFERRED_TAX_DEBT"})  # "property tax" in LIEN-2
STATUTORY_KINDS = frozenset({"IRRIGATION", "LAJAS", "SID", "TID"})
KINDS = ("PROPERTY_TAX", "TRANSFERRED_TAX_DEBT", "IRRIGATION", "LAJAS", "SID", "TID", "MORTGAGE",
         "REFACCIONARIO", "OTHER")
PURPOSES = ("IMPROVEMENTS", "SUPPLIES", "DEBT_REFINANCE", "OTHER")

# IRR-11 conditions a mortgage can fail, with the text staff see.
MORTGAGE_CONDITIONS = {
    "TERMS_NOT_RECORDED": "the mortgage's terms are not recorded",
    "TERM": "term shorter than the minimum",
    "FIXED_ANNUAL_INSTALLMENTS": "not payable in fixed annual installments",
    "RATE": "interest rate above the maximum",
    "PURPOSE": "purpose not among improvements, supplies or debt refinancing",
    "PRINCIPAL_PER_CUERDA": "principal above the maximum per cuerda",
    "IRRIGATION_BENEFIT": "its object is not to let the landowner benefit from the irrigation system",
}


@dataclass(frozen=True)
class MortgageTerms:
    term_years: int
    fixed_annual_installments: bool
    rate_pct: Decimal
    purpose: str
    principal_per_cuerda: Decimal
    irrigation_benefit: bool = True  # staff's attestation when they classify the mortgage


@dataclass(frozen=True)
class Lien:
    id: str
    kind: str
    constituted_on: date
    amount: Decimal
    mortgage: MortgageTerms | None = None
    district_cooperative: bool = False  # a refaccionario credit of a district association/cooperative
    finances_public_infrastructure: bool = False
    presented_seq: int | None = None  # order of presentation at the Property Registry
    # What the lien still secures on the date of the ranking (LIEN-4); None: the amount constituted.
    outstanding: Decimal | None = None

    @property
    def secured(self) -> Decimal:
        """LIEN-4: the amount the lien secures — its outstanding amount when known."""
        return self.amount if self.outstanding is None else self.outstanding


@dataclass(frozen=True)
class MortgageLimits:
    """IRR-11's limits (parameter family `irr_mortgage`)."""

    min_term_years: int
    max_rate_pct: Decimal
    max_principal_per_cuerda: Decimal
    purposes: frozenset[str]

    @classmethod
    def from_parameters(cls, values: Mapping) -> MortgageLimits:
        return cls(min_term_years=int(values["min_term_years"]), max_rate_pct=Decimal(values["max_rate_pct"]),
                   max_principal_per_cuerda=Decimal(values["max_principal_per_cuerda"]),
                   purposes=frozenset(values["purposes"]))


@dataclass(frozen=True)
class LienContext:
    """What the votes need besides the liens: the SID and TID laws' effective dates (SID-4 (c),
    TID-6 (c)) and IRR-11's limits."""

    sid_law_on: date
    tid_law_on: date
    mortgage_limits: MortgageLimits


@dataclass(frozen=True)
class Ruling:
    higher: str
    lower: str


@dataclass(frozen=True)
class Vote:
    higher: str
    rule: str


@dataclass(frozen=True)
class Decision:
    higher: str
    lower: str
    rule: str


@dataclass(frozen=True)
class Conflict:
    a: str
    b: str
    rules: tuple[str, ...]


@dataclass(frozen=True)
class Ranking:
    ranks: tuple[tuple[str, ...], ...] | None  # highest first; None when blocked
    decisions: tuple[Decision, ...]
    conflicts: tuple[Conflict, ...]
    cycles: tuple[tuple[str, ...], ...]  # ids caught in each cycle, sorted
    ties: tuple[tuple[str, str], ...]

    @property
    def blocked(self) -> bool:
        return bool(self.conflicts or self.cycles)


# --- IRR-11 ---------------------------------------------------------------------------------

def mortgage_failures(terms: MortgageTerms | None, limits: MortgageLimits) -> tuple[str, ...]:
    """IRR-11: the conditions a mortgage fails (codes of MORTGAGE_CONDITIONS); empty = qualifying."""
    if terms is None:
        return ("TERMS_NOT_RECORDED",)
    failed = []
    if terms.term_years < limits.min_term_years:
        failed.append("TERM")
    if not terms.fixed_annual_installments:
        failed.append("FIXED_ANNUAL_INSTALLMENTS")
    if terms.rate_pct > limits.max_rate_pct:
        failed.append("RATE")
    if terms.purpose not in limits.purposes:
        failed.append("PURPOSE")
    if terms.principal_per_cuerda > limits.max_principal_per_cuerda:
        failed.append("PRINCIPAL_PER_CUERDA")
    if not terms.irrigation_benefit:
        failed.append("IRRIGATION_BENEFIT")
    return tuple(failed)


def is_qualifying_mortgage(lien: Lien, limits: MortgageLimits) -> bool:
    return lien.kind == "MORTGAGE" and not mortgage_failures(lien.mortgage, limits)


# --- LIEN-2 votes -------------------------------------------------------------------------

def statutory_vote(own: Lien, other: Lien, ctx: LienContext) -> Vote | None:
    """How `own`'s statute ranks it against `other`, or None when `own` is not statutory.

    A statute ranks its lien against *other* liens; two liens of the same statute (two SID
    districts, two irrigation rolls) get no vote from it and fall to TAX/DATE.
    """
    if own.kind not in STATUTORY_KINDS or own.kind == other.kind:
        return None
    other_wins = other.kind in TAX_KINDS
    if own.kind == "IRRIGATION":
        # IRR-10: above every right except general taxes, district cooperatives' crop credits
        # and the mortgages IRR-11 qualifies.
        if not other_wins and is_qualifying_mortgage(other, ctx.mortgage_limits):
            return Vote(other.id, "IRR-11")
        other_wins = other_wins or (other.kind == "REFACCIONARIO" and other.district_cooperative)
        return Vote(other.id if other_wins else own.id, "IRR-10")
    if own.kind == "LAJAS":
        return Vote(other.id if other_wins else own.id, "LAJ-6")  # only the property-tax lien is above
    law_on = ctx.sid_law_on if own.kind == "SID" else ctx.tid_law_on
    other_wins = other_wins or other.constituted_on < law_on  # (c) liens older than the law
    if own.kind == "SID":
        return Vote(other.id if other_wins else own.id, "SID-4")
    # TID-6 (d), the reading chosen in docs/rules/improvement-districts.md: covers SID charges and the
    # bonded irrigation quotas, and any lien recorded as financing public infrastructure, but never
    # the Lajas O&M contribution.
    infrastructure = other.kind in ("SID", "IRRIGATION") or (
        other.finances_public_infrastructure and other.kind != "LAJAS")
    return Vote(other.id if other_wins or infrastructure else own.id, "TID-6")


def statutory_votes(a: Lien, b: Lien, ctx: LienContext) -> tuple[Vote, ...]:
    """The votes on the pair, `a`'s statute first."""
    return tuple(v for v in (statutory_vote(a, b, ctx), statutory_vote(b, a, ctx)) if v is not None)


def decide_pair(a: Lien, b: Lien, ruling: Ruling | None, ctx: LienContext) -> Decision | Conflict | None:
    """LIEN-2 for one pair (`a` before `b` in input order); None is a tie."""
    if ruling is not None:
        return Decision(ruling.higher, ruling.lower, "RULING")
    votes = statutory_votes(a, b, ctx)
    if votes:
        if len({v.higher for v in votes}) > 1:
            return Conflict(a.id, b.id, tuple(v.rule for v in votes))
        higher = votes[0].higher
        return Decision(higher, b.id if higher == a.id else a.id, "/".join(v.rule for v in votes))
    a_tax, b_tax = a.kind in TAX_KINDS, b.kind in TAX_KINDS
    if a_tax != b_tax:
        return Decision(a.id, b.id, "TAX") if a_tax else Decision(b.id, a.id, "TAX")
    if a.constituted_on != b.constituted_on:
        first, second = (a, b) if a.constituted_on < b.constituted_on else (b, a)
        return Decision(first.id, second.id, "DATE")
    if a.presented_seq is not None and b.presented_seq is not None and a.presented_seq != b.presented_seq:
        first, second = (a, b) if a.presented_seq < b.presented_seq else (b, a)
        return Decision(first.id, second.id, "REGISTRY")
    return None


# --- LIEN-2 ranking -----------------------------------------------------------------------

def _reachable(ids: Sequence[str], edges: Mapping[str, set[str]]) -> dict[str, set[str]]:
    reach = {}
    for start in ids:
        seen, stack = set(), [start]
        while stack:
            for nxt in edges[stack.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        reach[start] = seen
    return reach


def _groups(ids: Sequence[str], decisions: Sequence[Decision], ties: Sequence[tuple[str, str]]):
    """Same-rank groups (strongly connected through decisions and ties) and the cycles among them.

    A tie joins two liens in one group; a group that also holds a decision between two of its
    members is a cycle (the decisions contradict each other).
    """
    edges: dict[str, set[str]] = {i: set() for i in ids}
    for d in decisions:
        edges[d.higher].add(d.lower)
    for a, b in ties:
        edges[a].add(b)
        edges[b].add(a)
    reach = _reachable(ids, edges)
    group_of: dict[str, frozenset[str]] = {}
    for i in ids:
        group_of[i] = frozenset({i} | {j for j in reach[i] if i in reach[j]})
    groups = list(dict.fromkeys(group_of[i] for i in ids))
    cyclic = {group_of[d.higher] for d in decisions if group_of[d.higher] == group_of[d.lower]}
    cycles = sorted(tuple(sorted(g)) for g in cyclic)
    return groups, group_of, cycles


def _order_groups(ids: Sequence[str], groups, group_of, decisions) -> list[frozenset[str]]:
    """Topological order of the groups, highest first; input order breaks any tie."""
    position = {i: n for n, i in enumerate(ids)}
    above: dict[frozenset[str], set[frozenset[str]]] = {g: set() for g in groups}
    for d in decisions:
        above[group_of[d.lower]].add(group_of[d.higher])
    ordered: list[frozenset[str]] = []
    placed: set[frozenset[str]] = set()
    while len(ordered) < len(groups):
        ready = [g for g in groups if g not in placed and above[g] <= placed]
        nxt = min(ready, key=lambda g: min(position[i] for i in g))
        ordered.append(nxt)
        placed.add(nxt)
    return ordered


def rank_liens(liens: Sequence[Lien], rulings: Iterable[Ruling], ctx: LienContext) -> Ranking:
    """LIEN-2: every pair decided with its reason; ranks only when nothing blocks them."""
    ids = [lien.id for lien in liens]
    if len(set(ids)) != len(ids):
        raise ValueError("lien ids must be unique")
    by_pair: dict[frozenset[str], Ruling] = {}
    for ruling in rulings:
        if ruling.higher not in ids or ruling.lower not in ids or ruling.higher == ruling.lower:
            raise ValueError(f"a ruling must name two different liens of the property: {ruling}")
        pair = frozenset({ruling.higher, ruling.lower})
        if pair in by_pair and by_pair[pair] != ruling:
            raise ValueError(f"contradictory rulings for {ruling.higher} and {ruling.lower}")
        by_pair[pair] = ruling
    decisions, conflicts, ties = [], [], []
    for n, a in enumerate(liens):
        for b in liens[n + 1:]:
            outcome = decide_pair(a, b, by_pair.get(frozenset({a.id, b.id})), ctx)
            if isinstance(outcome, Decision):
                decisions.append(outcome)
            elif isinstance(outcome, Conflict):
                conflicts.append(outcome)
            else:
                ties.append((a.id, b.id))
    groups, group_of, cycles = _groups(ids, decisions, ties)
    ranks = None
    if not conflicts and not cycles:
        ordered = _order_groups(ids, groups, group_of, decisions)
        ranks = tuple(tuple(i for i in ids if i in g) for g in ordered)
    return Ranking(ranks=ranks, decisions=tuple(decisions), conflicts=tuple(conflicts),
                   cycles=tuple(cycles), ties=tuple(ties))


# --- LIEN-3 distribution ------------------------------------------------------------------

@dataclass(frozen=True)
class Payout:
    id: str
    paid: Decimal
    unpaid: Decimal


@dataclass(frozen=True)
class Distribution:
    payouts: tuple[Payout, ...]  # in the liens' input order
    remaining: Decimal  # proceeds left after every lien is paid


def distribute(liens: Sequence[Lien], ranks: Sequence[Sequence[str]], proceeds: Decimal) -> Distribution:
    """LIEN-3: pay the liens in rank order until the money runs out; a rank that cannot be paid
    in full shares what is left pro rata to the amounts, apportioned to the cent."""
    if proceeds < 0:
        raise ValueError("proceeds must not be negative")
    # LIEN-4: a lien is paid what it still secures on the sale's date, not what it was constituted for.
    amount = {lien.id: lien.secured for lien in liens}
    paid: dict[str, Decimal] = {}
    left = proceeds
    for group in ranks:
        owed = sum((amount[i] for i in group), ZERO)
        # A rank paid in full takes its amounts; otherwise it shares what is left.
        weights = [(i, amount[i]) for i in group]
        shares = dict(weights) if owed <= left else apportion(left, weights)
        paid.update(shares)
        left -= sum(shares.values(), ZERO)
    payouts = tuple(Payout(lien.id, paid[lien.id], amount[lien.id] - paid[lien.id]) for lien in liens)
    return Distribution(payouts=payouts, remaining=left)


# --- LIEN-4: what a lien secures -----------------------------------------------------------

def secured_amount(constituted: Decimal, open_principal: Decimal | None) -> Decimal:
    """LIEN-4: what a lien secures on a date (pure).

    A lien guarantees the charge it was constituted for and nothing else (SID-4, the special improvement districts law:
    "sólo garantizará el pago de los cargos por beneficios"; the same reading for the IRR-10,
    LAJ-6, TID-6 and franchise liens that secure a quota): it secures the charge's principal
    still open on that date — never the surcharge, never more than the amount constituted,
    never less than zero. `open_principal` None means the lien has no charge in the ledger
    (a mortgage, a tax lien recorded by staff): it secures the amount constituted.
    """
    if open_principal is None:
        return constituted
    return min(constituted, max(open_principal, ZERO))


# --- IRR-12 -------------------------------------------------------------------------------

@dataclass(frozen=True)
class SeizureCheck:
    amount_owed: Decimal
    max_seizable_value: Decimal
    proposed_value: Decimal
    allowed: bool
    excess: Decimal  # how much the proposal is over the limit (0 when allowed)


def seizure_check(amount_owed: Decimal, proposed_value: Decimal) -> SeizureCheck:
    """IRR-12: property whose tax value, after deducting every lien on it, exceeds twice the
    amount owed may not be seized; staff then choose a part of it worth at most that."""
    limit = 2 * amount_owed
    excess = max(proposed_value - limit, ZERO)
    return SeizureCheck(amount_owed=amount_owed, max_seizable_value=limit, proposed_value=proposed_value,
                        allowed=proposed_value <= limit, excess=excess)
