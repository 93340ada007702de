"""LIEN-2 ranking, LIEN-3 distribution, IRR-11 and IRR-12: pure tables, no database."""
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assessments.compute import ComputeInputError, run
from liens.rules import (
    KINDS,
    PURPOSES,
    Conflict,
    Decision,
    Lien,
    LienContext,
    MortgageLimits,
    MortgageTerms,
    Ruling,
    decide_pair,
    distribute,
    mortgage_failures,
    rank_liens,
    seizure_check,
    statutory_votes,
)

D = date.fromisoformat
LIMITS = MortgageLimits(min_term_years=18, max_rate_pct=Decimal("6.5"), max_principal_per_cuerda=Decimal("100.00"),
                        purposes=frozenset({"IMPROVEMENTS", "SUPPLIES", "DEBT_REFINANCE"}))
CTX = LienContext(sid_law_on=D("2000-08-01"), tid_law_on=D("2006-05-01"), mortgage_limits=LIMITS)
GOOD = MortgageTerms(term_years=18, fixed_annual_installments=True, rate_pct=Decimal("6.5"), purpose="IMPROVEMENTS",
                     principal_per_cuerda=Decimal("100.00"))


def lien(id, kind, on, amount="100.00", **kw):
    return Lien(id=id, kind=kind, constituted_on=D(on), amount=Decimal(amount), **kw)


# --- IRR-11 -------------------------------------------------------------------------------

@pytest.mark.parametrize(("changes", "failed"), [
    ({}, ()),
    ({"purpose": "SUPPLIES"}, ()),
    ({"purpose": "DEBT_REFINANCE", "term_years": 30, "rate_pct": Decimal("4")}, ()),
    ({"term_years": 17}, ("TERM",)),
    ({"fixed_annual_installments": False}, ("FIXED_ANNUAL_INSTALLMENTS",)),
    ({"rate_pct": Decimal("6.51")}, ("RATE",)),
    ({"purpose": "OTHER"}, ("PURPOSE",)),
    ({"principal_per_cuerda": Decimal("100.01")}, ("PRINCIPAL_PER_CUERDA",)),
    ({"irrigation_benefit": False}, ("IRRIGATION_BENEFIT",)),
    # the worked examples' mortgages
    ({"term_years": 20, "rate_pct": Decimal("7.25"), "purpose": "OTHER", "principal_per_cuerda": Decimal("5000")},
     ("RATE", "PURPOSE", "PRINCIPAL_PER_CUERDA")),
    ({"term_years": 30, "fixed_annual_installments": False, "rate_pct": Decimal("4.5"), "purpose": "OTHER",
      "principal_per_cuerda": Decimal("9000")}, ("FIXED_ANNUAL_INSTALLMENTS", "PURPOSE", "PRINCIPAL_PER_CUERDA")),
])
def test_qualifying_mortgage(changes, failed):
    terms = MortgageTerms(**{**GOOD.__dict__, **changes})
    assert mortgage_failures(terms, LIMITS) == failed


def test_mortgage_without_terms_does_not_qualify():
    assert mortgage_failures(None, LIMITS) == ("TERMS_NOT_RECORDED",)


# --- LIEN-2 pairs -------------------------------------------------------------------------

IRR = lien("IRR", "IRRIGATION", "2026-07-01")
SID = lien("SID", "SID", "2012-03-01")
TID = lien("TID", "TID", "2015-09-01")
LAJ = lien("LAJ", "LAJAS", "2020-07-01")
TAX = lien("TAX", "PROPERTY_TAX", "2026-01-01")
TTD = lien("TTD", "TRANSFERRED_TAX_DEBT", "2027-01-01")


@pytest.mark.parametrize(("a", "b", "expected"), [
    (IRR, lien("M", "MORTGAGE", "2020-01-01", mortgage=GOOD), ("M", "IRR", "IRR-11")),
    (IRR, lien("M", "MORTGAGE", "2020-01-01"), ("IRR", "M", "IRR-10")),  # terms not recorded
    (IRR, lien("R", "REFACCIONARIO", "2030-01-01"), ("IRR", "R", "IRR-10")),
    (IRR, lien("R", "REFACCIONARIO", "2030-01-01", district_cooperative=True), ("R", "IRR", "IRR-10")),
    (IRR, TTD, ("TTD", "IRR", "IRR-10")),
    (LAJ, TAX, ("TAX", "LAJ", "LAJ-6")),
    (LAJ, TTD, ("TTD", "LAJ", "LAJ-6")),
    (LAJ, lien("M", "MORTGAGE", "1990-01-01", mortgage=GOOD), ("LAJ", "M", "LAJ-6")),
    (SID, lien("M", "MORTGAGE", "1999-01-01"), ("M", "SID", "SID-4")),  # (c): older than the law
    (SID, lien("M", "MORTGAGE", "2000-08-01"), ("SID", "M", "SID-4")),  # constituted the day it took effect
    (SID, lien("O", "OTHER", "2020-01-01", finances_public_infrastructure=True), ("SID", "O", "SID-4")),
    (SID, TTD, ("TTD", "SID", "SID-4")),
    (TID, lien("O", "OTHER", "2020-01-01"), ("TID", "O", "TID-6")),
    (TID, lien("O", "OTHER", "2020-01-01", finances_public_infrastructure=True), ("O", "TID", "TID-6")),
    (TID, lien("O", "OTHER", "2006-04-30"), ("O", "TID", "TID-6")),
    (IRR, TID, ("IRR", "TID", "IRR-10/TID-6")),
    (TID, IRR, ("IRR", "TID", "TID-6/IRR-10")),  # the rules are named in the pair's order
    (SID, TID, ("SID", "TID", "SID-4/TID-6")),
    (IRR, lien("S", "SID", "2012-01-01", amount="1"), Conflict("IRR", "S", ("IRR-10", "SID-4"))),
    (lien("I", "IRRIGATION", "1999-01-01"), SID, ("I", "SID", "IRR-10/SID-4")),  # older than the SID law
    (TID, LAJ, Conflict("TID", "LAJ", ("TID-6", "LAJ-6"))),  # (d) does not cover the Lajas contribution
    (TID, lien("L", "LAJAS", "2020-07-01", finances_public_infrastructure=True),
     Conflict("TID", "L", ("TID-6", "LAJ-6"))),
    (TID, lien("L", "LAJAS", "2005-07-01"), ("L", "TID", "TID-6/LAJ-6")),
    (LAJ, IRR, Conflict("LAJ", "IRR", ("LAJ-6", "IRR-10"))),
    (lien("S1", "SID", "2012-01-01"), lien("S2", "SID", "2011-01-01"), ("S2", "S1", "DATE")),  # same statute
    (TAX, TTD, ("TAX", "TTD", "DATE")),
    (lien("M", "MORTGAGE", "2010-01-01"), TTD, ("TTD", "M", "TAX")),
    (lien("M", "MORTGAGE", "2010-01-01", presented_seq=2), lien("O", "OTHER", "2010-01-01", presented_seq=1),
     ("O", "M", "REGISTRY")),
    (lien("M", "MORTGAGE", "2010-01-01"), lien("O", "OTHER", "2010-01-01"), None),
    (lien("M", "MORTGAGE", "2010-01-01", presented_seq=1), lien("O", "OTHER", "2010-01-01"), None),
])
def test_decide_pair(a, b, expected):
    outcome = decide_pair(a, b, None, CTX)
    if isinstance(expected, tuple):
        expected = Decision(*expected)
    assert outcome == expected


def test_a_ruling_decides_before_the_statutes():
    assert decide_pair(LAJ, IRR, Ruling("IRR", "LAJ"), CTX) == Decision("IRR", "LAJ", "RULING")
    assert decide_pair(TAX, TID, Ruling("TID", "TAX"), CTX) == Decision("TID", "TAX", "RULING")


# --- LIEN-2 ranking -----------------------------------------------------------------------

def test_ties_share_a_rank_in_input_order():
    liens = [lien("M2", "MORTGAGE", "2010-01-01"), TAX, lien("M1", "OTHER", "2010-01-01")]
    ranking = rank_liens(liens, [], CTX)
    assert ranking.ranks == (("TAX",), ("M2", "M1"))
    assert ranking.ties == (("M2", "M1"),)
    assert not ranking.blocked


def test_contradictory_ties_are_a_cycle():
    # A and C are ordered by the registry, B ties with both: they cannot share a rank.
    liens = [lien("A", "OTHER", "2010-01-01", presented_seq=1), lien("B", "OTHER", "2010-01-01"),
             lien("C", "OTHER", "2010-01-01", presented_seq=2)]
    ranking = rank_liens(liens, [], CTX)
    assert (ranking.ranks, ranking.cycles) == (None, (("A", "B", "C"),))


def test_cycle_from_the_spec():
    # A district cooperative's crop credit outranks the irrigation lien (IRR-10), which outranks a later
    # tourism lien (TID-6 d), which outranks the later crop credit (TID-6).
    liens = [lien("REF", "REFACCIONARIO", "2025-02-01", district_cooperative=True), IRR, TID]
    ranking = rank_liens(liens, [], CTX)
    assert ranking.ranks is None
    assert ranking.cycles == (("IRR", "REF", "TID"),)
    assert ranking.conflicts == ()
    # A ruling on one pair breaks it.
    ruled = rank_liens(liens, [Ruling("IRR", "REF")], CTX)
    assert ruled.ranks == (("IRR",), ("TID",), ("REF",))


def test_rank_refuses_bad_rulings_and_duplicate_ids():
    with pytest.raises(ValueError):
        rank_liens([TAX, TAX], [], CTX)
    with pytest.raises(ValueError):
        rank_liens([TAX, IRR], [Ruling("TAX", "NOPE")], CTX)
    with pytest.raises(ValueError):
        rank_liens([TAX, IRR], [Ruling("TAX", "IRR"), Ruling("IRR", "TAX")], CTX)


# --- LIEN-3 distribution ------------------------------------------------------------------

@pytest.mark.parametrize(("proceeds", "paid", "remaining"), [
    ("1000.00", ["100.00", "200.00", "100.00"], "600.00"),
    ("400.00", ["100.00", "200.00", "100.00"], "0.00"),
    ("200.00", ["100.00", "66.67", "33.33"], "0.00"),  # the tied rank shares 100.00 pro rata, 2:1
    ("100.01", ["100.00", "0.01", "0.00"], "0.00"),
    ("50.00", ["50.00", "0.00", "0.00"], "0.00"),
    ("0.00", ["0.00", "0.00", "0.00"], "0.00"),
])
def test_distribution(proceeds, paid, remaining):
    liens = [TAX, lien("M1", "MORTGAGE", "2010-01-01", "200.00"), lien("M2", "OTHER", "2010-01-01", "100.00")]
    result = distribute(liens, [("TAX",), ("M1", "M2")], Decimal(proceeds))
    assert [p.id for p in result.payouts] == ["TAX", "M1", "M2"]
    assert [str(p.paid) for p in result.payouts] == paid
    assert [p.paid + p.unpaid for p in result.payouts] == [lien.amount for lien in liens]
    assert str(result.remaining) == remaining


def test_equal_shares_give_the_odd_cent_to_the_lower_id():
    liens = [lien("M-B", "MORTGAGE", "2010-01-01"), lien("M-A", "OTHER", "2010-01-01")]
    result = distribute(liens, [("M-B", "M-A")], Decimal("0.01"))
    assert [(p.id, str(p.paid)) for p in result.payouts] == [("M-B", "0.00"), ("M-A", "0.01")]


# --- IRR-12 -------------------------------------------------------------------------------

@pytest.mark.parametrize(("owed", "proposed", "allowed", "limit", "excess"), [
    ("1000.00", "2000.00", True, "2000.00", "0.00"),
    ("1000.00", "2000.01", False, "2000.00", "0.01"),
    ("1000.00", "500.00", True, "2000.00", "0.00"),
    ("0.00", "1.00", False, "0.00", "1.00"),
])
def test_seizure_limit(owed, proposed, allowed, limit, excess):
    check = seizure_check(Decimal(owed), Decimal(proposed))
    assert (check.allowed, str(check.max_seizable_value), str(check.excess)) == (allowed, limit, excess)


# --- the `lien-ranking` calculation -------------------------------------------------------

BASE = {"law_effective_on": {"SID": "2000-08-01", "TID": "2006-05-01"},
        "liens": [{"id": "TAX", "kind": "PROPERTY_TAX", "constituted_on": "2026-01-01", "amount": "100.00"},
                  {"id": "M", "kind": "MORTGAGE", "constituted_on": "2010-01-01", "amount": "50.00",
                   "mortgage": {"term_years": 20, "fixed_annual_installments": True, "rate_pct": "6",
                                "purpose": "SUPPLIES", "principal_per_cuerda": "80"}},
                  {"id": "IRR", "kind": "IRRIGATION", "constituted_on": "2026-07-01", "amount": "30.00"}]}


def test_lien_ranking_reports_mortgage_qualification():
    out = run("lien-ranking", {**BASE, "proceeds": "160.00"})
    assert out["ranks"] == [["TAX"], ["M"], ["IRR"]]
    assert {"higher": "M", "lower": "IRR", "rule": "IRR-11"} in out["decisions"]
    assert out["mortgages"] == [{"id": "M", "qualifies": True, "failed": [], "reasons": [], "rule": "IRR-11"}]
    assert out["distribution"] == [{"id": "TAX", "paid": "100.00", "unpaid": "0.00"},
                                   {"id": "M", "paid": "50.00", "unpaid": "0.00"},
                                   {"id": "IRR", "paid": "10.00", "unpaid": "20.00"}]
    assert out["remaining"] == "0.00"


def test_law_dates_default_to_the_shipped_parameters():
    payload = {k: v for k, v in BASE.items() if k != "law_effective_on"}
    out = run("lien-ranking", payload)
    assert out["law_effective_on"] == {"SID": "2000-08-01", "TID": "2006-05-01"}
    assert out["parameters"] == ["lien_laws@placeholder-1", "irr_mortgage@statute-000-1"]
    assert (out["distribution"], out["remaining"]) == (None, None)  # no proceeds


def test_what_if_mortgage_limits():
    payload = {**BASE, "parameters": {"irr_mortgage": {"max_rate_pct": "5.5"}}}
    out = run("lien-ranking", payload)
    assert out["ranks"] == [["TAX"], ["IRR"], ["M"]]
    assert out["mortgages"][0]["failed"] == ["RATE"]


def with_lien(index, **changes):
    liens = [dict(raw) for raw in BASE["liens"]]
    liens[index].update(changes)
    return {**BASE, "liens": liens}


@pytest.mark.parametrize(("payload", "field"), [
    ({"law_effective_on": BASE["law_effective_on"]}, "liens"),
    (with_lien(2, kind="WATER"), "liens[2].kind"),
    (with_lien(1, id="TAX"), "liens[1].id"),
    (with_lien(0, constituted_on="2026-13-01"), "liens[0].constituted_on"),
    (with_lien(0, amount="12.345"), "liens[0].amount"),
    (with_lien(0, amount="-1.00"), "liens[0].amount"),
    (with_lien(0, presented_seq="1"), "liens[0].presented_seq"),
    (with_lien(0, district_cooperative="yes"), "liens[0].district_cooperative"),
    (with_lien(0, mortgage={"term_years": 20}), "liens[0].mortgage"),
    (with_lien(1, mortgage={**BASE["liens"][1]["mortgage"], "purpose": "VACATION"}), "liens[1].mortgage.purpose"),
    (with_lien(1, mortgage={**BASE["liens"][1]["mortgage"], "term_years": 2.5}), "liens[1].mortgage.term_years"),
    (with_lien(1, mortgage={**BASE["liens"][1]["mortgage"], "rate_pct": "x"}), "liens[1].mortgage.rate_pct"),
    ({**BASE, "rulings": [{"higher": "TAX", "lower": "NOPE"}]}, "rulings[0].lower"),
    ({**BASE, "rulings": [{"higher": "TAX", "lower": "TAX"}]}, "rulings[0]"),
    ({**BASE, "rulings": [{"higher": "TAX", "lower": "M"}, {"higher": "M", "lower": "TAX"}]}, "rulings[1]"),
    ({**BASE, "proceeds": "lots"}, "proceeds"),
    ({**BASE, "law_effective_on": {"SID": "August 2000"}}, "law_effective_on.SID"),
])
def test_invalid_input(payload, field):
    with pytest.raises(ComputeInputError) as exc:
        run("lien-ranking", payload)
    assert exc.value.field == field


# --- property: no conflict is ever resolved silently --------------------------------------

DAYS = [D("1995-01-01"), D("2003-01-01"), D("2010-01-01"), D("2026-07-01")]
terms = st.builds(MortgageTerms, term_years=st.sampled_from([10, 18, 30]), fixed_annual_installments=st.booleans(),
                  rate_pct=st.sampled_from([Decimal("4.5"), Decimal("6.5"), Decimal("7.25")]),
                  purpose=st.sampled_from(PURPOSES),
                  principal_per_cuerda=st.sampled_from([Decimal("80"), Decimal("100"), Decimal("5000")]),
                  irrigation_benefit=st.booleans())


@st.composite
def properties(draw):
    n = draw(st.integers(min_value=2, max_value=6))
    liens = []
    for i in range(n):
        kind = draw(st.sampled_from(KINDS))
        liens.append(Lien(id=f"L{i}", kind=kind, constituted_on=draw(st.sampled_from(DAYS)),
                          amount=Decimal(draw(st.integers(min_value=0, max_value=50_000))) / 100,
                          mortgage=draw(st.none() | terms) if kind == "MORTGAGE" else None,
                          district_cooperative=draw(st.booleans()),
                          finances_public_infrastructure=draw(st.booleans()),
                          presented_seq=draw(st.none() | st.integers(min_value=1, max_value=3))))
    pairs = [(a.id, b.id) for k, a in enumerate(liens) for b in liens[k + 1:]]
    ruled = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=2)) if pairs else []
    rulings = [Ruling(a, b) if draw(st.booleans()) else Ruling(b, a) for a, b in ruled]
    proceeds = Decimal(draw(st.integers(min_value=0, max_value=200_000))) / 100
    return liens, rulings, proceeds


@settings(max_examples=300, deadline=None)
@given(properties())
def test_ranking_never_silently_orders_a_conflicting_pair(case):
    liens, rulings, proceeds = case
    ranking = rank_liens(liens, rulings, CTX)
    ruled = {frozenset({r.higher, r.lower}) for r in rulings}
    decided = {frozenset({d.higher, d.lower}) for d in ranking.decisions}
    expected_conflicts = []
    for k, a in enumerate(liens):
        for b in liens[k + 1:]:
            votes = statutory_votes(a, b, CTX)
            if frozenset({a.id, b.id}) not in ruled and len({v.higher for v in votes}) > 1:
                expected_conflicts.append(Conflict(a.id, b.id, tuple(v.rule for v in votes)))
                assert frozenset({a.id, b.id}) not in decided
    assert list(ranking.conflicts) == expected_conflicts
    if expected_conflicts:
        assert ranking.ranks is None
    if ranking.ranks is not None:
        rank_of = {i: n for n, group in enumerate(ranking.ranks) for i in group}
        assert sorted(rank_of) == sorted(lien.id for lien in liens)
        for d in ranking.decisions:  # the ranks agree with every decision
            assert rank_of[d.higher] < rank_of[d.lower]
        for a, b in ranking.ties:
            assert rank_of[a] == rank_of[b]
        result = distribute(liens, ranking.ranks, proceeds)
        assert sum(p.paid for p in result.payouts) + result.remaining == proceeds
        assert all(Decimal(0) <= p.paid <= lien.amount for p, lien in zip(result.payouts, liens, strict=True))
    else:
        assert ranking.blocked
