"""`lien-ranking` calculation (docs/compute.md) over liens.rules (LIEN-2, LIEN-3, IRR-11).

Input: `law_effective_on: {SID, TID}` (optional: the `lien_laws` parameters otherwise),
`liens[]`, optional `rulings[]`, optional `proceeds`, optional `as_of` (parameter date).
"""
from __future__ import annotations

from decimal import Decimal

from core.compute_errors import ComputeInputError
from core.payload import json_cents, json_decimal, optional_date, to_bool, to_date, what_if
from core.rule_parameters import ParameterNotFound
from liens.rules import (
    KINDS,
    MORTGAGE_CONDITIONS,
    PURPOSES,
    Lien,
    LienContext,
    MortgageLimits,
    MortgageTerms,
    Ruling,
    distribute,
    mortgage_failures,
    rank_liens,
)

LAW_FAMILY = "lien_laws"
MORTGAGE_FAMILY = "irr_mortgage"


def _nonneg(value: object, field: str) -> Decimal:
    return json_decimal(value, field, non_negative=True)


def _bool(raw: dict, key: str, path: str, default: bool = False) -> bool:
    return to_bool(raw.get(key, default), f"{path}.{key}")


def _mortgage(raw: object, path: str) -> MortgageTerms:
    if not isinstance(raw, dict):
        raise ComputeInputError(path, "must be an object")
    term = raw.get("term_years")
    if isinstance(term, bool) or not isinstance(term, int) or term < 0:
        raise ComputeInputError(f"{path}.term_years", "must be a non-negative whole number of years")
    if raw.get("purpose") not in PURPOSES:
        raise ComputeInputError(f"{path}.purpose", f"one of {', '.join(PURPOSES)}")
    for key in ("rate_pct", "principal_per_cuerda"):
        if raw.get(key) is None:
            raise ComputeInputError(f"{path}.{key}", "required")
    if "fixed_annual_installments" not in raw:
        raise ComputeInputError(f"{path}.fixed_annual_installments", "required")
    return MortgageTerms(
        term_years=term,
        fixed_annual_installments=_bool(raw, "fixed_annual_installments", path),
        rate_pct=_nonneg(raw["rate_pct"], f"{path}.rate_pct"),
        purpose=raw["purpose"],
        principal_per_cuerda=_nonneg(raw["principal_per_cuerda"], f"{path}.principal_per_cuerda"),
        irrigation_benefit=_bool(raw, "irrigation_benefit", path, default=True),
    )


def _lien(raw: object, index: int) -> Lien:
    path = f"liens[{index}]"
    if not isinstance(raw, dict):
        raise ComputeInputError(path, "must be an object")
    if not isinstance(raw.get("id"), str) or not raw["id"]:
        raise ComputeInputError(f"{path}.id", "required (a non-empty string)")
    if raw.get("kind") not in KINDS:
        raise ComputeInputError(f"{path}.kind", f"unknown kind {raw.get('kind')!r}; one of {', '.join(KINDS)}")
    if raw.get("amount") is None:
        raise ComputeInputError(f"{path}.amount", "required")
    seq = raw.get("presented_seq")
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
        raise ComputeInputError(f"{path}.presented_seq", "must be a whole number")
    mortgage = None
    if raw.get("mortgage") is not None:
        if raw["kind"] != "MORTGAGE":
            raise ComputeInputError(f"{path}.mortgage", "only a MORTGAGE carries mortgage terms")
        mortgage = _mortgage(raw["mortgage"], f"{path}.mortgage")
    return Lien(
        id=raw["id"],
        kind=raw["kind"],
        constituted_on=to_date(raw.get("constituted_on"), f"{path}.constituted_on"),
        amount=json_cents(raw["amount"], f"{path}.amount"),
        mortgage=mortgage,
        district_cooperative=_bool(raw, "district_cooperative", path),
        finances_public_infrastructure=_bool(raw, "finances_public_infrastructure", path),
        presented_seq=seq,
        # LIEN-4: what the lien still secures on `as_of`; absent, the amount constituted.
        outstanding=(json_cents(raw["outstanding"], f"{path}.outstanding")
                     if raw.get("outstanding") is not None else None),
    )


def _rulings(payload: dict, ids: list[str]) -> list[Ruling]:
    raw = payload.get("rulings") or []
    if not isinstance(raw, list):
        raise ComputeInputError("rulings", "must be a list")
    rulings: dict[frozenset[str], Ruling] = {}
    for n, item in enumerate(raw):
        path = f"rulings[{n}]"
        if not isinstance(item, dict):
            raise ComputeInputError(path, "must be an object")
        for key in ("higher", "lower"):
            if item.get(key) not in ids:
                raise ComputeInputError(f"{path}.{key}", f"not a lien of this property: {item.get(key)!r}")
        if item["higher"] == item["lower"]:
            raise ComputeInputError(path, "a ruling ranks two different liens")
        ruling = Ruling(item["higher"], item["lower"])
        pair = frozenset({ruling.higher, ruling.lower})
        if rulings.get(pair, ruling) != ruling:
            raise ComputeInputError(path, f"contradicts an earlier ruling on {ruling.higher} and {ruling.lower}")
        rulings[pair] = ruling
    return list(rulings.values())


def _context(payload: dict, params) -> tuple[LienContext, list[str]]:
    on = optional_date(payload, "as_of")
    try:
        laws = params.get(LAW_FAMILY, on)
        limits_version = params.get(MORTGAGE_FAMILY, on)
        limits = MortgageLimits.from_parameters(limits_version.values)
        law_dates = dict(laws.values["law_effective_on"])
    except ParameterNotFound as exc:
        raise ComputeInputError("as_of", str(exc)) from None
    except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
        raise ComputeInputError("parameters", f"invalid lien parameters: {exc}") from None
    given = payload.get("law_effective_on")
    if given is not None and not isinstance(given, dict):
        raise ComputeInputError("law_effective_on", "must be an object {SID: date, TID: date}")
    law_dates.update(given or {})
    ctx = LienContext(sid_law_on=to_date(law_dates.get("SID"), "law_effective_on.SID"),
                      tid_law_on=to_date(law_dates.get("TID"), "law_effective_on.TID"),
                      mortgage_limits=limits)
    return ctx, [laws.label(), limits_version.label()]


def compute(payload: dict, params) -> dict:
    params = what_if(payload, params)
    raw_liens = payload.get("liens")
    if not isinstance(raw_liens, list):
        raise ComputeInputError("liens", "required (a list)")
    liens = [_lien(raw, i) for i, raw in enumerate(raw_liens)]
    ids = [lien.id for lien in liens]
    for i, lien_id in enumerate(ids):
        if lien_id in ids[:i]:
            raise ComputeInputError(f"liens[{i}].id", f"duplicate id {lien_id!r}")
    rulings = _rulings(payload, ids)
    proceeds = json_cents(payload["proceeds"], "proceeds") if payload.get("proceeds") is not None else None
    ctx, labels = _context(payload, params)

    ranking = rank_liens(liens, rulings, ctx)
    distribution = None
    if ranking.ranks is not None and proceeds is not None:
        distribution = distribute(liens, ranking.ranks, proceeds)
    mortgages = []
    for lien in liens:
        if lien.kind == "MORTGAGE":
            mortgages.append(mortgage_json(lien.id, mortgage_failures(lien.mortgage, ctx.mortgage_limits)))
    return ranking_json(ranking, distribution, mortgages, ctx, labels)


def mortgage_json(lien_id: str, failed) -> dict:
    """One mortgage's IRR-11 verdict in the contract's shape."""
    return {"id": lien_id, "qualifies": not failed, "failed": list(failed),
            "reasons": [MORTGAGE_CONDITIONS[c] for c in failed], "rule": "IRR-11"}


def ranking_json(ranking, distribution, mortgages: list[dict], ctx: LienContext, labels: list[str]) -> dict:
    """The `lien-ranking` output shape (docs/compute.md); the parcel page's export uses it too."""
    conflicts = [{"a": c.a, "b": c.b, "rules": list(c.rules)} for c in ranking.conflicts]
    conflicts += [{"cycle": list(cycle)} for cycle in ranking.cycles]
    return {
        "ranks": [list(group) for group in ranking.ranks] if ranking.ranks is not None else None,
        "conflicts": conflicts,
        "decisions": [{"higher": d.higher, "lower": d.lower, "rule": d.rule} for d in ranking.decisions],
        "ties": [{"a": a, "b": b} for a, b in ranking.ties],
        "needs_legal_review": ranking.blocked,
        "distribution": [{"id": p.id, "paid": str(p.paid), "unpaid": str(p.unpaid)}
                         for p in distribution.payouts] if distribution else None,
        "remaining": str(distribution.remaining) if distribution else None,
        "mortgages": mortgages,
        "law_effective_on": {"SID": ctx.sid_law_on.isoformat(), "TID": ctx.tid_law_on.isoformat()},
        "rules": ["LIEN-2", "LIEN-3"],
        "parameters": list(labels),
    }
