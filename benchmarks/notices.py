"""Benchmark notice issuing: notices per second per core, on a demo roll.

    .venv/bin/python benchmarks/notices.py --notices 40 [--parcels 400]

On a throw-away in-memory SQLite database and a temporary media folder it loads the demo register
(districts/demo.py), bills the demo irrigation roll for FY2027 (figures → roll → receivables),
renders one notice cold (fontconfig, stylesheet, templates), then issues N more the way a worker's
chunk does (numbering in one transaction, then each PDF rendered, stored and recorded in its own)
and reports:

  - CPU time per notice (mean, median, min), notices/s (wall, one process) and notices/s per core
    (N / CPU seconds: less dependent on what else the machine runs);
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
os.environ["DATABASE_URL"] = "sqlite://:memory:"
os.environ.setdefault("DJANGO_MEDIA_ROOT", tempfile.mkdtemp(prefix="cargos-bench-media-"))

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
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
    from core.documents import pdf as engine
    from core.documents.qr import qr_svg_data_uri
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
                                    qr_data_uri=qr_svg_data_uri(url), office_name="", letterhead_src="",
                                    language="es")
            html = render_to_string("notices/notice.html", {**notice_context(notice, cache=cache), "doc": header})
        engine.html_to_pdf(html)
        out.append((time.process_time() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--notices", type=int, default=40)
    parser.add_argument("--parcels", type=int, default=400, help="demo parcels to load (about 40 %% are irrigation)")
    parser.add_argument("--gc-freeze", action="store_true", help="gc.freeze() after loading (what a worker can do)")
    args = parser.parse_args()

    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    from assessments.models import Receivable
    from assessments.notices import services
    from assessments.notices.context import RenderCache
    from assessments.notices.models import Notice
    from assessments.rolls.billing import source_type

    started = time.perf_counter()
    roll = billed_demo_roll(args.parcels)
    ids = list(Receivable.objects.filter(source_type=source_type(roll)).order_by("account__parcel__cadastre")
               .values_list("pk", flat=True))
    print(f"demo roll {roll}: {len(ids)} receivables billed in {time.perf_counter() - started:.1f} s")
    if len(ids) < args.notices + 1:
        sys.exit(f"only {len(ids)} receivables: raise --parcels")

    if args.gc_freeze:
        import gc

        gc.collect()
        gc.freeze()
    cache = RenderCache()
    start = time.perf_counter()
    services.notices_issue_chunk(receivable_ids=ids[:1], actor=None, cache=cache)
    cold = (time.perf_counter() - start) * 1000

    batch = ids[1:args.notices + 1]
    n = len(batch)
    start, start_cpu = time.perf_counter(), time.process_time()
    numbered = services.notices_number(receivable_ids=batch, actor=None)     # what a chunk does first
    number_wall = time.perf_counter() - start
    walls, cpus = [], []
    for notice in sorted(numbered, key=lambda x: x.seq):                      # then each PDF on its own
        t0, c0 = time.perf_counter(), time.process_time()
        services.notice_render(notice=notice, actor=None, cache=cache)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    pages = list(Notice.objects.filter(receivable_id__in=batch).values_list("document__page_count", flat=True))
    assert len(numbered) == n == len(pages), (len(numbered), n, len(pages))

    layout = layout_only(Notice.objects.get(receivable_id=batch[0]), runs=min(10, n))
    letter = letter_reference(runs=10)
    ms = 1000
    print(f"cold first notice: {cold:.0f} ms")
    print(f"{n} notices ({sum(pages)} pages, {min(pages)}–{max(pages)} per notice): numbering "
          f"{number_wall * ms:.0f} ms, total wall {wall:.2f} s, CPU {cpu:.2f} s")
    print(f"per notice CPU: mean {statistics.mean(cpus) * ms:.0f} ms, median {statistics.median(cpus) * ms:.0f} ms, "
          f"min {min(cpus) * ms:.0f} ms (wall median {statistics.median(walls) * ms:.0f} ms)")
    print(f"  of which PDF layout of the notice's HTML: CPU median {statistics.median(layout):.0f} ms, "
          f"min {min(layout):.0f} ms")
    print(f"  reference, the one-page letter of benchmarks/documents.py in this process: CPU median "
          f"{statistics.median(letter):.0f} ms, min {min(letter):.0f} ms (notice/letter: "
          f"{statistics.median(layout) / statistics.median(letter):.2f}× median, {min(layout) / min(letter):.2f}× min)")
    print(f"notices/s: {n / wall:.1f} wall (one process) · {n / cpu:.1f} per core (CPU) · best case "
          f"{1 / min(cpus):.1f} per core  [target ≥ 8]")
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
