"""Benchmark notice issuing: notices per second per core, on the demo roll.

    # on the seeded PostgreSQL database (make seed with DATABASE_URL set): the figure in the README
    DATABASE_URL=postgres://… .venv/bin/python benchmarks/notices.py --notices 60
    # without DATABASE_URL: a throw-away in-memory SQLite database loaded here
    .venv/bin/python benchmarks/notices.py --notices 40 [--parcels 400]

With DATABASE_URL it uses the seeded demo irrigation roll (the roll with the most charges) and
its notices, numbered by `make seed` and not yet rendered; everything runs in one transaction
that is rolled back at the end and the PDFs go to a temporary media folder, so the database is
left as it was. Without it, it loads the demo register (districts/demo.py) into an in-memory
SQLite database and bills the demo irrigation roll for FY2027 (figures → roll → receivables).

It renders one notice cold (fontconfig, stylesheet, templates), then issues N more the way a
worker's chunk does (services.notices_issue_chunk: number what is missing in one transaction,
then render, store and record each PDF in its own, the collector paused every few notices) and
reports:

  - notices/s per core: N / CPU seconds of this process (the figure for the README: less
    dependent on what else the machine runs than wall time), and wall notices/s;
  - CPU time per notice (mean, median, min), measured notice by notice in a second pass;
  - the CPU time of laying out the same notice's HTML to PDF (WeasyPrint), and, as a yardstick
    measured in the same process, the one-page letter of benchmarks/documents.py.

Asserts nothing. Target: ≥ 8 notices/s per core.
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
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
SEEDED = bool(os.environ.get("DATABASE_URL")) and not os.environ["DATABASE_URL"].startswith("sqlite")
if not SEEDED:
    os.environ["DATABASE_URL"] = "sqlite://:memory:"
os.environ["DJANGO_MEDIA_ROOT"] = tempfile.mkdtemp(prefix="cargos-bench-media-")   # never the real media

import django  # noqa: E402

django.setup()

from django.db import connection, transaction  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402
from django.utils import timezone, translation  # noqa: E402

FIGURES = {"bond_interest": "85000.00", "bond_principal": "150000.00", "bonds_outstanding": "1200000.00",
           "om_cost": "310000.00", "deficit": "12500.00", "surplus": "0.00", "estimated_hydro_income": "60000.00",
           "hydro_retained": "15000.00", "other_income": "4250.00"}
DISTRICT = "riego-costa-sur"


def billed_demo_roll(parcels: int):
    from assessments.rolls import services as rolls
    from assessments.rolls.billing import bill_roll
    from districts.demo import seed_demo
    from districts.models import District

    seed_demo(parcels=parcels, password=os.environ.get("DEMO_PASSWORD") or None)
    district = District.objects.get(code=DISTRICT)
    district.completion_certified_on = date(2000, 1, 1)   # every liable parcel pays (IRR-8 satisfied)
    district.save()
    rolls.figures_save(district=district, fiscal_year=2027, figures=FIGURES, certified_by="DTOP (benchmark)",
                       certified_on=date(2026, 5, 15), actor=None)
    roll = rolls.roll_generate(district_code=DISTRICT, fiscal_year=2027).roll
    # billed directly (roll_certify would bill it too, and number its notices after commit: here the
    # numbering is part of what is measured)
    bill_roll(roll=roll, actor=None, on=date(2026, 7, 1))
    return roll


def layout_only(notice, runs: int) -> list[float]:
    """CPU ms to lay out the same notice's HTML (template + WeasyPrint), without storage or rows."""
    from assessments.notices.context import RenderCache, notice_context
    from assessments.notices.services import STYLESHEET
    from core.documents import pdf as engine
    from core.documents.qr import qr_png_data_uri
    from core.documents.services import DocumentHeader

    code = "ABCD-EFGH-2345"
    url = f"https://cargos.pr.gov/verificar/{code}/"
    cache = RenderCache()
    out = []
    for _ in range(runs):
        start = time.process_time()
        with translation.override("es"):
            header = DocumentHeader(code=code, kind="NOTICE", kind_label="Aviso de cobro", title="Aviso",
                                    issued_at=timezone.now(), verify_url=url,
                                    verify_base_url="https://cargos.pr.gov/verificar/",
                                    qr_data_uri=qr_png_data_uri(url), office_name="", letterhead_src="",
                                    language="es")
            html = render_to_string("notices/notice.html", {**notice_context(notice, cache=cache), "doc": header})
        engine.html_to_pdf(html, stylesheet=STYLESHEET, lean=True)
        out.append((time.process_time() - start) * 1000)
    return out


class Rollback(Exception):
    pass


def seeded_demo_roll_ids() -> tuple[str, list[int]]:
    """The seeded demo irrigation roll (the one with the most charges) and its receivables in
    printing order."""
    from django.db.models import Count

    from assessments.models import Receivable

    top = (Receivable.objects.filter(source_type__startswith="rolls.Roll:").values("source_type")
           .annotate(n=Count("id")).order_by("-n").first())
    if top is None:
        sys.exit("no billed roll in this database: run `make seed` with this DATABASE_URL first")
    ids = list(Receivable.objects.filter(source_type=top["source_type"]).order_by("account__parcel__cadastre", "pk")
               .values_list("pk", flat=True))
    return top["source_type"], ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--notices", type=int, default=40)
    parser.add_argument("--parcels", type=int, default=400, help="SQLite only: demo parcels to load "
                        "(about 40 %% are irrigation)")
    args = parser.parse_args()
    if not SEEDED:   # before the transaction: SQLite cannot migrate inside one
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        with transaction.atomic():
            run(args)
            raise Rollback   # leave the seeded database as it was
    except Rollback:
        pass


def run(args) -> None:
    from assessments.notices import services
    from assessments.notices.context import RenderCache
    from assessments.notices.models import Notice

    started = time.perf_counter()
    if SEEDED:
        label, ids = seeded_demo_roll_ids()
        print(f"seeded database {connection.settings_dict['NAME']} ({connection.vendor}): demo roll {label}, "
              f"{len(ids)} receivables")
    else:
        from assessments.models import Receivable
        from assessments.rolls.billing import source_type

        roll = billed_demo_roll(args.parcels)
        ids = list(Receivable.objects.filter(source_type=source_type(roll)).order_by("account__parcel__cadastre")
                   .values_list("pk", flat=True))
        print(f"in-memory SQLite: demo roll {roll}, {len(ids)} receivables billed in "
              f"{time.perf_counter() - started:.1f} s")
    if len(ids) < 2 * args.notices + 1:
        sys.exit(f"only {len(ids)} receivables: ask for fewer --notices (or more --parcels)")
    # the seeded notices are numbered, not rendered; drop any PDF so every notice is rendered here
    Notice.objects.filter(receivable_id__in=ids).update(document=None)

    cache = RenderCache()
    start = time.perf_counter()
    services.notices_issue_chunk(receivable_ids=ids[:1], actor=None, cache=cache)
    cold = (time.perf_counter() - start) * 1000

    # 1. the worker's chunk, as one block: notices/s per core
    batch = ids[1:args.notices + 1]
    n = len(batch)
    start, start_cpu = time.perf_counter(), time.process_time()
    result = services.notices_issue_chunk(receivable_ids=batch, actor=None, cache=cache)
    wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    pages = list(Notice.objects.filter(receivable_id__in=batch).exclude(status=Notice.Status.REPLACED)
                 .values_list("document__page_count", flat=True))
    assert result.rendered == n == len(pages), (result.rendered, n, len(pages))

    # 2. notice by notice, for the spread
    cpus = []
    for rec_id in ids[args.notices + 1:2 * args.notices + 1]:
        c0 = time.process_time()
        services.notices_issue_chunk(receivable_ids=[rec_id], actor=None, cache=cache)
        cpus.append(time.process_time() - c0)

    layout = layout_only(Notice.objects.get(receivable_id=batch[0]), runs=min(10, n))
    letter = letter_reference(runs=10)
    ms = 1000
    print(f"cold first notice: {cold:.0f} ms")
    print(f"chunk of {n} notices ({sum(pages)} pages, {min(pages)}–{max(pages)} per notice, {result.numbered} "
          f"numbered here): wall {wall:.2f} s, CPU {cpu:.2f} s")
    print(f"per notice CPU (one by one): mean {statistics.mean(cpus) * ms:.0f} ms, median "
          f"{statistics.median(cpus) * ms:.0f} ms, min {min(cpus) * ms:.0f} ms")
    print(f"  of which PDF layout of the notice's HTML: CPU median {statistics.median(layout):.0f} ms, "
          f"min {min(layout):.0f} ms")
    print(f"  reference, the one-page letter of benchmarks/documents.py in this process: CPU median "
          f"{statistics.median(letter):.0f} ms, min {min(letter):.0f} ms (notice/letter: "
          f"{statistics.median(layout) / statistics.median(letter):.2f}× median)")
    print(f"NOTICES/S PER CORE: {n / cpu:.1f} (CPU; {n / wall:.1f}/s wall in one process) · best case "
          f"{1 / min(cpus):.1f}  [target ≥ 8]")
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


def letter_reference(runs: int) -> list[float]:
    """CPU ms of the documents benchmark's one-page letter (the document service's own yardstick)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import documents

    documents.render_pdf_only()
    out = []
    for _ in range(runs):
        start = time.process_time()
        documents.render_pdf_only()
        out.append((time.process_time() - start) * 1000)
    return out


if __name__ == "__main__":
    main()
