"""IRR-8 during the year: a late water record re-evaluates one parcel and posts a new entry, never an edit."""
from datetime import date
from decimal import Decimal

import pytest
from django.db import transaction
from django.test import Client

from assessments.ledger.common import credit_pool, installment_states
from assessments.ledger.payments import payment_record
from assessments.ledger.receivables import account_for_parcel
from assessments.models import LedgerEntry, Receivable
from assessments.rolls import corrections, services
from assessments.rolls.billing import source_type
from assessments.rolls.hooks import PendingReevaluation
from assessments.rolls.models import Roll, RollCorrection, RollLine
from districts.imports.service import import_apply, import_preview
from districts.models import Parcel, WaterDelivery
from liens.models import Lien

pytestmark = pytest.mark.django_db

ON = date(2026, 9, 15)
EXEMPT = "371-045-123-01"     # FY2026-S2 water 1.5 af/acre: both FY2027 semesters exempt (IRR-8 a)
BILLED = "371-045-123-00"     # free period ended 2001: billed in full


@pytest.fixture
def roll(irrigation_figures, staff_user):
    roll = services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll
    services.roll_certify(roll=roll, actor=staff_user, on=date(2026, 6, 15))
    services.roll_finalize(roll=roll, actor=staff_user, on=date(2026, 7, 1))
    roll.refresh_from_db()
    return roll


def _line(roll, cadastre):
    return RollLine.objects.get(roll=roll, cadastre=cadastre)


def _snapshot(roll):
    roll.refresh_from_db()
    return roll.totals, list(RollLine.objects.filter(roll=roll).order_by("pk").values_list("total", "detail"))


def _set_water(cadastre, sem, af):
    WaterDelivery.objects.filter(parcel__cadastre=cadastre, fiscal_year=2026, semester=sem).update(
        af_per_acre=Decimal(af))


def test_late_water_record_bills_the_exempt_parcel_as_a_new_charge(roll, staff_user):
    line = _line(roll, EXEMPT)
    assert line.total == Decimal("0.00")
    assert {d["exempt_reason"] for d in line.detail} == {"WATER_BELOW_MINIMUM"}
    expected = corrections.evaluate_line(roll, line)     # what the engine says once the water is on file
    before = _snapshot(roll)

    _set_water(EXEMPT, 2, "2.4")
    correction = corrections.water_reevaluate(roll=roll, parcel_id=line.parcel_id, on=ON, actor=staff_user)

    after = corrections.evaluate_line(roll, line)
    semester = {p: a.amount for p, a in after.items()}
    assert correction.kind == RollCorrection.Kind.WATER_REEVALUATION and correction.rule == "IRR-8"
    assert correction.amount == sum(semester.values()) > 0
    assert expected != after
    # The S1 amount was due Jul 1 (past): its installment is due 30 days after the correction; S2 keeps Jan 1.
    rec = correction.receivable
    assert rec.source_type == source_type(roll) and rec.fund.code == "riego-bonos"
    assert rec.surcharge_rule == Receivable.SurchargeRule.IRR9
    assert [(i.due_date, i.amount) for i in rec.installments.order_by("seq")] == [
        (date(2026, 10, 15), semester["FY2027-S1"]), (date(2027, 1, 1), semester["FY2027-S2"])]
    assert rec.amount == correction.amount
    # A finalized roll's lien (IRR-10) comes with the new charge, dated the day it is posted (LIEN-1).
    assert Lien.objects.get(origin_id=str(rec.pk)).constituted_on == ON
    assert correction.breakdown["deltas"] == {p: str(a) for p, a in semester.items()}
    assert _snapshot(roll) == before          # the finalized roll itself is untouched


def test_reevaluation_is_idempotent(roll, staff_user):
    line = _line(roll, EXEMPT)
    _set_water(EXEMPT, 2, "2.4")
    first = corrections.water_reevaluate(roll=roll, parcel_id=line.parcel_id, on=ON, actor=staff_user)
    counts = RollCorrection.objects.count(), Receivable.objects.count(), LedgerEntry.objects.count()
    assert corrections.water_reevaluate(roll=roll, parcel_id=line.parcel_id, on=ON, actor=staff_user) is None
    assert corrections.water_reevaluate(roll=roll, parcel_id=line.parcel_id, on=date(2026, 10, 1)) is None
    assert (RollCorrection.objects.count(), Receivable.objects.count(), LedgerEntry.objects.count()) == counts
    assert first.key == "IRR-8#1"


def test_a_corrected_record_that_lowers_the_water_credits_the_roll_charge(roll, staff_user):
    line = _line(roll, BILLED)
    assert line.total > 0
    rec = Receivable.objects.get(source_type=source_type(roll), source_id=BILLED)
    account = rec.account
    before = _snapshot(roll)
    _set_water(BILLED, 2, "1.0")

    correction = corrections.water_reevaluate(roll=roll, parcel_id=line.parcel_id, on=ON, actor=staff_user)

    assert correction.amount == -line.total
    assert correction.receivable is None
    entries = list(correction.entries.order_by("pk"))
    assert {(e.kind, e.component, e.rule) for e in entries} == {("ADJUSTMENT", "PRINCIPAL", "IRR-8")}
    assert sum(e.amount for e in entries) == -line.total
    rec.refresh_from_db()
    assert rec.status == Receivable.Status.PAID     # nothing left open on it
    assert all(s.principal_open == 0 for s in installment_states(account, receivable_ids=[rec.pk]))
    assert _snapshot(roll) == before


def test_a_decrease_on_a_paid_installment_becomes_account_credit(roll, staff_user):
    line = _line(roll, BILLED)
    rec = Receivable.objects.get(source_type=source_type(roll), source_id=BILLED)
    first = rec.installments.order_by("seq").first()
    payment_record(account=rec.account, amount=first.amount, method="CASH", paid_on=date(2026, 7, 1), payer="Dueño",
                   idempotency_key="t-paid-s1", batch=None, actor=staff_user, source="API")
    _set_water(BILLED, 2, "1.0")

    correction = corrections.water_reevaluate(roll=roll, parcel_id=line.parcel_id, on=ON, actor=staff_user)

    credit = [e for e in correction.entries.all() if e.component == LedgerEntry.Component.CREDIT]
    assert [e.amount for e in credit] == [-first.amount]
    assert credit_pool(rec.account) == first.amount
    assert sum(e.amount for e in correction.entries.all()) == -line.total


def test_raising_then_lowering_again_nets_to_zero(roll, staff_user):
    line = _line(roll, EXEMPT)
    _set_water(EXEMPT, 2, "2.4")
    up = corrections.water_reevaluate(roll=roll, parcel_id=line.parcel_id, on=ON, actor=staff_user)
    _set_water(EXEMPT, 2, "1.5")
    down = corrections.water_reevaluate(roll=roll, parcel_id=line.parcel_id, on=date(2026, 9, 20), actor=staff_user)
    assert down.key == "IRR-8#2" and down.amount == -up.amount
    up.receivable.refresh_from_db()
    assert up.receivable.status == Receivable.Status.PAID
    account = account_for_parcel(line.parcel)
    assert sum(s.principal_open for s in installment_states(account)) == 0


def test_a_draft_roll_is_not_corrected(irrigation_figures, staff_user):
    roll = services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll
    _set_water(EXEMPT, 2, "2.4")
    assert corrections.water_reevaluate(roll=roll, parcel_id=_line(roll, EXEMPT).parcel_id, on=ON) is None
    assert RollCorrection.objects.count() == 0


def test_rolls_for_water_covers_the_record_year_and_the_next(roll):
    pid = Parcel.objects.get(cadastre=EXEMPT).pk
    assert corrections.rolls_for_water([pid], [2026]) == {roll.pk: {pid}}
    assert corrections.rolls_for_water([pid], [2027]) == {roll.pk: {pid}}
    assert corrections.rolls_for_water([pid], [2025]) == {}


def _pending():
    """The roll hook's callbacks waiting for the test transaction's commit (which never comes in a test)."""
    return [item[1] for item in transaction.get_connection().run_on_commit
            if isinstance(item[1], PendingReevaluation)]


def test_saving_a_record_queues_the_reevaluation_after_commit(roll):
    record = WaterDelivery.objects.get(parcel__cadastre=EXEMPT, fiscal_year=2026, semester=2)
    record.af_per_acre = Decimal("2.4")
    record.save()
    pending = _pending()
    assert len(pending) == 1 and record.parcel_id in pending[0].water[2026]
    assert not RollCorrection.objects.exists()       # nothing before the commit
    pending[0]()                                     # the commit: the (eager) task runs
    correction = RollCorrection.objects.get(parcel=record.parcel)
    assert correction.amount > 0


def test_a_bulk_import_sends_one_task_per_roll(roll, staff_user, monkeypatch):
    sent = []
    from assessments.rolls import correction_tasks

    monkeypatch.setattr(correction_tasks.roll_water_reevaluate_task, "delay", lambda *a: sent.append(a))
    content = ("catastro,año fiscal,semestre,acre-pies por acre\n"
               + "".join(f"371-045-123-{i:02d},2026,2,2.9\n" for i in range(7))).encode()
    report = import_preview("water", content)
    assert report.is_valid, report.errors
    import_apply("water", content, staff_user, report.sha256)
    pending = _pending()
    assert len(pending) == 1                         # seven rows, one callback
    pending[0]()
    parcel_ids = sorted(Parcel.objects.filter(cadastre__startswith="371-045-123-").values_list("pk", flat=True))
    assert sent == [(roll.pk, parcel_ids)]           # one task for the one roll concerned


def test_the_roll_page_lists_corrections(roll, staff_user, staff_client):
    _set_water(EXEMPT, 2, "2.4")
    correction = corrections.water_reevaluate(roll=roll, parcel_id=_line(roll, EXEMPT).parcel_id, on=ON,
                                              actor=staff_user)
    html = staff_client.get(roll.get_absolute_url()).content.decode()
    assert "Correcciones y suplementos" in html
    assert "IRR-8" in html and correction.receivable.payment_reference in html


def test_api_lists_a_rolls_corrections(roll, staff_user, staff_client, auditor_user, owner_user):
    _set_water(EXEMPT, 2, "2.4")
    correction = corrections.water_reevaluate(roll=roll, parcel_id=_line(roll, EXEMPT).parcel_id, on=ON,
                                              actor=staff_user)
    data = staff_client.get(f"/api/v1/rolls/{roll.pk}/corrections/").json()["results"]
    assert [(c["id"], c["rule"], c["amount"], c["kind"]) for c in data] == [
        (correction.pk, "IRR-8", str(correction.amount), "WATER_REEVALUATION")]
    assert data[0]["payment_reference"] == correction.receivable.payment_reference
    assert Client().get(f"/api/v1/rolls/{roll.pk}/corrections/").status_code in (401, 403)
    owner = Client()
    owner.force_login(owner_user)
    assert owner.get(f"/api/v1/rolls/{roll.pk}/corrections/").status_code == 403
    auditor = Client()
    auditor.force_login(auditor_user)
    assert auditor.get(f"/api/v1/rolls/{roll.pk}/corrections/").status_code == 200
    assert staff_client.get("/api/v1/rolls/999999/corrections/").status_code == 404


def test_roll_status_stays(roll, staff_user):
    _set_water(EXEMPT, 2, "2.4")
    corrections.water_reevaluate(roll=roll, parcel_id=_line(roll, EXEMPT).parcel_id, on=ON, actor=staff_user)
    roll.refresh_from_db()
    assert roll.status == Roll.Status.FINALIZED


def test_a_corrected_first_water_date_is_queued_like_a_water_record(roll):
    from districts.models import Membership

    member = Membership.objects.get(parcel__cadastre=EXEMPT)
    # IRR-8 (b) for a parcel whose first water is recent: only the last semester ended a month before each due.
    member.first_water_on = date(2026, 2, 1)
    member.save()
    pending = _pending()
    assert len(pending) == 1 and member.parcel_id in pending[0].water[2027]
    pending[0]()
    correction = RollCorrection.objects.get(parcel_id=member.parcel_id)
    line = _line(roll, EXEMPT)
    after = corrections.evaluate_line(roll, line)
    # Due Jul 1: FY2026-S1 (2.6) meets the minimum; due Jan 1: FY2026-S2 (1.5) does not.
    assert after["FY2027-S1"].exempt_reason == "" and after["FY2027-S1"].amount > 0
    assert after["FY2027-S2"].exempt_reason == "WATER_BELOW_MINIMUM"
    assert correction.amount == after["FY2027-S1"].amount


def test_a_roll_task_reevaluates_only_the_parcels_that_change(roll, staff_user):
    ids = list(RollLine.objects.filter(roll=roll).values_list("parcel_id", flat=True))
    _set_water(EXEMPT, 2, "2.4")
    done = corrections.roll_water_reevaluate(roll_id=roll.pk, parcel_ids=ids, on=ON)
    assert [c.parcel.cadastre for c in done] == [EXEMPT]
    assert corrections.changed_parcels(roll, corrections.roll_context(roll), ids) == []
    assert corrections.roll_water_reevaluate(roll_id=roll.pk, parcel_ids=ids, on=ON) == []
