"""core.spreadsheets: formula-looking text is neutralized; numbers, dates and plain text are not."""
import csv
import io
from datetime import date
from decimal import Decimal

import pytest

from core.spreadsheets import csv_writer, neutralize, write_only_row


@pytest.mark.parametrize("value", ["=1+1", "+1", "-2", "@SUM(A1)", "\tx", "\rx", '=HYPERLINK("http://x","y")'])
def test_formula_looking_text_gets_an_apostrophe(value):
    assert neutralize(value) == f"'{value}"


@pytest.mark.parametrize("value", ["Ana", "", "371-045-123-01", Decimal("-12.50"), -3, date(2027, 7, 1), None])
def test_other_values_are_untouched(value):
    assert neutralize(value) == value


def test_csv_writer_neutralizes_text_cells_only():
    buf = io.StringIO()
    csv_writer(buf).writerow(["=cmd", Decimal("-1.00"), "ok"])
    assert next(csv.reader(io.StringIO(buf.getvalue()))) == ["'=cmd", "-1.00", "ok"]


def test_write_only_cells_are_text_never_formulas():
    from openpyxl import Workbook, load_workbook

    wb = Workbook(write_only=True)
    ws = wb.create_sheet("s")
    ws.append(write_only_row(ws, ["=1+1", Decimal("-2.50"), "x"]))
    out = io.BytesIO()
    wb.save(out)
    cells = list(load_workbook(out).active.iter_rows())[0]
    assert [c.data_type for c in cells] == ["s", "n", "s"] and cells[0].value == "'=1+1"
