"""Hostile uploads are refused before they are read whole (core.uploads, districts.imports.readers).

The archives are built here the way an attacker would: a tiny XLSX whose sheet expands to a million
rows, and one whose single shared string expands to 100 MB. Memory is measured with tracemalloc
(allocation, not time), so the tests say nothing about the machine's speed.
"""
import io
import tracemalloc
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from core.uploads import MB, read_at_most
from districts.imports import readers
from districts.imports.readers import ReaderError, read_sheet

CONTENT_TYPES = ('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
                 'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
                 'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName='
                 '"/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.'
                 'main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.'
                 'openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings'
                 '.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
                 '</Types>')
RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
        'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
WORKBOOK = ('<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
            '2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet '
            'name="s" sheetId="1" r:id="rId1"/></sheets></workbook>')
WB_RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
           '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
           'relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.'
           'openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
           '</Relationships>')
NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def _xlsx(sheet_rows: str, shared: str = "") -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("[Content_Types].xml", CONTENT_TYPES)
        z.writestr("_rels/.rels", RELS)
        z.writestr("xl/workbook.xml", WORKBOOK)
        z.writestr("xl/_rels/workbook.xml.rels", WB_RELS)
        z.writestr("xl/sharedStrings.xml", f'<?xml version="1.0"?><sst {NS}><si><t>{shared or "cadastre"}</t></si>'
                                           "</sst>")
        z.writestr("xl/worksheets/sheet1.xml", f'<?xml version="1.0"?><worksheet {NS}><sheetData>{sheet_rows}'
                                               "</sheetData></worksheet>")
    return out.getvalue()


def _row(n: int) -> str:
    return f'<row r="{n}"><c r="A{n}" t="inlineStr"><is><t>100-000-000-01</t></is></c></row>'


def _peak_mb(fn) -> float:
    tracemalloc.start()
    try:
        fn()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak / MB


def test_a_small_xlsx_expanding_to_a_million_rows_is_refused_without_reading_it():
    same_row = '<row><c t="inlineStr"><is><t>100-000-000-01</t></is></c></row>'
    content = _xlsx('<row r="1"><c r="A1" t="s"><v>0</v></c></row>' + same_row * 1_000_000)
    assert len(content) < 1 * MB

    def attempt():
        with pytest.raises(ReaderError) as exc:
            read_sheet(content, "padron.xlsx")
        assert "se expande" in exc.value.message or "más de" in exc.value.message

    assert _peak_mb(attempt) < 64


def test_one_huge_shared_string_is_refused_from_the_archive_directory():
    content = _xlsx('<row r="1"><c r="A1" t="s"><v>0</v></c></row>', shared="A" * (100 * MB))
    assert len(content) < 1 * MB

    def attempt():
        with pytest.raises(ReaderError) as exc:
            read_sheet(content, "padron.xlsx")
        assert "sharedStrings.xml" in exc.value.message

    assert _peak_mb(attempt) < 32


def test_rows_are_streamed_and_stop_at_the_row_limit(monkeypatch):
    monkeypatch.setattr(readers, "MAX_ROWS", 100)
    content = _xlsx('<row r="1"><c r="A1" t="s"><v>0</v></c></row>' + "".join(_row(n) for n in range(2, 5000)))
    with pytest.raises(ReaderError) as exc:
        read_sheet(content, "padron.xlsx")
    assert "más de 100 filas" in exc.value.message


def test_an_ordinary_workbook_still_reads():
    sheet = read_sheet(_xlsx('<row r="1"><c r="A1" t="s"><v>0</v></c></row>' + _row(2) + _row(3)), "p.xlsx")
    assert sheet.headers == ["cadastre"] and [n for n, _ in sheet.rows] == [2, 3]


def test_uploads_are_read_one_byte_past_their_limit_and_no_further():
    upload = SimpleUploadedFile("banco.csv", b"x" * (3 * MB))
    assert len(read_at_most(upload, MB)) == MB + 1


@pytest.mark.django_db
@pytest.mark.parametrize("form_path", ["assessments.ledger.forms.BankFileForm",
                                       "assessments.ledger.forms.OpeningBalancesForm"])
def test_upload_forms_refuse_an_oversized_file_by_name(form_path):
    import importlib

    module, name = form_path.rsplit(".", 1)
    form_class = getattr(importlib.import_module(module), name)
    big = SimpleUploadedFile("banco.csv", b"a" * (10 * MB + 1), content_type="text/csv")
    form = form_class(data={"issued_on": "2026-07-01"}, files={"file": big})
    assert not form.is_valid()
    assert "pasa de 10 MB" in " ".join(form.errors["file"])


@pytest.mark.django_db
def test_the_bank_service_refuses_an_oversized_file(staff_user):
    from django.core.exceptions import ValidationError

    from assessments.ledger.bankfiles import bankfile_import

    with pytest.raises(ValidationError) as exc:
        bankfile_import(file=io.BytesIO(b"reference,amount,date\n" + b"a" * (10 * MB)), actor=staff_user)
    assert "pasa de 10 MB" in str(exc.value)
