"""The AAA's monthly readings file (FRA-3, sec. 8.14 b): franchise number, month, gallons.

Pure parsing: text in, rows and errors out (row = the line number in the file, the header being
line 1; column = the column's name in the file). Whether the franchise exists, is metered or was
already billed is for the service to check.
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from datetime import date

from django.utils.translation import gettext as _

from core.text import fold

COLUMNS = {
    "franchise": ("franchise_number", "franchise", "franquicia", "numero_de_franquicia", "numero_franquicia",
                  "num_franquicia", "numero"),
    "month": ("month", "mes", "periodo"),
    "gallons": ("gallons", "galones", "gallons_extracted", "galones_extraidos"),
}
_MONTH_ISO = re.compile(r"^(\d{4})-(\d{1,2})(?:-01)?$")
_MONTH_PR = re.compile(r"^(\d{1,2})/(\d{4})$")
_INT = re.compile(r"^\d+$")
_GROUPED = re.compile(r"^\d{1,3}(,\d{3})+$")


@dataclass(frozen=True)
class RowError:
    row: int
    column: str
    value: str
    message: str

    def as_dict(self) -> dict:
        return {"row": self.row, "column": self.column, "value": self.value, "message": self.message}

    def __str__(self) -> str:
        where = _("fila %(row)s") % {"row": self.row}
        if self.column:
            where += _(", columna «%(column)s»") % {"column": self.column}
        shown = f" («{self.value}»)" if self.value else ""
        return f"{where}{shown}: {self.message}"


@dataclass(frozen=True)
class ReadingRow:
    row: int
    number: str
    month: date
    gallons: int
    columns: tuple[str, str, str]  # the file's names for franchise, month, gallons


def _key(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", fold(name or "").strip())


def parse_month(raw: str) -> date | None:
    raw = raw.strip()
    m = _MONTH_ISO.match(raw)
    if m:
        year, month = int(m.group(1)), int(m.group(2))
    elif m := _MONTH_PR.match(raw):
        month, year = int(m.group(1)), int(m.group(2))
    else:
        return None
    if not 1 <= month <= 12 or year < 1900:
        return None
    return date(year, month, 1)


def parse_gallons(raw: str) -> int | None:
    raw = raw.strip()
    if _INT.match(raw):
        return int(raw)
    if _GROUPED.match(raw):
        return int(raw.replace(",", ""))
    return None


def parse(text: str) -> tuple[list[ReadingRow], list[RowError]]:
    """Every data row, or the errors: a missing column, an unreadable month or gallons, a row
    with the wrong number of cells, the same franchise and month twice."""
    text = text.lstrip("\ufeff")
    if not text.strip():
        return [], [RowError(1, "", "", _("El archivo está vacío."))]
    try:
        dialect = csv.Sniffer().sniff(text.splitlines()[0], delimiters=",;\t")
        delimiter = dialect.delimiter
    except csv.Error:
        delimiter = ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    header = next(reader)
    keys = [_key(h) for h in header]
    index: dict[str, int] = {}
    errors: list[RowError] = []
    for what, aliases in COLUMNS.items():
        found = [i for i, k in enumerate(keys) if k in aliases]
        if not found:
            errors.append(RowError(1, aliases[0], "", _("Falta la columna «%(name)s» (o «%(alias)s»).") % {
                "name": aliases[0], "alias": aliases[2]}))
        else:
            index[what] = found[0]
    if errors:
        return [], errors
    names = (header[index["franchise"]].strip(), header[index["month"]].strip(), header[index["gallons"]].strip())
    rows: list[ReadingRow] = []
    seen: dict[tuple[str, date], int] = {}
    for line_no, cells in enumerate(reader, start=2):
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            errors.append(RowError(line_no, "", delimiter.join(cells),
                                   _("Tiene %(cells)s columnas; el encabezado tiene %(header)s.") % {
                                       "cells": len(cells), "header": len(header)}))
            continue
        number = cells[index["franchise"]].strip().upper()
        raw_month, raw_gallons = cells[index["month"]], cells[index["gallons"]]
        ok = True
        if not number:
            errors.append(RowError(line_no, names[0], "", _("Falta el número de franquicia.")))
            ok = False
        month = parse_month(raw_month)
        if month is None:
            errors.append(RowError(line_no, names[1], raw_month.strip(),
                                   _("Mes inválido: use AAAA-MM (p. ej. 2026-10) o MM/AAAA.")))
            ok = False
        gallons = parse_gallons(raw_gallons)
        if gallons is None:
            errors.append(RowError(line_no, names[2], raw_gallons.strip(),
                                   _("Galones inválidos: un número entero no negativo, sin decimales.")))
            ok = False
        if not ok:
            continue
        if (number, month) in seen:
            errors.append(RowError(line_no, names[1], raw_month.strip(),
                                   _("La franquicia %(number)s ya tiene este mes en la fila %(row)s.") % {
                                       "number": number, "row": seen[(number, month)]}))
            continue
        seen[(number, month)] = line_no
        rows.append(ReadingRow(line_no, number, month, gallons, names))
    if not rows and not errors:
        errors.append(RowError(2, "", "", _("El archivo no tiene filas de lecturas.")))
    return rows, errors
