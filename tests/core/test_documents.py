"""core.documents: render → PDF → storage → verification code, the public verification page, downloads."""
import hashlib
import io
import re
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.http import Http404
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from core.documents.codes import ALPHABET, new_code, normalize_code
from core.documents.pdf import DocumentURLFetcher, _allowed_roots
from core.documents.selectors import access_document, document_by_code
from core.documents.services import document_download_record, document_render, verification_url
from core.models import AuditEntry, Document, DocumentDownloadLog
from tests import factories

pytestmark = pytest.mark.django_db

TITLE = "Aviso de cuota de riego año fiscal 2027"
OWNER_NAME = "Rodríguez"
CODE_RE = re.compile(rf"^[{ALPHABET}]{{4}}-[{ALPHABET}]{{4}}-[{ALPHABET}]{{4}}$")


def letter_context(office, recipient, paragraphs=1):
    return {
        "office": office, "recipient": recipient,
        "references": [("Catastro", "371-045-123-07")],
        "subject": "Cuota de riego del año fiscal 2027",
        "paragraphs": ["La cuota anual de riego de la parcela indicada se paga en dos plazos."] * paragraphs,
        "lines": [{"description": "Primer semestre", "amount": Decimal("184.37")},
                  {"description": "Segundo semestre", "amount": Decimal("184.38")}],
        "total": Decimal("368.75"),
        "signatory": {"name": "María del Carmen Ortiz", "title": "Directora"},
    }


@pytest.fixture
def owner_party(owner_user):
    party = factories.person()
    party.user = owner_user
    party.save()
    return party


@pytest.fixture
def issued(owner_party, staff_user):
    office = factories.office()
    return document_render(template_name="documents/letter.html", context=letter_context(office, owner_party),
                           kind=Document.Kind.NOTICE, title=TITLE, owner_party_ids=[owner_party.pk],
                           related=owner_party, actor=staff_user)


def pdf_bytes(document) -> bytes:
    with document.file.open("rb") as fh:
        return fh.read()


def pdf_text(document) -> list[str]:
    """Each page's text with runs of whitespace (line breaks of wrapped lines) as one space."""
    return [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf_bytes(document))).pages]


def stored_documents() -> set[str]:
    root = Path(settings.MEDIA_ROOT) / "documents"
    return {str(p) for p in root.rglob("*.pdf")} if root.exists() else set()


# --- Codes ------------------------------------------------------------------------------------

def test_codes_are_grouped_and_unambiguous():
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200
    assert all(CODE_RE.match(c) for c in codes)
    assert not set("".join(codes)) & set("01OI")


@pytest.mark.parametrize(("typed", "expected"), [
    ("abcd-efgh-2345", "ABCD-EFGH-2345"),
    (" ABCD EFGH 2345 ", "ABCD-EFGH-2345"),
    ("ABCDEFGH2345", "ABCD-EFGH-2345"),
    ("ABCD-EFGH-234", None),        # too short
    ("ABCD-EFGH-23450", None),      # too long
    ("ABCD-EFGH-2O45", None),       # letter O is never issued
    ("ABCD-EFGH-2145", None),       # digit 1 is never issued
    ("ABCD/EFGH/2345", None),
    ("", None),
])
def test_normalize_code(typed, expected):
    assert normalize_code(typed) == expected


# --- Rendering --------------------------------------------------------------------------------

def test_render_produces_a_pdf_with_title_and_code(issued, owner_party, staff_user):
    data = pdf_bytes(issued)
    assert data.startswith(b"%PDF-")
    text = "\n".join(pdf_text(issued))
    assert TITLE in text
    assert issued.verification_code in text
    assert verification_url(issued.verification_code) in text
    assert "Verifique este documento en" in text
    assert "Página 1 de 1" in text
    assert issued.page_count == 1
    assert CODE_RE.match(issued.verification_code)
    assert issued.owner_party_ids == [owner_party.pk]
    assert issued.related == owner_party
    assert issued.office_name == "Servicio de Riego — Región Sur"
    assert issued.created_by == staff_user
    entry = AuditEntry.objects.get(action="document.issue")
    assert entry.actor == staff_user and entry.target_id == str(issued.pk)


def test_sha256_matches_the_stored_file(issued):
    data = pdf_bytes(issued)
    assert hashlib.sha256(data).hexdigest() == issued.sha256
    assert len(data) == issued.size_bytes


def test_letterhead_lists_the_office_and_the_addressee(issued):
    text = pdf_text(issued)[0]
    assert "GOBIERNO DE PUERTO RICO" in text
    assert "Servicio de Riego — Región Sur" in text
    assert "787-555-0100" in text
    assert "José Ramón Rodríguez Núñez" in text
    assert "$368.75" in text


def test_stored_under_year_and_month_with_the_code_as_name(issued):
    local = issued.created_at.astimezone(ZoneInfo(settings.TIME_ZONE))
    assert issued.file.name == f"documents/{local:%Y}/{local:%m}/{issued.verification_code}.pdf"


def test_long_document_numbers_pages_and_repeats_the_footer(owner_party):
    document = document_render(template_name="documents/letter.html",
                               context=letter_context(factories.office(), owner_party, paragraphs=60),
                               kind=Document.Kind.LETTER, title="Comunicación extensa")
    pages = pdf_text(document)
    assert document.page_count == len(pages) >= 2
    for number, text in enumerate(pages, start=1):
        assert document.verification_code in text
        assert f"Página {number} de {len(pages)}" in text


def test_office_letterhead_image_is_embedded(owner_party):
    office = factories.office()
    buffer = io.BytesIO()
    Image.new("RGB", (300, 80), (11, 61, 99)).save(buffer, format="PNG")
    office.letterhead.save("membrete.png", ContentFile(buffer.getvalue()), save=True)
    document = document_render(template_name="documents/letter.html", context=letter_context(office, owner_party),
                               kind=Document.Kind.NOTICE, title=TITLE)
    page = PdfReader(io.BytesIO(pdf_bytes(document))).pages[0]
    assert len(page.images) == 1  # the letterhead (the QR code is vector SVG, not an image)


def test_without_letterhead_image_no_raster_image(issued):
    page = PdfReader(io.BytesIO(pdf_bytes(issued))).pages[0]
    assert len(page.images) == 0


def test_unknown_kind_is_refused_and_nothing_is_stored(owner_party):
    before = stored_documents()
    with pytest.raises(ValidationError):
        document_render(template_name="documents/letter.html", context=letter_context(factories.office(), owner_party),
                        kind="NOPE", title=TITLE)
    assert Document.objects.count() == 0
    assert stored_documents() == before


def test_a_failure_after_storing_removes_the_file(owner_party):
    before = stored_documents()
    with pytest.raises(ValueError):
        document_render(template_name="documents/letter.html", context=letter_context(factories.office(), owner_party),
                        kind=Document.Kind.NOTICE, title=TITLE, owner_party_ids=["not-a-party-id"])
    assert Document.objects.count() == 0
    assert AuditEntry.objects.filter(action="document.issue").count() == 0
    assert stored_documents() == before


def test_fetcher_reads_only_data_uris_and_allowed_files():
    fetcher = DocumentURLFetcher(_allowed_roots())
    with pytest.raises(ValueError):
        fetcher.fetch("file:///etc/passwd")
    with pytest.raises(ValueError):
        fetcher.fetch("http://169.254.169.254/latest/meta-data/")
    with pytest.raises(ValueError):
        fetcher.fetch("https://example.org/logo.png")
    with pytest.raises(ValueError):  # no climbing out of MEDIA_ROOT
        fetcher.fetch(Path(settings.MEDIA_ROOT).resolve().as_uri() + "/../../etc/passwd")
    response = fetcher.fetch("data:text/plain,hola")
    assert response.read() == b"hola"
    response.close()


# --- Public verification page -------------------------------------------------------------------

def test_verification_page_shows_a_genuine_document_without_personal_data(client, issued):
    response = client.get(reverse("core:verify", args=[issued.verification_code]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Documento auténtico" in html
    assert TITLE in html
    assert "Aviso de cobro" in html
    assert issued.sha256 in html
    assert "Servicio de Riego — Región Sur" in html
    assert OWNER_NAME not in html
    assert "José Ramón" not in html
    assert "368.75" not in html and "184.37" not in html
    assert "Villa del Carmen" not in html
    assert "371-045-123-07" not in html


def test_verification_accepts_the_code_as_people_type_it(client, issued):
    typed = issued.verification_code.lower().replace("-", " ")
    response = client.get(reverse("core:verify_form"), {"code": typed})
    assert response.status_code == 302
    assert response.url == reverse("core:verify", args=[issued.verification_code])
    assert client.get(reverse("core:verify", args=[issued.verification_code.lower()])).status_code == 200
    assert document_by_code(typed) == issued


def test_unknown_code_is_not_found(client, issued):
    unknown = "ABCD-EFGH-2345" if issued.verification_code != "ABCD-EFGH-2345" else "ZZZZ-ZZZZ-ZZZZ"
    response = client.get(reverse("core:verify", args=[unknown]))
    assert response.status_code == 404
    html = response.content.decode()
    assert "no encontrado" in html.lower()
    assert TITLE not in html and OWNER_NAME not in html
    assert client.get(reverse("core:verify", args=["no-es-un-codigo"])).status_code == 404


def test_verification_form_page_is_public(client):
    response = client.get(reverse("core:verify_form"))
    assert response.status_code == 200
    assert "Verificar un documento" in response.content.decode()
    response = client.get(reverse("core:verify_form"), {"code": "0000"})
    assert response.status_code == 200
    assert "no es un código válido" in response.content.decode()


# --- Access and downloads -----------------------------------------------------------------------

def test_access_document_owner_staff_and_others(issued, owner_user, staff_user, make_user):
    assert access_document(owner_user, issued.pk) == issued
    assert access_document(staff_user, issued.pk) == issued
    other_owner = make_user("otra.duena", "owner")
    other_party = factories.person(given="Carmen", first="Vega", second="Ortiz")
    other_party.user = other_owner
    other_party.save()
    with pytest.raises(Http404):
        access_document(other_owner, issued.pk)
    with pytest.raises(Http404):
        access_document(make_user("sin.persona", "owner"), issued.pk)  # an account with no party
    from django.contrib.auth.models import AnonymousUser
    with pytest.raises(Http404):
        access_document(AnonymousUser(), issued.pk)
    with pytest.raises(Http404):
        access_document(staff_user, issued.pk + 1000)


def test_staff_download_returns_the_pdf_and_logs_it(staff_client, staff_user, issued):
    response = staff_client.get(reverse("core:document_pdf", args=[issued.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert b"".join(response.streaming_content) == pdf_bytes(issued)
    assert issued.verification_code in response["Content-Disposition"]
    log = DocumentDownloadLog.objects.get()
    assert (log.document, log.user, log.ip) == (issued, staff_user, "127.0.0.1")
    staff_client.get(reverse("core:document_pdf", args=[issued.pk]))
    assert DocumentDownloadLog.objects.count() == 2


def test_owner_cannot_use_the_staff_download(client, owner_user, issued):
    client.force_login(owner_user)
    response = client.get(reverse("core:document_pdf", args=[issued.pk]))
    assert response.status_code == 302 and response.url == reverse("portal:home")
    assert DocumentDownloadLog.objects.count() == 0


def test_owner_download_through_the_selector_is_logged(owner_user, issued):
    document = access_document(owner_user, issued.pk)
    document_download_record(document=document, user=owner_user, ip="10.0.0.8")
    log = DocumentDownloadLog.objects.get()
    assert (log.user, log.ip) == (owner_user, "10.0.0.8")


def test_missing_document_is_404_for_staff(staff_client):
    assert staff_client.get(reverse("core:document_pdf", args=[999999])).status_code == 404
    assert DocumentDownloadLog.objects.count() == 0



def test_admin_reads_documents_and_download_logs(client, make_user, issued, staff_user):
    document_download_record(document=issued, user=staff_user, ip="127.0.0.1")
    admin_user = make_user("admin.docs", "administrator", is_staff=True, is_superuser=True)
    client.force_login(admin_user)
    for name in ("admin:core_document_changelist", "admin:core_documentdownloadlog_changelist"):
        assert client.get(reverse(name)).status_code == 200
    assert client.get(reverse("admin:core_document_change", args=[issued.pk])).status_code == 200
    assert client.get(reverse("admin:core_document_add")).status_code == 403


def test_fetcher_refuses_files_in_media_root():
    """Stored files are read through the storage API (data: URIs), never by path, so MEDIA_ROOT is
    not readable by a template either."""
    stored = Path(settings.MEDIA_ROOT) / "letterheads" / "secret.png"
    stored.parent.mkdir(parents=True, exist_ok=True)
    stored.write_bytes(b"not for documents")
    with pytest.raises(ValueError):
        DocumentURLFetcher(_allowed_roots()).fetch(stored.resolve().as_uri())


def test_letterhead_comes_through_a_storage_without_local_paths(owner_party, settings):
    """InMemoryStorage keeps nothing on disk (its `.path` names no file): the letterhead and the PDF
    go through the storage API only."""
    from core.documents import pdf

    settings.STORAGES = {**settings.STORAGES,
                         "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"}}
    pdf.reset_caches()
    try:
        office = factories.office()
        buffer = io.BytesIO()
        Image.new("RGB", (300, 80), (11, 61, 99)).save(buffer, format="PNG")
        office.letterhead.save("membrete-en-memoria.png", ContentFile(buffer.getvalue()), save=True)
        assert not Path(office.letterhead.path).exists()
        document = document_render(template_name="documents/letter.html",
                                   context=letter_context(office, owner_party), kind=Document.Kind.NOTICE,
                                   title=TITLE)
        content = pdf_bytes(document)
        assert hashlib.sha256(content).hexdigest() == document.sha256
        assert len(PdfReader(io.BytesIO(content)).pages[0].images) == 1
    finally:
        pdf.reset_caches()


def test_a_missing_or_unsupported_letterhead_is_left_out(owner_party):
    office = factories.office()
    office.letterhead.save("membrete.txt", ContentFile(b"text, not an image"), save=True)
    document = document_render(template_name="documents/letter.html", context=letter_context(office, owner_party),
                               kind=Document.Kind.NOTICE, title=TITLE)
    assert len(PdfReader(io.BytesIO(pdf_bytes(document))).pages[0].images) == 0
    office.letterhead.delete(save=False)
    office.letterhead.name = "letterheads/gone.png"
    document = document_render(template_name="documents/letter.html", context=letter_context(office, owner_party),
                               kind=Document.Kind.NOTICE, title=TITLE)
    assert len(PdfReader(io.BytesIO(pdf_bytes(document))).pages[0].images) == 0
