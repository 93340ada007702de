"""Roll generation at scale on PostgreSQL: parcels/s and peak memory, beside a plain COPY of as many rows.

Usage:
  DATABASE_URL=postgres://postgres@127.0.0.1:5432/cargos_bench .venv/bin/python benchmarks/roll_db.py --parcels 100000

It creates (once per size) a synthetic bonded irrigation district `bench-N` with N parcels written by
COPY, then times `roll_generate` for it. Not part of the test suite.
"""
import argparse
import io
import os
import resource
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

import django  # noqa: E402

django.setup()

from django.db import connection, transaction  # noqa: E402

from assessments.rolls import services  # noqa: E402
from assessments.rolls.models import Roll  # noqa: E402
from districts.models import District, Membership, Municipality, Office, Parcel  # noqa: E402

FIGURES = {"bond_interest": "8500000.00", "bond_principal": "15000000.00", "bonds_outstanding": "120000000.00",
           "om_cost": "31000000.00", "deficit": "0.00", "surplus": "0.00", "estimated_hydro_income": "600000.00",
           "hydro_retained": "150000.00", "other_income": "42500.00"}


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def copy_rows(table: str, columns: list[str], rows) -> None:
    buf = io.StringIO()
    for row in rows:
        buf.write("\t".join("\\N" if v is None else str(v) for v in row) + "\n")
    buf.seek(0)
    with connection.cursor() as cur, cur.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        while chunk := buf.read(1 << 20):
            copy.write(chunk)


def build_district(n: int) -> District:
    code = f"bench-{n}"
    existing = District.objects.filter(code=code).first()
    if existing:
        return existing
    office = Office.objects.get_or_create(name="Servicio de Riego (benchmark)", defaults={"kind": "IRRIGATION"})[0]
    district = District.objects.create(code=code, kind="IRRIGATION", name=f"Benchmark {n:,}", office=office)
    muni = Municipality.objects.get(name="Juana Díaz")
    start = Parcel.objects.count()
    with transaction.atomic():
        copy_rows(Parcel._meta.db_table,
                  ["cadastre", "municipality_id", "barrio", "location", "area_value", "area_unit", "assessed_value",
                   "use_class", "frontage_m", "is_public_land", "search_text", "created_at", "updated_at"],
                  ((f"9{(start + i) // 1000000 % 100:02d}-{(start + i) // 1000 % 1000:03d}-{(start + i) % 1000:03d}-"
                    f"{n % 100:02d}", muni.pk, "", "", f"{1 + i % 50}.2500", "CUERDAS", "1000.00", "AGRICULTURAL",
                    "0", "f", "", "2026-01-01 00:00:00+00", "2026-01-01 00:00:00+00") for i in range(n)))
        ids = list(Parcel.objects.filter(cadastre__endswith=f"-{n % 100:02d}", cadastre__startswith="9")
                   .order_by("-id").values_list("id", flat=True)[:n])
        ends = [date(2001, 5, 10), date(2024, 9, 20), date(2026, 10, 15), None, date(2011, 8, 1)]
        copy_rows(Membership._meta.db_table,
                  ["district_id", "parcel_id", "included_on", "status", "gravity_acres", "pumped_acres",
                   "free_period_end", "credit_pct", "created_at", "updated_at"],
                  ((district.pk, pid, "1990-01-01", "PERMANENT", f"{1 + pid % 40}.5000", "0",
                    ends[pid % 5], "0", "2026-01-01 00:00:00+00", "2026-01-01 00:00:00+00") for pid in ids))
    return district


def plain_copy(n: int) -> float:
    with connection.cursor() as cur:
        cur.execute("CREATE TEMP TABLE bench_copy (a bigint, b bigint, c text, d numeric, e numeric, f numeric, "
                    "g numeric, h text, i jsonb)")
    t = time.perf_counter()
    copy_rows("bench_copy", list("abcdefghi"),
              ((1, i, f"000-000-{i:09d}", "1.2500", "10.00", "0", "10.00", "",
                '[{"period": "FY2027-S1", "amount": "5.00"}]') for i in range(n)))
    elapsed = time.perf_counter() - t
    with connection.cursor() as cur:
        cur.execute("DROP TABLE bench_copy")
    return elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--parcels", type=int, default=100000)
    args = ap.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("Run it on PostgreSQL: set DATABASE_URL=postgres://…")
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    t = time.perf_counter()
    district = build_district(args.parcels)
    print(f"register ready ({args.parcels:,} parcels) in {time.perf_counter() - t:.1f} s")
    from assessments.rolls.models import CertifiedFigures, RollLine

    # Delete a previous run's roll in SQL (a cascading ORM delete would load its lines into memory).
    RollLine.objects.filter(roll__district=district)._raw_delete(RollLine.objects.db)
    Roll.objects.filter(district=district).delete()
    CertifiedFigures.objects.update_or_create(district=district, fiscal_year=2027, defaults={
        "figures": FIGURES, "certified_by": "benchmark", "certified_on": date(2026, 5, 1)})
    base_mem = peak_mb()
    t = time.perf_counter()
    cpu = time.process_time()
    outcome = services.roll_generate(district_code=district.code, fiscal_year=2027)
    wall, cpu = time.perf_counter() - t, time.process_time() - cpu
    print(f"roll_generate: {outcome.roll.line_count:,} lines in {wall:.1f} s wall ({cpu:.1f} s CPU in Python), "
          f"{outcome.roll.line_count / wall:,.0f} parcels/s, peak RSS {peak_mb():.0f} MB (before: {base_mem:.0f} MB)")
    copy_s = plain_copy(args.parcels)
    print(f"plain COPY of {args.parcels:,} rows of the same shape: {copy_s:.1f} s "
          f"({args.parcels / copy_s:,.0f} rows/s)")


if __name__ == "__main__":
    main()
