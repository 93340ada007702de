"""Report pages: access by role, filters and their errors, PDF (pypdf) and XLSX (openpyxl) downloads."""
import io
from decimal import Decimal

import pytest
from django.urls import reverse

from assessments.reports.catalog import REPORTS
from core.models import Document

D = Decimal
pytestmark = pytest.mark.django_db
URL = reverse("reports:report", args=["recaudos"])
RANGE = {"start": "2025-07-01", "end": "2026-06-30", "group": "month"}


def test_anonymous_goes_to_login(client):
    for url in (reverse("reports:index"), URL, URL + "?format=pdf"):
        response = client.get(url)
        assert response.status_code == 302 and "/cuentas/login/" in response["Location"]


def test_owner_is_sent_to_the_portal_and_role_less_user_refused(client, owner_user, make_user):
    client.force_login(owner_user)
    for url in (reverse("reports:index"), URL, URL + "?format=xlsx"):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"] == reverse("portal:home")
    client.force_login(make_user("nobody"))
    for url in (reverse("reports:index"), URL, URL + "?format=xlsx"):
        assert client.get(url).status_code == 403


def test_unknown_report_is_404(staff_client):
    assert staff_client.get(reverse("reports:report", args=["nada"])).status_code == 404


@pytest.mark.parametrize("slug", list(REPORTS))
def test_every_report_page_renders_for_an_auditor(client, auditor_user, slug, ledger_data):
    client.force_login(auditor_user)
    response = client.get(reverse("reports:report", args=[slug]))
    assert response.status_code == 200
    body = response.content.decode()
    assert "<svg" in body and 'role="img"' in body and "format=pdf" in body and "format=xlsx" in body


def test_index_lists_the_six_reports_and_nav_links_it(staff_client):
    body = staff_client.get(reverse("reports:index")).content.decode()
    for slug in REPORTS:
        assert reverse("reports:report", args=[slug]) in body
    assert 'href="/informes/"' in body


def test_table_on_the_page_adds_to_the_total(staff_client, ledger_data):
    body = staff_client.get(URL, RANGE).content.decode()
    for text in ("$60.25", "$39.75", "$50.00", "$250.55", "$400.55", "jul 2025", "Fondo B de prueba"):
        assert text in body


@pytest.mark.parametrize(("params", "message"), [
    ({"start": "2026-02-01", "end": "2026-01-01"}, "La fecha final (01/01/2026) es anterior a la inicial (01/02/2026)"),
    ({"start": "ayer", "end": "2026-01-01"}, "Introduzca una fecha válida"),
    ({"start": "2010-01-01", "end": "2026-01-01"}, "diez años"),
    ({"start": "2025-01-01", "end": "2026-01-01", "fund": "no-existe"}, "no-existe"),
])
def test_bad_filters_are_named_with_400(staff_client, params, message):
    response = staff_client.get(URL, params)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_pdf_download_is_an_issued_report(staff_client, ledger_data):
    from pypdf import PdfReader

    response = staff_client.get(URL, {**RANGE, "format": "pdf"})
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert 'filename="informe-recaudos-20250701-20260630.pdf"' in response["Content-Disposition"]
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert "Recaudos por fondo y período" in text and "$400.55" in text and "01/07/2025" in text
    doc = Document.objects.get()
    assert doc.kind == "REPORT" and "400" not in doc.title     # a document title never carries amounts


def test_pdf_downloaded_again_is_the_same_document_until_the_figures_change(
        staff_client, auditor_user, ledger_data, staff_user):
    from datetime import date

    from assessments.ledger.services import account_for_parcel, payment_record
    from core.models import DocumentDownloadLog
    from districts.models import Parcel

    pdf = {**RANGE, "format": "pdf"}
    first = staff_client.get(URL, pdf)
    again = staff_client.get(URL, pdf)
    assert Document.objects.count() == 1
    doc = Document.objects.get()
    assert first.content == again.content == doc.file.open("rb").read()
    assert len(doc.fingerprint) == 64
    # Another member of the staff gets the office's same document; every download is logged.
    staff_client.force_login(auditor_user)
    assert staff_client.get(URL, pdf).content == first.content
    assert Document.objects.count() == 1
    assert DocumentDownloadLog.objects.filter(document=doc).count() == 3

    # Other filters: another report, another document.
    staff_client.get(URL, {**pdf, "fund": "fondo-a"})
    assert Document.objects.count() == 2
    staff_client.get(URL, {**pdf, "group": "quarter"})
    assert Document.objects.count() == 3
    # Same filters, new figures (a payment recorded since): a new document, and the old one stays as issued.
    payment_record(account=account_for_parcel(Parcel.objects.get(cadastre="500-000-000-01")), amount=D("10.00"),
                   method="CASH", paid_on=date(2026, 2, 2), payer="Prueba", idempotency_key="rep-new", batch=None,
                   source="API", actor=staff_user)
    changed = staff_client.get(URL, pdf)
    assert changed.content != first.content
    assert Document.objects.count() == 4
    assert Document.objects.filter(pk=doc.pk).exists()
    assert staff_client.get(URL, pdf).content == changed.content
    assert Document.objects.count() == 4


def test_report_issued_another_day_is_a_new_document(staff_client, ledger_data, monkeypatch):
    from datetime import date

    from django.utils import timezone

    pdf = {**RANGE, "format": "pdf"}
    staff_client.get(URL, pdf)
    monkeypatch.setattr(timezone, "localdate", lambda *a, **k: date(2030, 1, 2))   # the PDF prints the day
    staff_client.get(URL, pdf)
    staff_client.get(URL, pdf)
    assert Document.objects.count() == 2


def test_wide_report_pdf_is_landscape(staff_client, sid_data):
    from pypdf import PdfReader

    response = staff_client.get(reverse("reports:report", args=["remesas-sid"]),
                                {"start": "2026-01-01", "end": "2026-10-01", "format": "pdf"})
    pages = PdfReader(io.BytesIO(response.content)).pages
    assert all(page.mediabox.width > page.mediabox.height for page in pages)
    text = "".join(page.extract_text() for page in pages)
    assert "SID-3" in text and "$1,273.00" in text       # 950 + 190 + 95 + 38 to remit


def test_xlsx_numbers_are_numbers(staff_client, ledger_data):
    from openpyxl import load_workbook

    response = staff_client.get(URL, {**RANGE, "format": "xlsx"})
    assert response.status_code == 200
    ws = load_workbook(io.BytesIO(response.content)).active
    assert ws["A1"].value == "Recaudos por fondo y período"
    header = [c.value for c in ws[5]]
    assert header == ["Fondo", "Período", "Principal", "Recargos", "Total"] and all(c.font.b for c in ws[5])
    rows = [[c.value for c in r] for r in ws.iter_rows(min_row=6, max_row=10)]
    assert rows[-1][0] == "Total cobrado en fondos" and ws.cell(row=10, column=1).font.b
    amounts = [D(str(r[4])) for r in rows[:-1]]
    assert amounts == [D("60.25"), D("39.75"), D("50"), D("250.55")]
    assert D(str(rows[-1][4])) == sum(amounts) == D("400.55")
    assert ws.cell(row=6, column=5).number_format == "#,##0.00"
