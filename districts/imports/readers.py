"""Read an uploaded CSV or XLSX file into (row number, {header: value}) pairs.

Row numbers are the ones a spreadsheet shows: the header is row 1, the first data row is row 2.
Blank rows are skipped (their numbers are not reused). No database access.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from core.uploads import UploadRefused, check_xlsx_archive

MAX_BYTES = 10 * 1024 * 1024
MAX_ROWS = 50_000
XLSX_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0"  # the old binary .xls


class ReaderError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass
class Sheet:
    """A file's header row and its data rows."""

    format: str
    headers: list[str]
    rows: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    def __iter__(self) -> Iterator[tuple[int, dict[str, Any]]]:
        return iter(self.rows)


def detect_format(content: bytes, filename: str = "") -> str:
    name = filename.lower()
    if content.startswith(OLE_MAGIC) or name.endswith(".xls"):
        raise ReaderError(_("El formato .xls (Excel 97–2003) no se admite: guarde el archivo como .xlsx o CSV UTF-8."))
    if content.startswith(XLSX_MAGIC) or name.endswith(".xlsx"):
        return "xlsx"
    return "csv"


def read_sheet(content: bytes, filename: str = "") -> Sheet:
    if len(content) > MAX_BYTES:
        raise ReaderError(_("El archivo pasa de 10 MB; divídalo en partes."))
    if not content.strip():
        raise ReaderError(_("El archivo está vacío."))
    fmt = detect_format(content, filename)
    headers, rows = (read_xlsx if fmt == "xlsx" else read_csv)(content)
    sheet = Sheet(format=fmt, headers=headers)
    for number, values in rows:
        if len(sheet.rows) >= MAX_ROWS:
            raise ReaderError(_("El archivo tiene más de %(n)s filas; divídalo en partes.") % {"n": f"{MAX_ROWS:,}"})
        sheet.rows.append((number, values))
    return sheet


def _rows(headers: list[str], raw_rows: Iterator[tuple[int, list[Any]]]) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, cells in raw_rows:
        if all(c is None or (isinstance(c, str) and not c.strip()) for c in cells):
            continue
        values = {}
        for i, header in enumerate(headers):
            if header:
                values[header] = cells[i] if i < len(cells) else None
        yield number, values


def _headers(cells: list[Any]) -> list[str]:
    headers = ["" if c is None else str(c).strip() for c in cells]
    while headers and not headers[-1]:
        headers.pop()
    if not any(headers):
        raise ReaderError(_("La fila 1 debe tener los nombres de las columnas."))
    return headers


def read_csv(content: bytes) -> tuple[list[str], Iterator[tuple[int, dict[str, Any]]]]:
    """UTF-8, with or without the byte-order mark Excel adds; comma, semicolon or tab separated."""
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ReaderError(_("El archivo no está en UTF-8. En Excel use «Guardar como» → «CSV UTF-8 "
                            "(delimitado por comas)»."))
    first_line = text.split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=first_line.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header_cells = next(reader)
    except StopIteration:
        raise ReaderError(_("El archivo está vacío."))
    except csv.Error as exc:
        raise ReaderError(_("CSV ilegible en la fila 1: %(error)s") % {"error": exc})
    headers = _headers(header_cells)

    def numbered() -> Iterator[tuple[int, list[Any]]]:
        # csv.reader's line_num counts physical lines; a spreadsheet counts records.
        number = 1
        while True:
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                raise ReaderError(_("CSV ilegible en la fila %(row)s: %(error)s") % {"row": number + 1, "error": exc})
            number += 1
            yield number, cells

    return headers, _rows(headers, numbered())


def read_xlsx(content: bytes) -> tuple[list[str], Iterator[tuple[int, dict[str, Any]]]]:
    """The workbook's first sheet, read-only and values only (formulas give their cached result)."""
    from zipfile import BadZipFile

    from openpyxl import load_workbook

    try:
        check_xlsx_archive(content)
    except UploadRefused as exc:
        raise ReaderError(exc.message) from exc
    try:
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except (BadZipFile, KeyError, ValueError, OSError) as exc:
        raise ReaderError(_("No se pudo abrir el archivo XLSX: %(error)s") % {"error": exc})
    try:
        rows = enumerate(workbook.worksheets[0].iter_rows(values_only=True), start=1)
        first = next(rows, None)
        if first is None:
            raise ReaderError(_("El archivo está vacío."))
        headers = _headers(list(first[1]))
        # Streamed, never listed whole: read_sheet stops at MAX_ROWS, and a sheet of a million blank
        # rows stops at MAX_BLANK_RUN instead of being walked to its end.
        data = list(_rows(headers, _bounded((n, list(cells)) for n, cells in rows)))
    finally:
        workbook.close()
    return headers, iter(data)


MAX_BLANK_RUN = 10_000


def _bounded(raw: Iterator[tuple[int, list[Any]]]) -> Iterator[tuple[int, list[Any]]]:
    """Rows up to MAX_ROWS data rows (one more, so read_sheet can say so) and no long blank run."""
    data_rows = blank_run = 0
    for number, cells in raw:
        if all(c is None or (isinstance(c, str) and not c.strip()) for c in cells):
            blank_run += 1
            if blank_run > MAX_BLANK_RUN:
                return
            continue
        blank_run = 0
        data_rows += 1
        yield number, cells
        if data_rows > MAX_ROWS:
            return
