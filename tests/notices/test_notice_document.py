"""What the printed notice says: to whom checks are made out (payee), how it is mailed and under
which rule (SID-2, TID-4, FRA-3), the English notice on request, and the stub's barcode and QR.
No timing assertions: speed is measured by benchmarks/notices.py."""
from __future__ import annotations

import gc
import io
from datetime import date
from decimal import Decimal

import pytest
from django.utils import translation

from assessments.ledger.services import account_for_parcel, account_for_party, receivable_create
from assessments.models import Fund
from assessments.notices import rules, services
from assessments.notices.barcode import code128_data_uri, code128_modules
from assessments.notices.models import Notice
from core.models import AuditEntry
from districts.models import Office
from tests import factories
from tests.notices.conftest import pdf_text

pytestmark = pytest.mark.django_db

TREASURY = "Departamento de Hacienda — Negociado de Recaudaciones"


def _charge(actor, *, program: str, office: Office, cadastre: str = "500-100-200-01", holder: bool = False):
    """A one-installment charge of `program` on a parcel (or a franchise holder's account)."""
    lien = {"SID": "SID", "TID": "TID", "IRR": "IRRIGATION"}.get(program, "")
    fund = Fund.objects.get_or_create(code=f"fund-{program.lower()}", defaults={"name": f"Fondo {program}",
                                                                                 "lien_kind": lien})[0]
    if holder:
        account = account_for_party(factories.person(given="Hotel", first="Playa", second="Azul"))
    else:
        parcel = factories.parcel(cadastre=cadastre, municipality="Rincón")
        factories.own(parcel, factories.person(given="Gloria", first="Méndez", second="Ruiz"))
        account = account_for_parcel(parcel)
    rule = {"SID": "SID-1", "TID": "TID-2", "FRA": "FRA-1", "IRR": "IRR-6"}[program]
    breakdown = {"rule": rule, "program": program, "fiscal_year": 2027}
    if program == "FRA":
        breakdown["franchise"] = "FR-001"
    return receivable_create(
        account=account, fund=fund, office=office, kind="INVOICE" if holder else "BENEFIT_CHARGE",
        source_type=f"{program.lower()}:2027", source_id=cadastre, installments=[(date(2026, 10, 1), "300.00")],
        description=f"Cargo {program} FY2027", breakdown=breakdown, issued_on=date(2026, 9, 1), actor=actor,
        creates_lien=not holder)


@pytest.fixture
def treasury():
    return factories.office(name=TREASURY, kind=Office.Kind.TREASURY)


@pytest.fixture
def association():
    return factories.office(name="Asociación del DMT de Rincón", kind=Office.Kind.ASSOCIATION)


# --- pure rules -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("program", "kind", "expected"), [
    ("IRR", "TREASURY", True), ("LAJ", "TREASURY", True), ("SID", "CRIM", False), ("TID", "ASSOCIATION", False),
    ("IRR", "IRRIGATION", False), ("FRA", "DRNA", True), ("FRA", "TREASURY", True),
])
def test_checks_go_to_the_secretary_of_the_treasury_when_hacienda_collects_or_for_franchises(program, kind, expected):
    assert rules.payee_is_treasurer(program=program, office_kind=kind) is expected


@pytest.mark.parametrize(("program", "rule", "method"), [
    ("SID", "SID-2", "REGULAR"), ("TID", "TID-4", "CERTIFIED_RR"), ("FRA", "FRA-3", "REGULAR"),
    ("IRR", "", "REGULAR"), ("LAJ", "", "REGULAR"), ("OTHER", "", "REGULAR"),
])
def test_each_program_names_the_rule_that_says_how_its_notice_is_mailed(program, rule, method):
    assert (rules.mailing_rule(program), rules.mailing_method(program)) == (rule, method)


# --- payee ----------------------------------------------------------------------------------------

def test_when_hacienda_collects_the_payee_is_the_secretary_on_the_stub_and_in_how_to_pay(staff_user, treasury):
    rec = _charge(staff_user, program="IRR", office=treasury)
    text = pdf_text(services.notice_issue(receivable=rec, actor=staff_user).document)
    assert "Páguese a: Secretario de Hacienda" in text                       # the stub
    assert "Cheque o giro postal a nombre de: Secretario de Hacienda" in text  # how to pay, by mail
    assert TREASURY in text                                                  # where to pay in person


def test_another_collecting_office_is_the_payee_by_name(staff_user, association):
    rec = _charge(staff_user, program="TID", office=association)
    text = pdf_text(services.notice_issue(receivable=rec, actor=staff_user).document)
    assert "Páguese a: Asociación del DMT de Rincón" in text
    assert "nombre de: Asociación del DMT de Rincón" in text
    assert "Secretario de Hacienda" not in text


def test_franchise_tariffs_are_paid_to_the_secretary_whoever_bills_them_fra_3(staff_user):
    drna = factories.office(name="Departamento de Recursos Naturales y Ambientales", kind=Office.Kind.DRNA)
    rec = _charge(staff_user, program="FRA", office=drna, holder=True)
    text = pdf_text(services.notice_issue(receivable=rec, actor=staff_user).document)
    assert "Páguese a: Secretario de Hacienda" in text and "Secretario de Hacienda (FRA-3)" in text


# --- the mailing rule -----------------------------------------------------------------------------

@pytest.mark.parametrize(("program", "rule", "words"), [
    ("SID", "SID-2", "por correo regular"),
    ("TID", "TID-4", "por correo certificado con acuse de recibo"),
])
def test_the_notice_states_how_it_is_mailed_with_its_rule(staff_user, association, program, rule, words):
    rec = _charge(staff_user, program=program, office=association)
    notice = services.notice_issue(receivable=rec, actor=staff_user)
    text = pdf_text(notice.document)
    assert f"Este aviso se envía {words}" in text and f"dispone {rule}" in text
    assert notice.method == rules.mailing_method(program)
    label = "Certificado con acuse" if notice.method == "CERTIFIED_RR" else "Correo regular"
    assert f"{label} ({rule})" in text          # and in the references at the top


def test_a_franchise_tariff_invoice_goes_by_regular_mail_fra_3(staff_user, treasury):
    """Issue #16 (§8.19): only the notices of modification, suspension or revocation go "mediante
    correo certificado con acuse de recibo"; an ordinary tariff invoice (sec. 8.14) goes by regular
    mail (FRA-8 in docs/rules/franchises.md: "this notice only; ordinary invoices go by regular mail")."""
    rec = _charge(staff_user, program="FRA", office=treasury, holder=True)
    notice = services.notice_issue(receivable=rec, actor=staff_user)
    text = pdf_text(notice.document)
    assert notice.method == "REGULAR"
    assert "Esta factura se envía por correo regular al concesionario (FRA-3)" in text
    assert "Correo regular (FRA-3)" in text and "FR-001" in text and "Certificado con acuse" not in text


def test_a_program_without_a_mailing_rule_says_regular_mail_without_a_rule(staff_user, treasury):
    rec = _charge(staff_user, program="IRR", office=treasury)
    text = pdf_text(services.notice_issue(receivable=rec, actor=staff_user).document)
    assert "Este aviso se envía por correo regular a la dirección postal del registro." in text
    assert "Correo regular (" not in text


# --- English on request ---------------------------------------------------------------------------

def _pdf(document):
    from pypdf import PdfReader

    with document.file.open("rb") as fh:
        return PdfReader(io.BytesIO(fh.read()))


def test_an_english_notice_on_request_keeps_the_number_and_the_facts_in_english(staff_user, treasury):
    rec = _charge(staff_user, program="SID", office=treasury)
    spanish = services.notice_issue(receivable=rec, actor=staff_user)
    english = services.notice_issue_in_language(notice=spanish, language="en", actor=staff_user)

    assert english.pk != spanish.pk and english.language == english.document.language == "en"
    assert (english.number, english.revision, english.replaces_id) == (spanish.number, 1, spanish.pk)
    spanish.refresh_from_db()
    assert spanish.status == Notice.Status.REPLACED and spanish.document.language == "es"
    assert str(_pdf(english.document).trailer["/Root"]["/Lang"]) == "en"     # <html lang="en">
    assert str(_pdf(spanish.document).trailer["/Root"]["/Lang"]) == "es"
    text = pdf_text(english.document)
    for same in (rec.payment_reference, english.number, "500-100-200-01", "$300.00", "SID-1", "SID-2", "SID-4",
                 english.document.verification_code, "Gloria Méndez Ruiz"):
        assert same in text, same
    with translation.override("en"):   # the headings, when the English catalogue is compiled (make messages)
        from django.utils.translation import gettext
        stub = gettext("Talonario de pago")
    if stub != "Talonario de pago":
        assert stub.upper() in text and "TALONARIO DE PAGO" not in text
    # asking again changes nothing; asking for Spanish again issues the next revision in Spanish
    assert services.notice_issue_in_language(notice=english, language="en", actor=staff_user) == english
    assert services.notice_issue_in_language(notice=spanish, language="en", actor=staff_user) == english
    back = services.notice_issue_in_language(notice=english, language="es", actor=staff_user)
    assert (back.language, back.revision, back.document.language) == ("es", 2, "es")
    assert AuditEntry.objects.filter(action="notice.correct").count() == 2


def test_an_unknown_language_is_refused_and_nothing_changes(staff_user, treasury):
    from django.core.exceptions import ValidationError

    rec = _charge(staff_user, program="SID", office=treasury)
    notice = services.notice_issue(receivable=rec, actor=staff_user)
    with pytest.raises(ValidationError, match="Idioma desconocido"):
        services.notice_issue_in_language(notice=notice, language="fr", actor=staff_user)
    assert Notice.objects.filter(receivable=rec).count() == 1


def test_staff_issue_in_english_from_the_notice_page(client, staff_user, treasury):
    rec = _charge(staff_user, program="SID", office=treasury)
    notice = services.notice_issue(receivable=rec, actor=staff_user)
    client.force_login(staff_user)
    page = client.get(f"/avisos/{notice.pk}/").content.decode()
    assert "Emitir en inglés" in page
    response = client.post(f"/avisos/{notice.pk}/idioma/", {"language": "en"})
    english = Notice.objects.get(receivable=rec, revision=1)
    assert response.status_code == 302 and response["Location"] == english.get_absolute_url()
    assert english.language == "en"
    response = client.post(f"/avisos/{notice.pk}/idioma/", {"language": "xx"})   # refused, with a message
    assert response.status_code == 302 and Notice.objects.filter(receivable=rec).count() == 2


def test_only_writers_may_issue_a_notice_in_another_language(client, treasury, staff_user, auditor_user):
    rec = _charge(staff_user, program="SID", office=treasury)
    notice = services.notice_issue(receivable=rec, actor=staff_user)
    client.force_login(auditor_user)                 # reads every notice, writes none
    assert client.post(f"/avisos/{notice.pk}/idioma/", {"language": "en"}).status_code == 403
    client.logout()
    response = client.post(f"/avisos/{notice.pk}/idioma/", {"language": "en"})
    assert response.status_code == 302 and "login" in response["Location"]
    assert Notice.objects.filter(receivable=rec).count() == 1


# --- the stub's images ----------------------------------------------------------------------------

def test_the_barcode_is_a_one_bit_png_with_one_pixel_per_code128_module():
    from base64 import b64decode

    from PIL import Image

    uri = code128_data_uri("0000000018")
    assert uri.startswith("data:image/png;base64,")
    image = Image.open(io.BytesIO(b64decode(uri.split(",", 1)[1])))
    modules = code128_modules("0000000018")
    assert image.mode == "1" and image.size == (len(modules), 1)
    assert "".join("1" if image.getpixel((x, 0)) == 0 else "0" for x in range(image.width)) == modules
    assert modules.startswith("0" * 10) and modules.endswith("0" * 10)   # quiet zones
    assert modules[10:21] == "11010011100"                               # START C: digits packed in pairs


def test_the_verification_qr_on_the_notice_is_a_png_of_the_verification_url():
    from base64 import b64decode

    from PIL import Image

    from core.documents.qr import qr_png_data_uri

    image = Image.open(io.BytesIO(b64decode(qr_png_data_uri("https://cargos.pr.gov/verificar/ABCD-EFGH-2345/")
                                            .split(",", 1)[1])))
    assert image.size == (33, 33)   # version 4 at level M, one pixel per module


def test_rendering_a_chunk_pauses_the_collector_and_gives_it_back():
    assert gc.isenabled()
    with services.gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with services.gc_paused():
            pass
        assert not gc.isenabled()   # left as the caller had it
    finally:
        gc.enable()


def test_with_workers_issue_demo_notices_queues_every_run_with_a_notice_still_without_pdf(
        staff_user, treasury, association, monkeypatch):
    from django.core.management import call_command

    from assessments.notices import tasks
    from config.celery import app

    rendered = _charge(staff_user, program="SID", office=treasury, cadastre="500-100-200-01")
    services.notice_issue(receivable=rendered, actor=staff_user)                          # has its PDF
    numbered = _charge(staff_user, program="TID", office=association, cadastre="500-100-200-02")
    services.notice_issue(receivable=numbered, actor=staff_user, render=False)            # numbered only
    queued = []
    monkeypatch.setattr(tasks.notices_issue_for_source_task, "delay", lambda st, *a: queued.append(st))
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False      # as with a worker
    try:
        call_command("issue_demo_notices", stdout=io.StringIO())
    finally:
        app.conf.task_always_eager = eager
    assert queued == ["tid:2027"]
    assert Notice.objects.get(receivable=numbered).document_id is None   # left to the worker


def test_the_collecting_offices_letterhead_image_heads_the_notice(staff_user):
    from django.core.files.base import ContentFile
    from PIL import Image

    office = factories.office(name=TREASURY, kind=Office.Kind.TREASURY)
    buffer = io.BytesIO()
    Image.new("RGB", (300, 80), "#0b3d63").save(buffer, format="PNG")
    office.letterhead.save("membrete.png", ContentFile(buffer.getvalue()), save=True)
    rec = _charge(staff_user, program="IRR", office=office)
    notice = services.notice_issue(receivable=rec, actor=staff_user)
    page = _pdf(notice.document).pages[0]
    assert len(page.images) == 3     # the letterhead, the barcode and the QR code
    assert notice.document.page_count == 1 and TREASURY in pdf_text(notice.document)


def test_a_notice_dated_after_the_due_date_says_overdue_and_states_the_surcharge_on_its_date(staff_user, treasury):
    """A notice issued after a due date never prints that date as if it were ahead: it says the
    installment is overdue and states the surcharge accrued on the notice's date, with its rule."""
    from assessments.notices.context import notice_context

    parcel = factories.parcel(cadastre="500-100-200-09", municipality="Rincón")
    factories.own(parcel, factories.person(given="Gloria", first="Méndez", second="Ruiz"))
    fund = Fund.objects.get_or_create(code="fund-sid", defaults={"name": "Fondo SID", "lien_kind": "SID"})[0]
    rec = receivable_create(
        account=account_for_parcel(parcel), fund=fund, office=treasury, kind="BENEFIT_CHARGE", source_type="sid:2027",
        source_id="500-100-200-09", installments=[(date(2026, 10, 1), "300.00"), (date(2027, 4, 1), "300.00")],
        description="Cargo SID FY2027", breakdown={"rule": "SID-1", "program": "SID", "fiscal_year": 2027},
        issued_on=date(2026, 9, 1), actor=staff_user, creates_lien=True, surcharge_rule="RESOLUTION",
        surcharge_terms={"grace_days": "30", "surcharge_pct": "10", "interest_pct_per_month": "0"})
    notice = services.notices_number(receivable_ids=[rec.pk], actor=staff_user, on=date(2026, 12, 1))[0]

    ctx = notice_context(notice)
    first, second = ctx["installments"]
    assert (first["overdue"], first["surcharge"], first["surcharge_rule"]) == (True, Decimal("30.00"), "SID-1")
    assert (second["overdue"], second["surcharge"]) == (False, Decimal("0"))
    assert ctx["owed_on_date"] == Decimal("630.00") and [r["seq"] for r in ctx["upcoming"]] == [2]

    issued = services.notice_issue(receivable=rec, actor=staff_user)
    text = pdf_text(issued.document)
    assert "Plazo 1 vencido el 01/10/2026" in text
    assert "recargo al 01/12/2026: $30.00 (SID-1)" in text
    assert "$630.00" in text and "Próximo plazo vence el" in text and "01/04/2027" in text
    assert "Plazo 1: $300.00 · vence el" not in text
