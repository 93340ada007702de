"""With a real worker: the notices of a 200-parcel roll are produced exactly once, however many
times the fan-out is delivered, and the run ends in one mailing batch with its print-ready PDF."""
import os
import re
import time
from datetime import date
from decimal import Decimal

import pytest

from assessments.models import Receivable
from assessments.notices.models import MailingBatch, Notice
from assessments.notices.tasks import notices_issue_for_source_task
from assessments.rolls.billing import bill_roll, source_type
from assessments.rolls.models import CertifiedFigures, Roll
from assessments.rolls.services import roll_generate
from core.models import Document
from districts.models import Membership, Municipality, Ownership, Parcel, Party
from tests import factories
from tests.conftest import IN_CI
from tests.rolls.conftest import IRR_FIGURES

# Skipped before any database work when PostgreSQL and Redis are not configured, so the empty
# transactional test leaves no flushed database behind on SQLite (under CI the fixture fails instead).
READY = os.environ.get("DATABASE_URL", "").startswith("postgres") and bool(os.environ.get("REDIS_URL"))
pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True, serialized_rollback=True),
              pytest.mark.skipif(not READY and not IN_CI, reason="needs PostgreSQL and Redis: DATABASE_URL, REDIS_URL")]
N = int(os.environ.get("NOTICES_WORKER_PARCELS", "200"))


def _roll_of(n: int) -> Roll:
    district = factories.district()
    district.completion_certified_on = date(1990, 1, 1)   # IRR-8's water minimum no longer applies
    district.save()
    muni = Municipality.objects.get(name="Juana Díaz")
    Parcel.objects.bulk_create([Parcel(cadastre=f"7{i // 1000:02d}-{i % 1000:03d}-000-01", municipality=muni,
                                       area_value=Decimal("3.5"), location="Carr. 149") for i in range(n)])
    parcels = list(Parcel.objects.filter(cadastre__startswith="7").order_by("cadastre"))
    home = factories.person()
    parties = Party.objects.bulk_create([Party(kind="PERSON", given_names=f"Dueño {i}", first_surname="Prueba",
                                               address_municipality_id=home.address_municipality_id,
                                               address_street="Calle Sol", address_number=str(i),
                                               address_zip="00795") for i in range(n)])
    Ownership.objects.bulk_create([Ownership(parcel=p, party=o, start_date=date(2001, 1, 1))
                                   for p, o in zip(parcels, parties, strict=True)])
    Membership.objects.bulk_create([Membership(district=district, parcel=p, included_on=date(1990, 1, 1),
                                               gravity_acres=Decimal("3.4"), free_period_end=date(2001, 5, 10))
                                    for p in parcels])
    CertifiedFigures.objects.create(district=district, fiscal_year=2027, figures=IRR_FIGURES, certified_by="DTOP",
                                    certified_on=date(2026, 5, 1))
    roll = roll_generate(district_code=district.code, fiscal_year=2027).roll
    bill_roll(roll=roll, actor=None, on=date(2026, 7, 1))
    return roll


def _wait(predicate, seconds, what):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_200_parcel_roll_gets_its_notices_exactly_once(celery_worker_process):
    roll = _roll_of(N)
    st = source_type(roll)
    assert Receivable.objects.filter(source_type=st).count() == N

    celery_worker_process.send(notices_issue_for_source_task, st)
    celery_worker_process.send(notices_issue_for_source_task, st)     # delivered twice

    _wait(lambda: MailingBatch.objects.filter(source_type=st, pdf_built_at__isnull=False).exists(), 1800,
          "the notices and their mailing batch")
    # the second fan-out sent its own chunk for the same receivables (and Redis redelivers a long chunk
    # whose visibility timeout ran out): every later run of a chunk must find nothing to do
    _wait(lambda: len(re.findall(r"notices_issue_chunk_task\[[^\]]+\] succeeded", celery_worker_process.log())) >= 2,
          300, "both chunks")
    time.sleep(5)

    notices = Notice.objects.filter(source_type=st)
    assert notices.count() == N
    assert notices.filter(document__isnull=False).count() == N
    assert Document.objects.filter(kind="NOTICE").count() == N
    assert sorted(notices.values_list("seq", flat=True)) == list(range(1, N + 1))   # gapless, once
    assert notices.values("receivable_id").distinct().count() == N
    batch = MailingBatch.objects.get(source_type=st)
    assert batch.notice_count == N and batch.page_count == sum(notices.values_list("document__page_count", flat=True))
    assert MailingBatch.objects.count() == 1
