"""LIEN-2/LIEN-3 from the database: the seeded demo sets rank and distribute exactly as the
`lien-ranking` calculation does for the same liens, and reproduce the worked examples."""
from __future__ import annotations

from datetime import date
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from assessments.compute import run
from core.models import Flag
from liens import selectors, services
from liens.models import Lien
from tests.liens.conftest import SETS, example, ids_of

pytestmark = pytest.mark.django_db


def payload_for(parcel, name: str, **extra) -> dict:
    """The example's input with the seeded ids, in the order the database feeds the engine."""
    raw = example(name)
    ids = ids_of(parcel)
    by_id = {ids[item["id"]]: {**item, "id": ids[item["id"]]} for item in raw["liens"]}
    order = [str(pk) for pk in selectors.liens_in_force(parcel).values_list("pk", flat=True)]
    assert sorted(order) == sorted(by_id)
    return {"law_effective_on": raw["law_effective_on"], "liens": [by_id[i] for i in order], **extra}


def rule_set(decisions, back) -> set:
    """Decisions as (higher, lower, rules) with example ids; agreeing rules sorted (their order follows input order)."""
    return {(back[d["higher"]], back[d["lower"]], tuple(sorted(d["rule"].split("/")))) for d in decisions}


def conflict_set(conflicts, back) -> set:
    out = set()
    for c in conflicts:
        if "cycle" in c:
            out.add(("cycle", tuple(sorted(back[i] for i in c["cycle"]))))
        else:
            out.add((frozenset({back[c["a"]], back[c["b"]]}), tuple(sorted(c["rules"]))))
    return out


@pytest.mark.parametrize("name", SETS)
def test_db_ranking_and_distribution_equal_compute(seeded, name):
    parcel = seeded[name]
    proceeds = Decimal(example(name)["proceeds"])
    got = selectors.ranking_contract(selectors.parcel_ranking(parcel), proceeds)
    expected = run("lien-ranking", payload_for(parcel, name, proceeds=str(proceeds)))
    expected.pop("calculation")
    assert got == expected


@pytest.mark.parametrize("name", SETS)
def test_db_ranking_reproduces_the_worked_example(seeded, name):
    parcel = seeded[name]
    back = {v: k for k, v in ids_of(parcel).items()}
    got = selectors.ranking_contract(selectors.parcel_ranking(parcel), Decimal(example(name)["proceeds"]))
    want = example(name, "expected")
    ranks = [[back[i] for i in group] for group in got["ranks"]] if got["ranks"] is not None else None
    assert ranks == want["ranks"]
    assert conflict_set(got["conflicts"], back) == conflict_set(want["conflicts"], back | {k: k for k in back.values()})
    assert rule_set(got["decisions"], back) == rule_set(want["decisions"], {k: k for k in back.values()})
    if want["distribution"] is None:
        assert got["distribution"] is None and got["remaining"] is None
    else:
        assert {back[p["id"]]: (p["paid"], p["unpaid"]) for p in got["distribution"]} == \
            {p["id"]: (p["paid"], p["unpaid"]) for p in want["distribution"]}
        assert got["remaining"] == want["remaining"]


def test_distribution_selector_pays_in_rank_order(seeded):
    result = selectors.parcel_distribution(seeded["lien1"], Decimal("95000.00"))
    back = {v: k for k, v in ids_of(seeded["lien1"]).items()}
    assert [(back[p.row.id], p.row.rank, p.paid, p.unpaid) for p in result.payouts] == [
        ("TAX-2026", 1, Decimal("2400.00"), Decimal("0.00")),
        ("IRR-FY27", 2, Decimal("600.00"), Decimal("0.00")),
        ("MORT-1", 3, Decimal("60000.00"), Decimal("0.00")),
        ("TID-3", 4, Decimal("9000.00"), Decimal("0.00")),
        ("MORT-2", 5, Decimal("23000.00"), Decimal("17000.00")),
    ]
    assert (result.total_paid, result.total_unpaid, result.remaining) == (
        Decimal("95000.00"), Decimal("17000.00"), Decimal("0.00"))
    blocked = selectors.parcel_distribution(seeded["lien2"], Decimal("95000.00"))
    assert blocked.blocked and blocked.payouts is None and blocked.remaining is None


def test_ladder_names_reasons_and_failed_mortgage_conditions(seeded):
    pr = selectors.parcel_ranking(seeded["lien1"])
    ids = ids_of(seeded["lien1"])
    mort1 = pr.row(ids["MORT-1"])
    assert mort1.mortgage_failures == ("RATE", "PURPOSE", "PRINCIPAL_PER_CUERDA")
    mort2 = pr.row(ids["MORT-2"])
    assert mort2.mortgage_failures == ("FIXED_ANNUAL_INSTALLMENTS", "PURPOSE", "PRINCIPAL_PER_CUERDA")
    assert [[r.id for r in rung.rows] for rung in pr.rungs] == [[ids[i]] for i in
                                                               ("TAX-2026", "IRR-FY27", "MORT-1", "TID-3", "MORT-2")]
    # Why rank 2 (IRR) is above rank 3 (MORT-1): IRR-10, since MORT-1 fails IRR-11.
    assert [(d.higher.id, d.lower.id, d.rule) for d in pr.rungs[1].above_next] == [
        (ids["IRR-FY27"], ids["MORT-1"], "IRR-10")]
    assert [code for code, _ in pr.rungs[1].above_next[0].reasons] == ["IRR-10"]


def test_seed_is_idempotent_and_flags_conflicts_once(seeded):
    before = (Lien.objects.count(), Flag.objects.count())
    call_command("seed_liens", stdout=StringIO())
    call_command("liens_rank_all", stdout=StringIO())
    call_command("liens_rank_all", stdout=StringIO())
    # 17 demo liens of the three LIEN-2 sets + the half-paid charge's lien (LIEN-4)
    assert (Lien.objects.count(), Flag.objects.count()) == before == (18, 2)
    flagged = {f.object_id for f in Flag.objects.filter(kind=Flag.Kind.LIEN_CONFLICT, resolved_on__isnull=True)}
    assert flagged == {seeded["lien2"].pk, seeded["lien4"].pk}
    conflict = Flag.objects.get(object_id=seeded["lien2"].pk)
    ids = ids_of(seeded["lien2"])
    assert conflict.rule == "LIEN-2" and "IRR-10" in conflict.description and "SID-4" in conflict.description
    assert f"#{ids['IRR-FY27']} " in conflict.description and f"#{ids['SID-7']} " in conflict.description
    cycle = Flag.objects.get(object_id=seeded["lien4"].pk)
    assert "Ciclo" in cycle.description and all(f"#{ids_of(seeded['lien4'])[i]} " in cycle.description
                                                 for i in ("IRR-FY27", "REF-1", "TID-3"))


def test_rank_all_output(seeded):
    out = StringIO()
    call_command("liens_rank_all", stdout=out)
    assert "4 parcel(s) ranked; 2 in conflict" in out.getvalue()


def test_satisfying_a_lien_reranks_and_resolves_the_conflict(seeded, staff_user):
    parcel = seeded["lien2"]
    sid = Lien.objects.get(pk=ids_of(parcel)["SID-7"])
    services.lien_change_status(lien=sid, status="SATISFIED", on=date(2026, 11, 2), reason="Pagado", actor=staff_user)
    flag = Flag.objects.get(object_id=parcel.pk, kind=Flag.Kind.LIEN_CONFLICT)
    assert flag.resolved_on is not None
    assert not selectors.parcel_ranking(parcel).blocked
    services.lien_change_status(lien=sid, status="ACTIVE", on=date(2026, 11, 3), reason="Cheque devuelto",
                                actor=staff_user)
    assert Flag.objects.filter(object_id=parcel.pk, kind=Flag.Kind.LIEN_CONFLICT, resolved_on__isnull=True).count() == 1


def test_ranking_as_of_a_date_uses_the_liens_in_force_then(seeded):
    parcel = seeded["lien2"]
    ids = ids_of(parcel)
    before_roll = selectors.parcel_ranking(parcel, on=date(2026, 6, 30))  # the FY27 irrigation lien is not yet there
    assert not before_roll.blocked and ids["IRR-FY27"] not in {r.id for r in before_roll.rows}
    assert len(before_roll.rows) == 5


def test_record_other_encumbrance_refuses_statutory_kinds(seeded, staff_user):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        services.lien_record(parcel=seeded["lien1"], kind="IRRIGATION", amount=Decimal("1.00"),
                             constituted_on=date(2026, 1, 1), actor=staff_user)
    with pytest.raises(ValidationError) as exc:
        services.lien_record(parcel=seeded["lien1"], kind="MORTGAGE", amount=Decimal("1000.00"),
                             constituted_on=date(2026, 1, 1), actor=staff_user, mortgage_terms={"term_years": 20})
    assert "rate_pct" in exc.value.message_dict
    assert Lien.objects.count() == 18  # the three LIEN-2 sets and the half-paid charge (LIEN-4)


def test_qualifying_mortgage_outranks_the_irrigation_lien(seeded, staff_user):
    parcel = seeded["lien1"]  # 12.5 cuerdas when created by the seed
    lien = services.lien_record(parcel=parcel, kind="MORTGAGE", amount=Decimal("1200.00"),
                                constituted_on=date(2026, 8, 1), actor=staff_user, origin_label="Banco agrícola",
                                mortgage_terms={"term_years": 18, "fixed_annual_installments": True, "rate_pct": "6.5",
                                                "purpose": "IMPROVEMENTS", "principal_per_cuerda": None,
                                                "irrigation_benefit": True})
    assert lien.mortgage_terms["principal_per_cuerda"] == str((Decimal("1200.00") / parcel.area_cuerdas)
                                                              .quantize(Decimal("0.01")))
    pr = selectors.parcel_ranking(parcel)
    ids = ids_of(parcel)
    decision = next(d for d in pr.decisions if {d.higher.id, d.lower.id} == {str(lien.pk), ids["IRR-FY27"]})
    assert (decision.higher.id, decision.rule) == (str(lien.pk), "IRR-11")
    assert pr.row(str(lien.pk)).qualifies
