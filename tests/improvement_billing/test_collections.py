"""Collections feed: payments on SID charges → SID-3 batches (5 % retained once per batch, 90-day
remittance); on association-collected TID charges → TID-5 deposits. Idempotent; reversals net."""
import json
from datetime import date
from decimal import Decimal

import pytest
from django.core.management import call_command

from assessments.improvement_billing import services
from assessments.improvement_billing.models import CollectionFeed
from assessments.improvement_billing.tasks import improvement_collections_feed_task
from assessments.ledger.payments import payment_record, payment_return
from assessments.models import Payment, Receivable
from core.models import Clock, Flag
from districts.improvement.models import SidCollectionBatch, TidAccountEntry

from .conftest import TODAY

pytestmark = pytest.mark.django_db


def pay(rec, amount, on, key):
    return payment_record(account=rec.account, amount=Decimal(amount), method=Payment.Method.TRANSFER, paid_on=on,
                          payer="Dueño", idempotency_key=key, batch=None, actor=None, source=Payment.Source.API)


@pytest.fixture
def sid_recs(received, staff_user):
    run = services.improvement_bill(district=received.district, fiscal_year=2027, actor=staff_user, today=TODAY)
    return {r.amount: r for r in Receivable.objects.filter(source_type=run.source_type)}


def test_sid_payments_make_one_batch_per_day(sid_recs, received):
    pay(sid_recs[Decimal("333.33")], "333.33", date(2026, 8, 20), "a")
    pay(sid_recs[Decimal("200.00")], "100.00", date(2026, 8, 20), "b")
    pay(sid_recs[Decimal("100.00")], "100.00", date(2026, 8, 21), "c")
    report = services.collections_feed(on=date(2026, 8, 31))
    assert (report["batches_created"], report["fed"], report["amount"]) == (2, 5, "533.33")  # entries
    first, second = SidCollectionBatch.objects.filter(resolution=received).order_by("received_on")
    # SID-3: 5 % of the batch's total, rounded half-up once (433.33 × 5 % = 21.6665 → 21.67).
    assert (first.collected, first.retained, first.remitted) == (Decimal("433.33"), Decimal("21.67"),
                                                                  Decimal("411.66"))
    assert first.reference == "RECAUDOS-20260820"
    assert first.remittance_due_on == date(2026, 11, 18)   # + 90 days (a Wednesday)
    assert (second.collected, second.retained, second.remitted) == (Decimal("100.00"), Decimal("5.00"),
                                                                     Decimal("95.00"))
    assert Clock.objects.filter(rule="SID-3", object_id=first.pk).count() == 1
    # Idempotent: a second run (the task delivered twice) feeds nothing.
    assert improvement_collections_feed_task("2026-08-31")["fed"] == 0
    assert SidCollectionBatch.objects.filter(resolution=received).count() == 2


def test_a_later_payment_of_the_same_day_extends_the_open_batch(sid_recs, received):
    pay(sid_recs[Decimal("333.33")], "33.33", date(2026, 8, 20), "a")
    services.collections_feed(on=date(2026, 8, 20))
    pay(sid_recs[Decimal("200.00")], "66.67", date(2026, 8, 20), "b")
    report = services.collections_feed(on=date(2026, 8, 20))
    assert report["batches_extended"] == 1
    batch = SidCollectionBatch.objects.get(resolution=received)
    assert (batch.collected, batch.retained, batch.remitted) == (Decimal("100.00"), Decimal("5.00"),
                                                                  Decimal("95.00"))


def test_after_remittance_a_new_batch_of_the_same_day(sid_recs, received, staff_user):
    from districts.improvement import services as improvement

    pay(sid_recs[Decimal("333.33")], "33.33", date(2026, 8, 20), "a")
    services.collections_feed(on=date(2026, 8, 20))
    improvement.sid_batch_remit(actor=staff_user, batch=SidCollectionBatch.objects.get(), remitted_on=date(2026, 9, 1))
    pay(sid_recs[Decimal("200.00")], "20.00", date(2026, 8, 20), "b")
    services.collections_feed(on=date(2026, 9, 2))
    refs = list(SidCollectionBatch.objects.order_by("pk").values_list("reference", "collected"))
    assert refs == [("RECAUDOS-20260820", Decimal("33.33")), ("RECAUDOS-20260820-2", Decimal("20.00"))]


def test_returned_payment_reduces_the_open_batch_or_is_flagged(sid_recs, received):
    p1 = pay(sid_recs[Decimal("333.33")], "100.00", date(2026, 8, 20), "a")
    pay(sid_recs[Decimal("200.00")], "50.00", date(2026, 8, 21), "b")
    services.collections_feed(on=date(2026, 8, 21))
    payment_return(payment=p1, on=date(2026, 8, 21), reason="Transferencia rechazada", actor=None)
    report = services.collections_feed(on=date(2026, 8, 21))
    # The reversal nets against Aug 21's batch: 50.00 − 100.00 < 0 → refused and flagged, not fed.
    assert report["flagged"] == 1 and report["fed"] == 0
    assert Flag.objects.filter(rule="SID-3", resolved_on__isnull=True).count() == 1
    assert CollectionFeed.objects.count() == 2


def test_retention_equals_compute_sid_remittance(sid_recs, received, capsys, tmp_path):
    """The batch's retention and remittance are exactly `manage.py compute sid-remittance`'s."""
    pay(sid_recs[Decimal("333.33")], "333.33", date(2026, 8, 20), "a")
    pay(sid_recs[Decimal("200.00")], "200.00", date(2026, 8, 20), "b")
    pay(sid_recs[Decimal("100.00")], "100.00", date(2026, 8, 20), "c")
    services.collections_feed(on=date(2026, 8, 20))
    batch = SidCollectionBatch.objects.get()
    source = tmp_path / "in.json"
    source.write_text(json.dumps({"collected": str(batch.collected), "received_on": "2026-08-20"}))
    call_command("compute", "sid-remittance", "--input", str(source))
    result = json.loads(capsys.readouterr().out)
    assert (result["collected"], result["retained"], result["remitted"]) == ("633.33", "31.67", "601.66")
    assert (str(batch.collected), str(batch.retained), str(batch.remitted)) == (
        result["collected"], result["retained"], result["remitted"])
    assert batch.retained + batch.remitted == batch.collected


def test_tid_association_collections_become_deposits(tid_in_force, staff_user):
    run = services.improvement_bill(district=tid_in_force.district, fiscal_year=2027, actor=staff_user, today=TODAY)
    recs = {r.amount: r for r in Receivable.objects.filter(source_type=run.source_type)}
    pay(recs[Decimal("3000.00")], "1500.00", date(2026, 9, 1), "t1")
    pay(recs[Decimal("250.00")], "250.00", date(2026, 9, 1), "t2")
    pay(recs[Decimal("150.00")], "150.00", date(2026, 9, 4), "t3")
    report = services.collections_feed(on=date(2026, 9, 30))
    assert report["deposits"] == 2
    deposits = list(TidAccountEntry.objects.filter(ordinance=tid_in_force, kind="DEPOSIT").order_by("entry_date")
                    .values_list("entry_date", "amount"))
    assert deposits == [(date(2026, 9, 1), Decimal("1750.00")), (date(2026, 9, 4), Decimal("150.00"))]
    assert services.collections_feed(on=date(2026, 9, 30))["deposits"] == 0
