"""During the year: a parcel included mid-year, a parcel segregated, a parcel sold (IRR and LAJ)."""
from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.http import Http404

from assessments.ledger.common import SURCHARGE, installment_states, post
from assessments.models import LedgerEntry, Receivable
from assessments.portal import selectors as portal
from assessments.rolls import correction_rules as cr
from assessments.rolls import services, supplements
from assessments.rolls.billing import source_type
from assessments.rolls.lajas_midyear import lajas_inclusion
from assessments.rolls.models import Roll, RollCorrection, RollLine
from core.money import apportion
from districts.models import Membership, Parcel, WaterDelivery
from districts.services import parcel_sell
from liens.models import Lien
from tests import factories

pytestmark = pytest.mark.django_db

ON = date(2026, 9, 15)
PARENT = "371-045-123-00"


def _finalized(code: str, staff_user) -> Roll:
    roll = services.roll_generate(district_code=code, fiscal_year=2027, actor=staff_user).roll
    services.roll_certify(roll=roll, actor=staff_user, on=date(2026, 6, 15))
    services.roll_finalize(roll=roll, actor=staff_user, on=date(2026, 7, 1))
    roll.refresh_from_db()
    return roll


@pytest.fixture
def irr_roll(irrigation_figures, staff_user):
    return _finalized("riego-sur", staff_user)


@pytest.fixture
def laj_roll(lajas_figures, staff_user):
    roll = services.roll_generate(district_code="valle-lajas", fiscal_year=2027, actor=staff_user).roll
    services.roll_certify(roll=roll, actor=staff_user, on=date(2026, 6, 15))
    roll.refresh_from_db()
    return roll


def _snapshot(roll):
    roll.refresh_from_db()
    return roll.status, roll.totals, list(RollLine.objects.filter(roll=roll).order_by("pk")
                                          .values_list("total", "detail"))


# --- pure rules ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("included_on", "months"), [
    (date(2026, 7, 1), 12), (date(2026, 7, 2), 11), (date(2026, 10, 15), 8), (date(2027, 1, 1), 6),
    (date(2027, 6, 1), 1), (date(2027, 6, 30), 0), (date(2026, 1, 1), 12), (date(2027, 7, 1), 0)])
def test_months_remaining(included_on, months):
    assert cr.months_remaining(included_on, 2027) == months


def test_prorated_share_rounds_half_up_once():
    # 1000 × 3 / 7 × 8 / 12 = 285.714… → 285.71
    assert cr.prorated_share(total=Decimal("1000.00"), district_acres=Decimal("7"), acres=Decimal("3"),
                             months=8) == Decimal("285.71")
    assert cr.prorated_share(total=Decimal("1000.00"), district_acres=Decimal("0"), acres=Decimal("3"),
                             months=8) == Decimal("0.00")


def test_split_parts_add_up_and_break_ties_by_weight_then_key():
    parts = cr.split_parts(Decimal("100.00"), [("B", Decimal("1")), ("A", Decimal("1")), ("C", Decimal("1"))])
    assert parts == {"A": Decimal("33.34"), "B": Decimal("33.33"), "C": Decimal("33.33")}
    parts = cr.split_parts(Decimal("0.05"), [("A", Decimal("1")), ("B", Decimal("2"))])
    assert parts == {"A": Decimal("0.02"), "B": Decimal("0.03")} and sum(parts.values()) == Decimal("0.05")


@pytest.mark.parametrize(("twelve", "first_water", "start_fy", "liable"), [
    (None, None, 2028, None),
    (date(2027, 3, 1), None, 2028, date(2027, 7, 1)),
    (date(2027, 7, 1), None, 2029, date(2028, 7, 1)),        # "the July 1 following" a July 1 is a year later
    (None, date(2027, 2, 10), 2029, date(2028, 7, 1)),        # twelve months after first water: 2028-02-10
    (date(2020, 1, 1), None, 2028, date(2027, 7, 1)),         # liable long ago: still not before next FY
])
def test_lajas_inclusion_reading(twelve, first_water, start_fy, liable):
    found = lajas_inclusion(fiscal_year=2027, included_on=date(2026, 9, 1), twelve_months_on=twelve,
                            first_water_on=first_water)
    assert (found.contribution_from_fy, found.liable_from, found.water_sales_until_liable) == (start_fy, liable, True)
    assert found.explain()["amount"] == "0.00" and found.explain()["rule"] == "LAJ-5"


# --- IRR mid-year inclusion ---------------------------------------------------------------------

def test_irr_inclusion_is_free_in_its_first_year_and_says_why(irr_roll, staff_user):
    before = _snapshot(irr_roll)
    p = factories.parcel(cadastre="371-045-200-01", cuerdas="10")
    member, correction = supplements.parcel_include_midyear(
        district=irr_roll.district, parcel=p, included_on=date(2026, 10, 15), on=date(2026, 10, 20),
        actor=staff_user, gravity_acres=Decimal("10.0000"), free_period_end=date(2027, 10, 15))
    assert member.pk and correction.kind == RollCorrection.Kind.INCLUSION
    assert correction.amount == Decimal("0.00") and correction.receivable is None
    b = correction.breakdown
    assert b["months_remaining"] == 8
    total, acres = Decimal(irr_roll.totals["total"]), Decimal(irr_roll.totals["district_acres"])
    assert Decimal(b["prorated_share"]) == (total * 10 / acres * 8 / 12).quantize(Decimal("0.01"), "ROUND_HALF_UP")
    assert [(ln["period"], ln["exempt_reason"], ln["amount"]) for ln in b["lines"]] == [
        ("FY2027-S1", "FREE_PERIOD", "0.00"), ("FY2027-S2", "FREE_PERIOD", "0.00")]
    assert _snapshot(irr_roll) == before


def test_irr_inclusion_bills_the_months_remaining(irr_roll, staff_user):
    """Land that already had its twelve months of water (e.g. moved from another district) is billed
    its roll share by the months it is in: S1 × 2/6 (Nov, Dec) and S2 in full."""
    p = factories.parcel(cadastre="371-045-200-02", cuerdas="10")
    for sem in (1, 2):
        WaterDelivery.objects.create(parcel=p, fiscal_year=2026, semester=sem, af_per_acre=Decimal("3"))
    # Created without the form's IRR-4 check (E long before the inclusion), as data moved from another district.
    member = Membership.objects.create(district=irr_roll.district, parcel=p, included_on=date(2026, 10, 15),
                                       gravity_acres=Decimal("10.0000"), free_period_end=date(2001, 5, 10))
    correction = supplements.inclusion_supplement(membership=member, on=date(2026, 10, 20), actor=staff_user)
    # Year ≥ 16: the $15/acre-year schedule binds (share per acre ≫ $15): 75.00 a semester for 10 acres.
    assert [(ln["period"], ln["annual_amount"], ln["months_in_district"], ln["amount"])
            for ln in correction.breakdown["lines"]] == [("FY2027-S1", "75.00", 2, "25.00"),
                                                          ("FY2027-S2", "75.00", 6, "75.00")]
    assert correction.amount == Decimal("100.00")
    rec = correction.receivable
    assert [(i.due_date, i.amount) for i in rec.installments.order_by("seq")] == [
        (date(2026, 11, 19), Decimal("25.00")), (date(2027, 1, 1), Decimal("75.00"))]
    assert rec.source_type == source_type(irr_roll) and rec.creates_lien
    assert Lien.objects.get(origin_id=str(rec.pk)).constituted_on == date(2026, 10, 20)
    # Idempotent: a second run (the hook's task, a redelivery) finds the entry.
    counts = RollCorrection.objects.count(), Receivable.objects.count()
    assert supplements.inclusion_supplement(membership=member, on=date(2026, 11, 1)) == correction
    assert (RollCorrection.objects.count(), Receivable.objects.count()) == counts


def test_inclusion_outside_an_open_roll_year_makes_no_entry(irr_roll, staff_user):
    p = factories.parcel(cadastre="371-045-200-03")
    _member, correction = supplements.parcel_include_midyear(
        district=irr_roll.district, parcel=p, included_on=date(2027, 8, 1), on=date(2027, 8, 1), actor=staff_user,
        gravity_acres=Decimal("4"))
    assert correction is None


def test_inclusion_refuses_a_parcel_already_in_the_district(irr_roll, staff_user):
    with pytest.raises(ValidationError) as exc:
        supplements.parcel_include_midyear(district=irr_roll.district, parcel=Parcel.objects.get(cadastre=PARENT),
                                           included_on=date(2026, 10, 1), on=ON, actor=staff_user)
    assert "ya está incluida" in str(exc.value)


# --- LAJ mid-year inclusion ---------------------------------------------------------------------

def test_laj_inclusion_is_a_zero_entry_with_the_year_liability_starts(laj_roll, staff_user):
    before = _snapshot(laj_roll)
    p = factories.parcel(cadastre="410-010-100-01", municipality="Lajas")
    _member, correction = supplements.parcel_include_midyear(
        district=laj_roll.district, parcel=p, included_on=date(2026, 9, 1), on=ON, actor=staff_user,
        gravity_acres=Decimal("12"), twelve_months_on=date(2027, 3, 1))
    assert (correction.rule, correction.amount, correction.receivable) == ("LAJ-5", Decimal("0.00"), None)
    assert correction.breakdown["contribution_from_fy"] == 2028
    assert correction.breakdown["liable_from"] == "2027-07-01"
    assert _snapshot(laj_roll) == before


# --- segregation --------------------------------------------------------------------------------

def _children(parent_member, cadastres):
    g = parent_member.gravity_acres
    first = (g / 3).quantize(Decimal("0.0001"))
    acres = [first, first, g - 2 * first]
    return [supplements.Child(parcel=factories.parcel(cadastre=c), gravity_acres=a)
            for c, a in zip(cadastres, acres, strict=True)]


def test_irr_split_apportions_open_charges_keeps_lien_date_and_moves_surcharge(irr_roll, staff_user):
    before = _snapshot(irr_roll)
    parent = Parcel.objects.get(cadastre=PARENT)
    member = Membership.objects.get(district=irr_roll.district, parcel=parent)
    rec = Receivable.objects.get(source_type=source_type(irr_roll), source_id=PARENT)
    first = rec.installments.order_by("seq").first()
    # A surcharge already posted on the first installment (as a payment's accrual would post it).
    post([LedgerEntry(account=rec.account, receivable=rec, installment=first, kind=LedgerEntry.Kind.SURCHARGE,
                      component=SURCHARGE, amount=Decimal("1.37"), effective_date=date(2026, 9, 1))])
    open_before = {s.installment.due_date: (s.principal_open, s.surcharge_open)
                   for s in installment_states(rec.account, receivable_ids=[rec.pk])}
    children = _children(member, ["371-045-123-50", "371-045-123-51", "371-045-123-52"])

    done = supplements.parcel_split(district=irr_roll.district, parent=parent, children=children, on=ON,
                                    actor=staff_user)

    parent_entry = next(c for c in done if c.parcel_id == parent.pk)
    child_entries = [c for c in done if c.parcel_id != parent.pk]
    moved = sum(p + s for p, s in open_before.values())
    assert parent_entry.amount == -moved and sum(c.amount for c in child_entries) == moved
    weights = [(c.parcel.cadastre, c.gravity_acres) for c in children]
    for due, (principal, surcharge) in open_before.items():
        expect_p, expect_s = apportion(principal, weights), apportion(surcharge, weights)
        for c in child_entries:
            states = installment_states(c.receivable.account, receivable_ids=[c.receivable.pk])
            got = next(s for s in states if s.installment.due_date == due)   # the parent's due dates are kept
            assert (got.principal_open, got.surcharge_open) == (expect_p[c.parcel.cadastre],
                                                                 expect_s[c.parcel.cadastre])
    rec.refresh_from_db()
    assert rec.status == Receivable.Status.PAID
    assert all(s.open_total == 0 for s in installment_states(rec.account, receivable_ids=[rec.pk]))
    assert Lien.objects.get(origin_id=str(rec.pk)).status == Lien.Status.RELEASED
    for c in child_entries:
        lien = Lien.objects.get(origin_id=str(c.receivable.pk))
        assert (lien.constituted_on, lien.amount, lien.parcel_id) == (date(2026, 7, 1), c.receivable.amount,
                                                                      c.parcel_id)
        assert c.source_parcel_id == parent.pk and c.rule == "IRR-10"
    member.refresh_from_db()
    assert member.excluded_on == ON
    kids = Membership.objects.filter(parcel__in=[c.parcel for c in children])
    assert {(m.included_on, m.free_period_end) for m in kids} == {(member.included_on, member.free_period_end)}
    assert _snapshot(irr_roll) == before

    # Idempotent: the same segregation again changes nothing.
    counts = RollCorrection.objects.count(), Receivable.objects.count(), LedgerEntry.objects.count()
    assert supplements.parcel_split(district=irr_roll.district, parent=parent, children=children, on=ON,
                                    actor=staff_user) == done
    assert (RollCorrection.objects.count(), Receivable.objects.count(), LedgerEntry.objects.count()) == counts


def test_split_refuses_acres_that_do_not_add_up(irr_roll, staff_user):
    parent = Parcel.objects.get(cadastre=PARENT)
    children = [supplements.Child(parcel=factories.parcel(cadastre="371-045-123-60"), gravity_acres=Decimal("1")),
                supplements.Child(parcel=factories.parcel(cadastre="371-045-123-61"), gravity_acres=Decimal("1"))]
    count = LedgerEntry.objects.count()
    with pytest.raises(ValidationError) as exc:
        supplements.parcel_split(district=irr_roll.district, parent=parent, children=children, on=ON,
                                 actor=staff_user)
    assert "gravity_acres" in exc.value.message_dict
    assert LedgerEntry.objects.count() == count
    assert Membership.objects.get(district=irr_roll.district, parcel=parent).excluded_on is None


def test_laj_split_on_a_certified_roll_gets_its_liens_at_finalization(laj_roll, staff_user):
    parent = Parcel.objects.get(cadastre="410-010-000-04")       # 14 gravity + 4 pumped acres
    member = Membership.objects.get(district=laj_roll.district, parcel=parent)
    rec = Receivable.objects.get(source_type=source_type(laj_roll), source_id=parent.cadastre)
    children = [supplements.Child(parcel=factories.parcel(cadastre="410-010-000-40", municipality="Lajas"),
                                  gravity_acres=Decimal("10"), pumped_acres=Decimal("0")),
                supplements.Child(parcel=factories.parcel(cadastre="410-010-000-41", municipality="Lajas"),
                                  gravity_acres=member.gravity_acres - 10, pumped_acres=member.pumped_acres)]
    done = supplements.parcel_split(district=laj_roll.district, parent=parent, children=children,
                                    on=date(2026, 6, 20), actor=staff_user)
    kids = [c for c in done if c.parcel_id != parent.pk]
    # LAJ-2/LAJ-3 weights: gravity + pumped / 2 → 10 and 4 + 4/2 = 6.
    expected = apportion(rec.amount, [("410-010-000-40", Decimal("10")), ("410-010-000-41", Decimal("6"))])
    assert {c.parcel.cadastre: c.amount for c in kids} == expected
    assert sum(c.amount for c in kids) == rec.amount and all(c.rule == "LAJ-6" for c in kids)
    assert not Lien.objects.exists()
    services.roll_finalize(roll=laj_roll, actor=staff_user, on=date(2026, 7, 1))
    liens = {lien.parcel.cadastre: lien for lien in Lien.objects.select_related("parcel")}
    assert parent.cadastre not in liens
    assert {k: liens[k].amount for k in expected} == expected
    assert {liens[k].constituted_on for k in expected} == {date(2026, 7, 1)}


def _laj_version(version: str, effective_from: date, factor: str):
    from core.models import ParameterVersion

    values = {"margin_pct": "2", "reserve_max_pct": "2", "pumped_factor_pct": factor,
              "surcharge_pct_per_month": "0.5", "grace_days": "60"}
    return ParameterVersion.objects.create(family="laj_assessment", version=version, effective_from=effective_from,
                                           citation="Prueba", values=values)


def test_laj_split_weighs_pumped_acres_with_the_factor_the_roll_pinned(lajas_figures, staff_user):
    _laj_version("test-40", date(2026, 1, 1), "40")
    roll = services.roll_generate(district_code="valle-lajas", fiscal_year=2027, actor=staff_user).roll
    services.roll_certify(roll=roll, actor=staff_user, on=date(2026, 6, 15))
    roll.refresh_from_db()
    assert {"family": "laj_assessment", "version": "test-40"}.items() <= next(
        p for p in roll.parameters if p["family"] == "laj_assessment").items()
    # A version entered after the roll was generated does not change what the roll pinned.
    _laj_version("test-60", date(2026, 6, 1), "60")
    parent = Parcel.objects.get(cadastre="410-010-000-04")       # 14 gravity + 4 pumped acres
    member = Membership.objects.get(district=roll.district, parcel=parent)
    rec = Receivable.objects.get(source_type=source_type(roll), source_id=parent.cadastre)
    open_before = {s.installment.due_date: s.principal_open
                   for s in installment_states(rec.account, receivable_ids=[rec.pk])}
    children = [supplements.Child(parcel=factories.parcel(cadastre="410-010-000-40", municipality="Lajas"),
                                  gravity_acres=Decimal("10"), pumped_acres=Decimal("0")),
                supplements.Child(parcel=factories.parcel(cadastre="410-010-000-41", municipality="Lajas"),
                                  gravity_acres=member.gravity_acres - 10, pumped_acres=member.pumped_acres)]

    done = supplements.parcel_split(district=roll.district, parent=parent, children=children,
                                    on=date(2026, 6, 20), actor=staff_user)

    kids = {c.parcel.cadastre: c for c in done if c.parcel_id != parent.pk}
    # LAJ-2/LAJ-3 with the pinned 40 %: 10 and 4 + 4 × 40 % = 5.6 (not 6 at 50 %, nor 6.4 at 60 %).
    weights = [("410-010-000-40", Decimal("10")), ("410-010-000-41", Decimal("5.6"))]
    assert [Decimal(kids[k].breakdown["weight"]) for k, _w in weights] == [w for _k, w in weights]
    assert {k: c.amount for k, c in kids.items()} == apportion(rec.amount, weights)
    assert apportion(rec.amount, weights) != apportion(rec.amount, [weights[0], ("410-010-000-41", Decimal("6"))])
    assert sum(c.amount for c in kids.values()) == rec.amount
    for due, principal in open_before.items():          # each installment's parts add up to the cent
        parts = {k: next(s.principal_open for s in installment_states(c.receivable.account,
                                                                      receivable_ids=[c.receivable.pk])
                         if s.installment.due_date == due) for k, c in kids.items()}
        assert parts == apportion(principal, weights) and sum(parts.values()) == principal


# --- sale ---------------------------------------------------------------------------------------

def test_a_sold_parcel_keeps_its_charges_and_the_buyer_sees_them(irr_roll, staff_user, make_user):
    parcel = Parcel.objects.get(cadastre=PARENT)
    seller_user, buyer_user = make_user("vendedor", "owner"), make_user("compradora", "owner")
    seller = factories.person(given="Luis", user=seller_user)
    buyer = factories.person(given="Marta", first="Colón", user=buyer_user)
    factories.own(parcel, seller)
    rec = Receivable.objects.get(source_type=source_type(irr_roll), source_id=PARENT)
    assert rec.status == Receivable.Status.OPEN

    parcel_sell(actor=staff_user, parcel=parcel, buyers=[(buyer, Decimal("100"))], on=date(2026, 8, 1))

    rec.refresh_from_db()
    assert rec.account.parcel_id == parcel.pk and rec.status == Receivable.Status.OPEN   # the land's account
    account = portal.access_account(buyer_user, rec.account_id)
    assert rec in portal.receivables_open_on(account)
    with pytest.raises(Http404):
        portal.access_account(seller_user, rec.account_id)


# --- staff pages --------------------------------------------------------------------------------

def test_staff_pages_include_and_split(irr_roll, staff_client, auditor_user, client):
    page = staff_client.get(irr_roll.get_absolute_url()).content.decode()
    assert "Incluir parcela a mitad de año" in page and "Segregar parcela" in page
    factories.parcel(cadastre="371-045-200-09")
    response = staff_client.post(f"/padrones/{irr_roll.pk}/incluir/", {
        "cadastre": "371-045-200-09", "included_on": "2026-10-15", "status": "PERMANENT", "gravity_acres": "3",
        "pumped_acres": "0", "free_period_end": "2027-10-15", "credit_pct": "0"})
    assert response.status_code == 302
    assert RollCorrection.objects.filter(parcel__cadastre="371-045-200-09", rule="IRR-5").exists()
    bad = staff_client.post(f"/padrones/{irr_roll.pk}/segregar/", {
        "parent": PARENT, "on": "2026-09-15", "children": "371-045-123-70,1\n999-999-999-99,2"})
    assert bad.status_code == 200 and "999-999-999-99" in bad.content.decode()
    client.logout()
    client.force_login(auditor_user)
    assert client.get(f"/padrones/{irr_roll.pk}/segregar/").status_code == 403


def test_a_late_water_record_of_a_segregated_parent_posts_nothing(irr_roll, staff_user):
    from assessments.rolls import corrections

    parent = Parcel.objects.get(cadastre=PARENT)
    member = Membership.objects.get(district=irr_roll.district, parcel=parent)
    supplements.parcel_split(district=irr_roll.district, parent=parent, on=ON, actor=staff_user,
                             children=_children(member, ["371-045-123-80", "371-045-123-81", "371-045-123-82"]))
    WaterDelivery.objects.filter(parcel=parent, fiscal_year=2026, semester=2).update(af_per_acre=Decimal("0.5"))
    count = RollCorrection.objects.count()
    assert corrections.water_reevaluate(roll=irr_roll, parcel_id=parent.pk, on=date(2026, 10, 1)) is None
    assert corrections.roll_water_reevaluate(roll_id=irr_roll.pk, parcel_ids=[parent.pk], on=date(2026, 10, 1)) == []
    assert RollCorrection.objects.count() == count


def test_a_segregated_child_is_not_billed_again_as_a_mid_year_inclusion(irr_roll, staff_user):
    parent = Parcel.objects.get(cadastre=PARENT)
    member = Membership.objects.get(district=irr_roll.district, parcel=parent)
    children = _children(member, ["371-045-123-50", "371-045-123-51", "371-045-123-52"])
    supplements.parcel_split(district=irr_roll.district, parent=parent, children=children, on=ON, actor=staff_user)
    kid = Membership.objects.get(district=irr_roll.district, parcel=children[0].parcel)
    # As if the parent itself had come in during the roll's year: the membership hook would ask for an inclusion.
    Membership.objects.filter(pk=kid.pk).update(included_on=date(irr_roll.fiscal_year - 1, 9, 1))
    count = RollCorrection.objects.count()
    assert supplements.inclusion_supplement(membership=kid, on=ON, actor=staff_user) is None
    assert RollCorrection.objects.count() == count
