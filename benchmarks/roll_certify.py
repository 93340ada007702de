"""Certifying (and billing) a large roll on PostgreSQL: lines/s and peak memory.

Usage:
  DATABASE_URL=postgres://postgres@127.0.0.1:5432/cargos_bench .venv/bin/python benchmarks/roll_certify.py \
      --parcels 100000

It reuses benchmarks/roll_db.py's synthetic district `bench-N` (created once per size), generates
its draft roll (a certified one from an earlier run is dropped with its charges first) and times
`roll_certify` with its progress line — the same service the Celery task runs. The notices that
certification schedules after commit are not issued here (that is the notices benchmark's work).
Not part of the test suite.
"""
import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from django.db import connection, transaction  # noqa: E402
from roll_db import FIGURES, build_district, peak_mb  # noqa: E402  (sets up Django)

from assessments.rolls import services  # noqa: E402
from assessments.rolls.models import Roll, RollJob  # noqa: E402
from districts.models import District  # noqa: E402


def drop_previous(district) -> None:
    """A benchmark database only: delete an earlier run's roll, charges and ledger rows in SQL
    (the database's guards of the money are lifted for the DELETEs and put back)."""
    from assessments.ledger.guard import guard_install, guard_remove
    from assessments.models import Installment, LedgerEntry, Receivable
    from assessments.rolls.billing import source_type
    from assessments.rolls.models import CertifiedFigures, RollLine

    with transaction.atomic():
        for roll in Roll.objects.filter(district=district):
            receivables = Receivable.objects.filter(source_type=source_type(roll))
            guard_remove(connection)  # every guard of the money, put back below
            LedgerEntry.objects.filter(receivable__in=receivables)._raw_delete(LedgerEntry.objects.db)
            Installment.objects.filter(receivable__in=receivables)._raw_delete(Installment.objects.db)
            from assessments.notices.models import Notice
            Notice.objects.filter(receivable__in=receivables).delete()
            receivables._raw_delete(Receivable.objects.db)
            RollLine.objects.filter(roll=roll)._raw_delete(RollLine.objects.db)
            roll.delete()
            guard_install(connection)
        CertifiedFigures.objects.update_or_create(district=district, fiscal_year=2027, defaults={
            "figures": FIGURES, "certified_by": "benchmark", "certified_on": "2026-05-01"})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--parcels", type=int, default=100000)
    args = ap.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("Run it on PostgreSQL: set DATABASE_URL=postgres://…")
    from django.core.management import call_command

    from assessments.notices import services as notice_services

    call_command("migrate", verbosity=0)
    district = build_district(args.parcels)
    # The synthetic register has no water deliveries: with the works certified complete IRR-8 does
    # not apply, so every line outside its free period has something to bill.
    District.objects.filter(pk=district.pk).update(completion_certified_on="2000-01-01")
    drop_previous(district)
    roll = services.roll_generate(district_code=district.code, fiscal_year=2027).roll
    from assessments.rolls.billing import billable_lines

    print(f"draft roll ready: {roll.line_count:,} lines, {billable_lines(roll).count():,} with something to bill")
    notice_services.notices_schedule_after_commit = lambda **kwargs: None   # see the docstring
    job = RollJob.objects.create(district=district, fiscal_year=2027, operation="certify")

    def echo(done, total):
        sys.stderr.write(f"\r  {done:,}/{total:,} líneas facturadas ({100 * done // max(total, 1)} %)")
        sys.stderr.flush()

    base_mem = peak_mb()
    t, cpu = time.perf_counter(), time.process_time()
    outcome = services.roll_certify(roll=roll, actor=None, job=job, echo=echo)
    wall, cpu = time.perf_counter() - t, time.process_time() - cpu
    sys.stderr.write("\n")
    job.refresh_from_db()
    print(f"roll_certify: {job.total:,} lines billed in {wall:.1f} s wall ({cpu:.1f} s CPU in Python), "
          f"{job.total / wall:,.0f} lines/s, peak RSS {peak_mb():.0f} MB (before: {base_mem:.0f} MB); "
          f"job {job.status}: {outcome.message}")


if __name__ == "__main__":
    main()
