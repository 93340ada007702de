"""Delinquency aging at scale on PostgreSQL: `aging_summary` and `delinquent_accounts` timings.

Usage (after benchmarks/roll_certify.py has billed the same district):
  DATABASE_URL=postgres://postgres@127.0.0.1:5432/cargos_bench .venv/bin/python benchmarks/aging.py --parcels 100000

It reads the charges of the synthetic district `bench-N`, counts the open installments past due on
the as-of date (every installment of the FY2027 roll is past due on 2028-01-01) and times each
query a few times (best and median). Not part of the test suite.
"""
import argparse
import statistics
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from django.db import connection  # noqa: E402
from roll_db import peak_mb  # noqa: E402  (sets up Django)

from assessments.ledger import aging  # noqa: E402
from districts.models import District  # noqa: E402


def timed(fn, runs: int):
    times, result = [], None
    for _ in range(runs):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return result, min(times), statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--parcels", type=int, default=100000)
    ap.add_argument("--as-of", default="2028-01-01")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("Run it on PostgreSQL: set DATABASE_URL=postgres://…")
    district = District.objects.filter(code=f"bench-{args.parcels}").first()
    if district is None:
        sys.exit("No benchmark district: run benchmarks/roll_certify.py with the same --parcels first.")
    as_of = date.fromisoformat(args.as_of)
    with connection.cursor() as cur:
        cur.execute("ANALYZE")
    filters = {"as_of": as_of, "district_id": district.pk}
    summary, best, median = timed(lambda: aging.aging_summary(**filters), args.runs)
    count, c_best, _c = timed(lambda: aging.delinquent_count(**filters), args.runs)
    rows, n_best, n_median = timed(lambda: aging.delinquent_accounts(**filters), 2)
    installments = sum(r.installments for r in rows)
    print(f"open past-due installments: {installments:,} on {count:,} accounts, total "
          f"${aging.summary_total(summary):,.2f}")
    print(f"aging_summary (district filter): best {best * 1000:.0f} ms, median {median * 1000:.0f} ms")
    _s, all_best, all_median = timed(lambda: aging.aging_summary(as_of=as_of), args.runs)
    print(f"aging_summary (no filter): best {all_best * 1000:.0f} ms, median {all_median * 1000:.0f} ms")
    _p, p_best, p_median = timed(lambda: aging.delinquent_accounts(**filters, limit=50, offset=100), args.runs)
    print(f"page of 50 accounts (LIMIT/OFFSET, with owners): best {p_best * 1000:.0f} ms, median "
          f"{p_median * 1000:.0f} ms; count of accounts: best {c_best * 1000:.0f} ms")
    def page_queries():
        summary_, count_ = aging.aging_overview(**filters)
        return aging.DelinquentRows(count=count_, **filters)[100:150]

    _q, q_best, q_median = timed(page_queries, args.runs)
    print(f"the page's queries (overview with count + one page of 50): best {q_best * 1000:.0f} ms, "
          f"median {q_median * 1000:.0f} ms")
    print(f"every account (the export): best {n_best * 1000:.0f} ms, median {n_median * 1000:.0f} ms; "
          f"peak RSS {peak_mb():.0f} MB")

if __name__ == "__main__":
    main()
