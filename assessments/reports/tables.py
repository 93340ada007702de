"""The shape every report takes on screen, in the PDF and in the XLSX: columns, rows, a total row.

Money cells are Decimals (never float); the total row is the column sums of the rows, computed here
once so the page, the PDF and the spreadsheet all show the same figures to the cent.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from core.money import ZERO, round_half_up

TEXT, MONEY, COUNT, DATE, PCT = "text", "money", "count", "date", "pct"
NUMBER = "number"      # a figure shown right-aligned but never summed (days late)
SUMMABLE = (MONEY, COUNT)


@dataclass(frozen=True)
class Column:
    label: str
    kind: str = TEXT


@dataclass
class Table:
    columns: list[Column]
    rows: list[list]
    total_label: str = ""
    total: list | None = field(default=None)

    def with_totals(self, label: str) -> Table:
        """Adds the total row: sums of money and count columns, blank elsewhere."""
        total: list = []
        for i, col in enumerate(self.columns):
            if col.kind in SUMMABLE:
                start = ZERO if col.kind == MONEY else 0
                total.append(sum((r[i] for r in self.rows if r[i] is not None), start))
            else:
                total.append(None)
        if total and self.columns[0].kind == TEXT:
            total[0] = label
        self.total_label, self.total = label, total
        return self


    def display_rows(self) -> list[list[dict]]:
        return [[cell(c, v) for c, v in zip(self.columns, row, strict=True)] for row in self.rows]

    def display_total(self) -> list[dict] | None:
        return [cell(c, v) for c, v in zip(self.columns, self.total, strict=True)] if self.total else None


def cell(column: Column, value) -> dict:
    """A value as shown on the page and in the PDF ($1,234.56; 12.5 %; 31/12/2026; — for nothing)."""
    return {"text": display(column.kind, value), "num": column.kind in (MONEY, COUNT, PCT, NUMBER),
            "nowrap": column.kind == DATE}


def display(kind: str, value) -> str:
    if value is None or value == "":
        return "—"
    if kind == MONEY:
        amount = round_half_up(Decimal(value))
        return f"{'-' if amount < 0 else ''}${abs(amount):,.2f}"
    if kind in (COUNT, NUMBER):
        return f"{value:,}"
    if kind == PCT:
        return f"{value} %"
    if kind == DATE and isinstance(value, date):
        return value.strftime("%d/%m/%Y")
    return str(value)


@dataclass
class Figure:
    """A headline figure above the table (e.g. "Asignación legislativa necesaria (IRR-7)")."""

    label: str
    value: Decimal | int
    kind: str = MONEY

    @property
    def text(self) -> str:
        return display(self.kind, self.value)


@dataclass
class Report:
    slug: str
    title: str
    period_label: str
    rules: str                      # rule IDs the figures apply, shown under the title and in the PDF
    table: Table
    chart_svg: str = ""
    figures: list[Figure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    landscape: bool = False
    generated_on: date | None = None
    extra_tables: list[tuple[str, Table]] = field(default_factory=list)
