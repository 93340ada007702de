"""Benchmark one-page document rendering (core.documents): milliseconds per render.

    .venv/bin/python benchmarks/documents.py [--runs 20]

Measures, after one cold render (fontconfig start-up, stylesheet parsing):
  - pdf:   the template rendered to HTML and laid out to PDF (core.documents.pdf.html_to_pdf)
  - issue: the whole service, document_render: code, QR, HTML, PDF, sha256, storage, rows, audit
           (on a throw-away in-memory SQLite database and a temporary media folder)
Prints the average wall time over the warm runs (median, min, max) and the average CPU time of
this process (a truer figure on a busy machine). Asserts nothing. Target: ~100 ms.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
os.environ["DATABASE_URL"] = "sqlite://:memory:"
os.environ.setdefault("DJANGO_MEDIA_ROOT", tempfile.mkdtemp(prefix="cargos-bench-media-"))

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402
from django.utils import timezone, translation  # noqa: E402

from core.documents import pdf as pdf_engine  # noqa: E402
from core.documents.qr import qr_svg_data_uri  # noqa: E402
from core.documents.services import DocumentHeader, document_render  # noqa: E402

OFFICE = SimpleNamespace(name="Servicio de Riego — Región Sur", phone="787-555-0100", email="riego.sur@pr.gov",
                         address_lines=["PO Box 331234", "Ponce PR 00733"], letterhead=None)
RECIPIENT = SimpleNamespace(display_name="José Ramón Rodríguez Núñez",
                            address_lines=["Urb. Villa del Carmen", "2154 Calle Salamanca", "Ponce PR 00716"])
CONTEXT = {
    "office": OFFICE, "recipient": RECIPIENT, "references": [("Catastro", "371-045-123-07"), ("Año fiscal", "2027")],
    "subject": "Cuota de riego del año fiscal 2027", "salutation": "Estimado dueño:",
    "paragraphs": ["Conforme a la ley, el Secretario de Hacienda ha fijado la cuota anual de riego de la parcela."] * 3,
    "lines": [{"description": "Primer semestre", "amount": Decimal("184.37")},
              {"description": "Segundo semestre", "amount": Decimal("184.38")}],
    "total": Decimal("368.75"), "closing": "Atentamente,",
    "signatory": {"name": "Lcda. María del Carmen Ortiz", "title": "Directora"},
}
TEMPLATE = "documents/letter.html"


def render_pdf_only() -> int:
    code = "ABCD-EFGH-2345"
    url = f"https://cargos.pr.gov/verificar/{code}/"
    with translation.override("es"):
        header = DocumentHeader(code=code, kind="NOTICE", kind_label="Aviso de cobro", title="Aviso de cuota de riego",
                                issued_at=timezone.now(), verify_url=url, verify_base_url="https://cargos.pr.gov/verificar/",
                                qr_data_uri=qr_svg_data_uri(url), office_name=OFFICE.name, letterhead_src="",
                                language="es")
        html = render_to_string(TEMPLATE, {**CONTEXT, "doc": header})
    return pdf_engine.html_to_pdf(html).page_count


def render_issue() -> int:
    return document_render(template_name=TEMPLATE, context=CONTEXT, kind="NOTICE",
                           title="Aviso de cuota de riego — año fiscal 2027").page_count


def bench(name: str, fn, runs: int) -> None:
    start = time.perf_counter()
    pages = fn()
    cold = (time.perf_counter() - start) * 1000
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    print(f"{name:6s} pages={pages}  cold {cold:7.1f} ms  |  warm x{runs}: avg {statistics.mean(wall):6.1f} ms  "
          f"(median {statistics.median(wall):6.1f}, min {min(wall):6.1f}, max {max(wall):6.1f}; "
          f"CPU avg {statistics.mean(cpu):6.1f} ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    bench("pdf", render_pdf_only, args.runs)
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    bench("issue", render_issue, args.runs)


if __name__ == "__main__":
    main()
