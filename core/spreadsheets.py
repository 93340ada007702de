"""Cells a spreadsheet can never run: every CSV and XLSX the product writes goes through here.

A text cell that begins with =, +, -, @, a tab or a carriage return is read by Excel and
LibreOffice as a formula (`=HYPERLINK(...)` in an owner's name would run on the clerk's machine).
CSV cells get a leading apostrophe, which spreadsheets show as text and the register import
removes; XLSX text cells are written as text cells (never formulas), apostrophe included so a copy
pasted into another sheet stays inert. Numbers, dates and amounts are never touched: a negative
Decimal stays a number.
"""
from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any

FORMULA_CHARS = ("=", "+", "-", "@", "\t", "\r")


def neutralize(value: Any) -> Any:
    """`value` with a leading apostrophe when it is text a spreadsheet would take for a formula."""
    if isinstance(value, str) and value and value[0] in FORMULA_CHARS:
        return f"'{value}"
    return value


class SafeCsvWriter:
    """`csv.writer` whose rows are neutralized cell by cell."""

    def __init__(self, stream, **kwargs):
        self._writer = csv.writer(stream, **kwargs)

    def writerow(self, row: Iterable[Any]):
        return self._writer.writerow([neutralize(v) for v in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_writer(stream, **kwargs) -> SafeCsvWriter:
    return SafeCsvWriter(stream, **kwargs)


def text_cell(cell) -> None:
    """Make an openpyxl cell holding text a plain string cell, never a formula."""
    if isinstance(cell.value, str):
        cell.value = neutralize(cell.value)
        cell.data_type = "s"


def write_only_row(sheet, values: Iterable[Any]) -> list:
    """Cells for `sheet.append` on a write-only sheet: text as string cells, neutralized."""
    from openpyxl.cell import WriteOnlyCell

    cells = []
    for value in values:
        cell = WriteOnlyCell(sheet, value=neutralize(value))
        if isinstance(value, str):
            cell.data_type = "s"
        cells.append(cell)
    return cells
