"""Export a register table as CSV or XLSX with the import's columns, so the file re-imports as is.

CSV: UTF-8 with a byte-order mark (Excel then shows accents right), comma-separated, dates as
AAAA-MM-DD; a text value a spreadsheet would take for a formula (=, +, -, @) gets a leading "'",
which the import removes. XLSX: one sheet, numbers and dates as real cells, text as text cells
(never formulas).
"""
from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from typing import Any

from core.spreadsheets import neutralize
from districts.imports.columns import ImportKind, get_kind

CSV_TYPE = "text/csv; charset=utf-8"
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
FORMATS = ("csv", "xlsx")


def export_rows(spec: ImportKind, *, template: bool = False, guard_text: bool = True) -> Iterator[list[Any]]:
    """Python values per row; `template` gives no rows. CSV text is guarded against formulas."""
    if template:
        return
    for obj in spec.export_queryset().iterator(chunk_size=2000):
        row = []
        for col in spec.columns:
            value = col.value_of(obj)
            if value is None:
                value = ""
            elif col.is_text:
                value = neutralize(str(value)) if guard_text else str(value)
            row.append(value)
        yield row


def _csv_cell(value: Any) -> str:
    if isinstance(value, Decimal):
        return f"{value:f}"
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def export_csv(kind: str, *, template: bool = False) -> bytes:
    spec = get_kind(kind)
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([c.name for c in spec.columns])
    for row in export_rows(spec, template=template):
        writer.writerow([_csv_cell(v) for v in row])
    return out.getvalue().encode("utf-8-sig")


def export_xlsx(kind: str, *, template: bool = False) -> bytes:
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    spec = get_kind(kind)
    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(title=spec.file_stem[:31])
    sheet.freeze_panes = "A2"
    for i, col in enumerate(spec.columns, start=1):
        sheet.column_dimensions[get_column_letter(i)].width = max(12, min(40, len(col.name) + 4))
    bold = Font(bold=True)
    header = []
    for col in spec.columns:
        cell = WriteOnlyCell(sheet, value=col.name)
        cell.font = bold
        header.append(cell)
    sheet.append(header)
    for row in export_rows(spec, template=template, guard_text=False):
        cells = []
        for value in row:
            cell = WriteOnlyCell(sheet, value=value)
            if isinstance(value, str):
                cell.data_type = "s"  # never a formula
            elif isinstance(value, date):
                cell.number_format = "yyyy-mm-dd"
            cells.append(cell)
        sheet.append(cells)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def export_file(kind: str, fmt: str, *, template: bool = False) -> tuple[bytes, str]:
    """(content, content type) for `fmt` in FORMATS."""
    if fmt == "xlsx":
        return export_xlsx(kind, template=template), XLSX_TYPE
    return export_csv(kind, template=template), CSV_TYPE
