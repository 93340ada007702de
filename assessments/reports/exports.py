"""A report as an XLSX workbook (openpyxl; numbers stay numbers) and as an issued PDF (the document
service: letterhead, verification code, stored like every other document — once per report, filters,
office and figures: downloading it again returns the same document)."""
from __future__ import annotations

import dataclasses
import hashlib
import io
import json
from datetime import date
from decimal import Decimal

from django.core.files.storage import default_storage
from django.db import connection, transaction
from django.utils.translation import gettext as _

from assessments.reports.tables import COUNT, DATE, MONEY, NUMBER, PCT, Report, Table
from core.spreadsheets import text_cell

MONEY_FORMAT = "#,##0.00"
PCT_FORMAT = "0.0"
DATE_FORMAT = "DD/MM/YYYY"


def _write_table(ws, table: Table, first_row: int) -> int:
    from openpyxl.styles import Font

    bold = Font(bold=True)
    for col, c in enumerate(table.columns, start=1):
        cell = ws.cell(row=first_row, column=col, value=c.label)
        cell.font = bold
    row = first_row
    for values in table.rows + ([table.total] if table.total else []):
        row += 1
        for col, (c, v) in enumerate(zip(table.columns, values, strict=True), start=1):
            cell = ws.cell(row=row, column=col, value=v)
            text_cell(cell)
            if c.kind == MONEY and isinstance(v, Decimal):
                cell.number_format = MONEY_FORMAT
            elif c.kind == PCT and v is not None:
                cell.number_format = PCT_FORMAT
            elif c.kind == DATE and isinstance(v, date):
                cell.number_format = DATE_FORMAT
            elif c.kind in (COUNT, NUMBER):
                cell.number_format = "0"
            if table.total is values:
                cell.font = bold
    for col, c in enumerate(table.columns, start=1):
        letter = ws.cell(row=first_row, column=col).column_letter
        ws.column_dimensions[letter].width = max(12, min(42, len(c.label) + 4))
    return row


def report_xlsx(report: Report) -> bytes:
    """Title, period and generation date on top; the header row bold; amounts as numbers (0.00)."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    wb = Workbook()
    ws = wb.active
    ws.title = report.slug[:31]
    ws["A1"] = report.title
    ws["A1"].font = Font(bold=True, size=13)
    ws["A2"] = report.period_label + (f" · {report.rules}" if report.rules else "")
    ws["A3"] = _("Generado el %(d)s") % {"d": (report.generated_on or date.today()).strftime("%d/%m/%Y")}
    last = _write_table(ws, report.table, first_row=5)
    for title, table in report.extra_tables:
        ws.cell(row=last + 2, column=1, value=title).font = Font(bold=True)
        last = _write_table(ws, table, first_row=last + 3)
    if report.figures:
        row = last + 2
        for fig in report.figures:
            ws.cell(row=row, column=1, value=fig.label)
            cell = ws.cell(row=row, column=2, value=fig.value)
            if fig.kind == MONEY:
                cell.number_format = MONEY_FORMAT
            row += 1
        last = row
    for i, note in enumerate(report.notes):
        ws.cell(row=last + 1 + i, column=1, value=note)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


REPORT_TEMPLATE = "reports/report_pdf.html"


def report_fingerprint(report: Report, *, filters=None, office=None, language: str = "es") -> str:
    """What makes two PDFs of a report the same document: the report (its slug, filters, office, language)
    and everything it prints — figures, rows, chart, notes and the day it was generated."""
    payload = {"template": REPORT_TEMPLATE, "report": dataclasses.asdict(report),
               "filters": dataclasses.asdict(filters) if filters is not None else None,
               "office": getattr(office, "pk", None), "language": language}
    text = json.dumps(payload, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def report_pdf(report: Report, *, filters=None, office=None, actor=None):
    """The report as an issued PDF document (kind REPORT); returns the core.models.Document.

    Asked again for the same report, filters, office and figures, it returns the document already
    issued (same verification code) instead of storing another; once a figure changes, or on another
    day (the PDF prints the day it was generated), a new document is issued."""
    from core.documents.services import document_render
    from core.models import Document

    fingerprint = report_fingerprint(report, filters=filters, office=office)
    with transaction.atomic():
        _lock(fingerprint)   # two clicks at once: the second waits and finds the first one's document
        existing = (Document.objects.filter(kind=Document.Kind.REPORT, fingerprint=fingerprint)
                    .order_by("-created_at", "-pk").first())
        if existing is not None and existing.file and default_storage.exists(existing.file.name):
            return existing
        title = f"{report.title} — {report.period_label}"[:200]
        document = document_render(template_name=REPORT_TEMPLATE, context={"report": report, "office": office},
                                   kind="REPORT", title=title, actor=actor)
        Document.objects.filter(pk=document.pk).update(fingerprint=fingerprint)
        document.fingerprint = fingerprint
    return document


def _lock(fingerprint: str) -> None:
    """A transaction-scoped PostgreSQL advisory lock on the fingerprint (nothing on other databases)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(bytes.fromhex(fingerprint[:16]), "big",
                                                                            signed=True)])
