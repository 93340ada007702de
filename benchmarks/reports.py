"""Time each office report (assessments.reports) on a seeded database: build (queries → table →
chart), XLSX and PDF (issued through the document service), in milliseconds.

    DATABASE_URL=postgres://… .venv/bin/python benchmarks/reports.py [--runs 5] [--start 2025-07-01] [--end 2026-12-01]

Run it on the demo data (`make seed` or the seed_* commands). PDF runs write documents into a
transaction that is rolled back, so the database is left as it was. Asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
os.environ.setdefault("DJANGO_MEDIA_ROOT", tempfile.mkdtemp(prefix="cargos-bench-media-"))

import django  # noqa: E402

django.setup()

from django.db import transaction  # noqa: E402

from assessments.reports import catalog, exports  # noqa: E402


def _ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--start", type=date.fromisoformat, default=date(2025, 7, 1))
    ap.add_argument("--end", type=date.fromisoformat, default=date.today())
    args = ap.parse_args()
    f = catalog.Filters(start=args.start, end=args.end, group="month")
    print(f"{'report':24} {'rows':>5} {'build ms':>9} {'xlsx ms':>8} {'pdf ms':>8}")
    for slug in catalog.REPORTS:
        report = catalog.build(slug, f)          # warm-up (and the row count)
        build = _ms(lambda s=slug: catalog.build(s, f), args.runs)
        xlsx = _ms(lambda r=report: exports.report_xlsx(r), args.runs)
        with transaction.atomic():
            exports.report_pdf(report)           # first PDF pays WeasyPrint's start-up
            pdf = _ms(lambda r=report: exports.report_pdf(r), args.runs)
            transaction.set_rollback(True)
        print(f"{slug:24} {len(report.table.rows):>5} {build:>9.0f} {xlsx:>8.0f} {pdf:>8.0f}")


if __name__ == "__main__":
    main()
