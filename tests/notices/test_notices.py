"""Notices: issued once per receivable, numbered gapless, corrected by a new notice that keeps the
number, printed with everything the statutes ask for, mailed in batches."""
from __future__ import annotations

import csv
import io
import re
from datetime import date
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import reverse

from assessments.ledger.services import account_for_parcel, account_for_party, receivable_create
from assessments.models import Fund, Receivable
from assessments.notices import selectors, services
from assessments.notices.models import MailingBatch, Notice
from assessments.rolls.billing import source_type
from core.models import AuditEntry, DocumentDownloadLog
from tests import factories
from tests.notices.conftest import pdf_text

pytestmark = pytest.mark.django_db


def _issue_all(roll, actor):
    return services.notices_issue_for_source(source_type=source_type(roll), actor=actor)


def test_issuing_twice_changes_nothing_and_numbers_are_gapless(irr_roll, staff_user):
    receivables = Receivable.objects.filter(source_type=source_type(irr_roll))
    first = _issue_all(irr_roll, staff_user)
    assert first.numbered == first.rendered == receivables.count() > 0
    before = list(Notice.objects.order_by("seq").values_list("pk", "number", "document_id"))

    again = _issue_all(irr_roll, staff_user)
    assert (again.numbered, again.rendered) == (0, 0)
    for rec in receivables:
        assert services.notice_issue(receivable=rec, actor=staff_user).receivable_id == rec.pk
    assert services.notices_number(receivable_ids=receivables.values_list("pk", flat=True), actor=staff_user) == []
    assert list(Notice.objects.order_by("seq").values_list("pk", "number", "document_id")) == before

    year = date.today().year
    assert [n for _, n, _ in before] == [f"AV-{year}-{i:06d}" for i in range(1, len(before) + 1)]
    # numbered in printing order: cadastre
    cadastres = [Notice.objects.get(pk=pk).sort_key for pk, _, _ in before]
    assert cadastres == sorted(cadastres)
    assert MailingBatch.objects.count() == 1   # one batch for the run, created once


def test_a_corrected_notice_names_the_one_it_replaces_and_keeps_its_number(irr_roll, staff_user):
    rec = Receivable.objects.filter(source_type=source_type(irr_roll)).order_by("source_id").first()
    old = services.notice_issue(receivable=rec, actor=staff_user)
    old_document = (old.document_id, old.document.sha256, old.document.verification_code)

    with pytest.raises(Exception, match="motivo"):
        services.notice_issue(receivable=rec, actor=staff_user, replaces=old, reason=" ")
    new = services.notice_issue(receivable=rec, actor=staff_user, replaces=old, reason="Dirección postal corregida")

    old.refresh_from_db()
    assert new.replaces_id == old.pk and old.replaced_by == new
    assert new.number == old.number and new.revision == old.revision + 1 == 1
    assert new.display_number == f"{old.number}-C1"
    assert old.status == Notice.Status.REPLACED and new.status == Notice.Status.ISSUED
    assert (old.document_id, old.document.sha256, old.document.verification_code) == old_document  # never redone
    assert new.document_id != old.document_id
    text = pdf_text(new.document)
    assert f"sustituye el aviso {old.number}" in text and "Dirección postal corregida" in text
    # the current notice is the correction; correcting the old one again returns it (a redelivered task)
    assert services.notice_issue(receivable=rec, actor=staff_user) == new
    assert services.notice_issue(receivable=rec, actor=staff_user, replaces=old, reason="otra vez") == new
    assert Notice.objects.filter(receivable=rec).count() == 2
    assert selectors.current_notice(rec) == new
    assert AuditEntry.objects.filter(action="notice.correct").count() == 1


def test_the_pdf_carries_owner_amount_reference_verification_code_and_the_law(irr_roll, staff_user):
    rec = Receivable.objects.filter(source_type=source_type(irr_roll)).order_by("source_id").first()
    notice = services.notice_issue(receivable=rec, actor=staff_user)
    text = pdf_text(notice.document)
    parcel = rec.account.parcel
    for expected in ("María de los Ángeles Peña Colón", "Pedro Juan Peña Colón",    # both co-owners of record
                     f"${rec.amount:,.2f}", rec.payment_reference, notice.document.verification_code,
                     notice.number, parcel.cadastre, "cuerdas", "acres", f"{parcel.area_cuerdas:,.4f}",
                     f"{parcel.area_acres:,.4f}", "IRR-6", "IRR-9", "IRR-10",
                     f"nombre de: {rec.office.name}",   # the payee: the collecting office (not Hacienda here)
                     "TALONARIO DE PAGO", "embargo", "Urb. Villa del Carmen", "Distrito de Riego de la Costa Sur"):
        assert expected in text, expected
    for inst in rec.installments.all():
        assert inst.due_date.strftime("%d/%m/%Y") in text
    assert notice.document.page_count == 1
    assert notice.document.kind == "NOTICE"
    assert sorted(notice.document.owner_party_ids) == sorted(a["party_id"] for a in notice.addressees)
    # an activation code per addressee without a portal account, stored only as a hash
    codes = re.findall(r"[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}", text)
    codes = [c for c in codes if c != notice.document.verification_code]
    assert len(codes) == 2
    stored = list(notice.addressee_rows.values_list("activation_hash", flat=True))
    assert all(len(h) == 64 for h in stored) and not any(c in h for c in codes for h in stored)


def test_a_lajas_notice_shows_gross_credit_and_net(laj_roll, staff_user):
    credited = [r for r in Receivable.objects.filter(source_type=source_type(laj_roll))
                if Decimal(r.breakdown["credit"]) > 0]
    assert credited
    rec = credited[0]
    text = pdf_text(services.notice_issue(receivable=rec, actor=staff_user).document)
    gross, credit, net = (Decimal(rec.breakdown[k]) for k in ("gross", "credit", "net"))
    assert gross - credit == net == rec.amount
    assert f"${gross:,.2f}" in text and f"-${credit:,.2f}" in text and f"${net:,.2f}" in text
    assert "Contribución bruta" in text and "Crédito por derecho de agua" in text and "contribución neta" in text
    assert "LAJ-3" in text and "LAJ-4" in text and "LAJ-6" in text
    assert "LAJ-7" in text and "60 días" in text and "0.5 %" in text   # the surcharge and its terms


@pytest.fixture
def three_programs(irr_roll, staff_user):
    """An irrigation roll, a TID charge on a parcel and a franchise tariff on a holder's account."""
    office = factories.office()
    tid = Fund.objects.create(code="tid-rincon", name="Cuenta del DMT de Rincón", lien_kind="TID")
    fra = Fund.objects.create(code="franquicias", name="Fondo especial de franquicias")
    parcel = factories.parcel(cadastre="500-100-200-01", municipality="Rincón")
    factories.own(parcel, factories.person(given="Gloria", first="Méndez", second="Ruiz"))
    holder = factories.person(given="Hotel", first="Playa", second="Azul")
    receivable_create(account=account_for_parcel(parcel), fund=tid, office=office, kind="BENEFIT_CHARGE",
                      source_type="tid:2027", source_id="500-100-200-01", installments=[(date(2026, 10, 1), "300.00")],
                      description="Cargo DMT Rincón FY2027", breakdown={"rule": "TID-2", "fiscal_year": 2027},
                      surcharge_rule="RESOLUTION", creates_lien=True, issued_on=date(2026, 9, 1), actor=staff_user)
    receivable_create(account=account_for_party(holder), fund=fra, office=office, kind="INVOICE",
                      source_type="fra:2027", source_id="FR-001", installments=[(date(2026, 7, 1), "500.00")],
                      description="Tarifa anual de franquicia FY2027",
                      breakdown={"rule": "FRA-1", "franchise": "FR-001"},
                      issued_on=date(2026, 6, 1), actor=staff_user)
    for st in (source_type(irr_roll), "tid:2027", "fra:2027"):
        services.notices_issue_for_source(source_type=st, actor=staff_user)
    return irr_roll


def _csv_rows(batch):
    """The mailing list's rows keyed by the internal column names (its headers are Spanish words)."""
    back = {spanish: column for column, spanish in services.CSV_HEADERS.items()}
    return [{back[k]: v for k, v in row.items()} for row in csv.DictReader(io.StringIO(services.mailing_csv(batch)))]


def test_the_mailing_list_speaks_spanish_and_its_filled_copy_comes_back(three_programs, staff_user):
    batch = MailingBatch.objects.get(source_type="tid:2027")
    text = services.mailing_csv(batch)
    assert text.splitlines()[0].lstrip("\ufeff") == (
        "aviso,catastro,destinatarios,direccion_1,direccion_2,direccion_3,direccion_4,forma_de_envio,"
        "numero_de_rastreo,enviado_el,entregado_el")
    assert "Correo certificado con acuse de recibo" in text and "CERTIFIED_RR" not in text
    notice = batch.notices.get()
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    rows[1][8], rows[1][9] = "9400222", f"{date.today():%d/%m/%Y}"
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    services.mailing_tracking_import(batch=batch, text=out.getvalue(), actor=staff_user)
    notice.refresh_from_db()
    assert (notice.tracking_number, notice.mailed_on) == ("9400222", date.today())


def test_the_mailing_list_marks_certified_mail_for_tid_and_regular_mail_for_franchise_invoices(three_programs):
    methods = {b.source_type: b.method for b in MailingBatch.objects.all()}
    assert methods == {source_type(three_programs): "REGULAR", "tid:2027": "CERTIFIED_RR",
                       "fra:2027": "REGULAR"}
    tid_rows = _csv_rows(MailingBatch.objects.get(source_type="tid:2027"))
    assert [(r["name"], r["method"], r["tracking_number"]) for r in tid_rows] == [
        ("Gloria Méndez Ruiz", "Correo certificado con acuse de recibo", "")]
    assert tid_rows[0]["address_1"] == "Urb. Villa del Carmen" and tid_rows[0]["cadastre"] == "500-100-200-01"
    fra_rows = _csv_rows(MailingBatch.objects.get(source_type="fra:2027"))
    assert [(r["name"], r["method"], r["cadastre"]) for r in fra_rows] == [("Hotel Playa Azul", "Correo regular", "")]
    irr_rows = _csv_rows(MailingBatch.objects.get(source_type=source_type(three_programs)))
    assert {r["method"] for r in irr_rows} == {"Correo regular"} and all(r["tracking_number"] == "" for r in irr_rows)
    assert irr_rows[0]["name"] == "María de los Ángeles Peña Colón y Pedro Juan Peña Colón"
    assert Notice.objects.get(source_type="tid:2027").program == "TID"
    fra_text = pdf_text(Notice.objects.get(source_type="fra:2027").document)
    assert "FR-001" in fra_text and "Correo regular (FRA-3)" in fra_text and "Certificado con acuse" not in fra_text


def test_the_batch_pdf_has_every_notice_in_cadastre_order(irr_roll, staff_user):
    _issue_all(irr_roll, staff_user)
    batch = MailingBatch.objects.get()
    notices = list(services.batch_notices(batch))
    assert batch.notice_count == len(notices) == Receivable.objects.filter(source_type=source_type(irr_roll)).count()
    from pypdf import PdfReader

    with batch.pdf.open("rb") as fh:
        reader = PdfReader(io.BytesIO(fh.read()))
    assert len(reader.pages) == batch.page_count == sum(n.document.page_count for n in notices)
    cadastres = [n.sort_key for n in notices]
    assert cadastres == sorted(cadastres)
    first_pages = []
    page = 0
    for n in notices:
        first_pages.append(reader.pages[page].extract_text())
        page += n.document.page_count
    assert [c in t for c, t in zip(cadastres, first_pages, strict=True)] == [True] * len(notices)
    # a second build changes nothing
    assert services.mailing_batch_build_pdf(batch=batch, actor=staff_user).pdf_sha256 == batch.pdf_sha256


def test_tracking_import_is_all_or_nothing_with_row_and_column_errors(three_programs, staff_user):
    batch = MailingBatch.objects.get(source_type="tid:2027")
    notice = batch.notices.get()
    today = date.today()
    bad = ("notice,tracking_number,mailed_on,delivered_on\n"
           f"{notice.display_number},,{today:%Y-%m-%d},\n"            # certified without tracking
           f"AV-1999-000001,X,{today:%Y-%m-%d},\n"                     # not in the batch
           f"{notice.display_number},9400 1000 0000 0000 0000 01,31/02/2026,\n")
    with pytest.raises(services.MailingError) as exc:
        services.mailing_tracking_import(batch=batch, text=bad, actor=staff_user)
    assert (2, "tracking_number") in [(r, c) for r, c, _ in exc.value.rows]
    assert (3, "notice") in [(r, c) for r, c, _ in exc.value.rows]
    assert (4, "notice") in [(r, c) for r, c, _ in exc.value.rows]     # repeated
    notice.refresh_from_db()
    assert (notice.tracking_number, notice.mailed_on, notice.status) == ("", None, "ISSUED")   # nothing changed

    good = ("notice,tracking_number,mailed_on,delivered_on\n"
            f"{notice.display_number},9400100000000000000001,{today:%d/%m/%Y},{today:%Y-%m-%d}\n")
    result = services.mailing_tracking_import(batch=batch, text=good, actor=staff_user)
    assert (result.rows, result.changed) == (1, 1)
    notice.refresh_from_db()
    assert (notice.tracking_number, notice.mailed_on, notice.delivered_on, notice.status) == (
        "9400100000000000000001", today, today, "DELIVERED")
    assert selectors.notification_date(notice) == today      # certified: the return receipt's date
    assert services.mailing_tracking_import(batch=batch, text=good, actor=staff_user).changed == 0   # same again
    with pytest.raises(services.MailingError):   # a recorded delivery date is not changed
        services.notice_mailing_record(notice=notice, actor=staff_user, delivered_on=date(2000, 1, 1))


def test_mailing_facts_per_notice_and_the_notification_date(irr_roll, staff_user):
    _issue_all(irr_roll, staff_user)
    notice = Notice.objects.order_by("seq").first()
    today = date.today()
    assert selectors.notification_date(notice) is None
    with pytest.raises(services.MailingError) as exc:
        services.notice_mailing_record(notice=notice, actor=staff_user, delivered_on=today)
    assert "delivered_on" in exc.value.message_dict
    services.notice_mailing_record(notice=notice, actor=staff_user, mailed_on=today)
    notice.refresh_from_db()
    assert notice.status == "MAILED" and selectors.notification_date(notice) == today   # regular mail: mailing date
    assert list(selectors.notices_notified(on_or_before=today)) == [notice]


def test_the_roll_cycle_issues_the_notices_after_commit(irrigation_figures, staff_user,
                                                         django_capture_on_commit_callbacks):
    from assessments.rolls import services as rolls
    from tests.notices.conftest import give_owners

    give_owners(irrigation_figures.district)
    roll = rolls.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        rolls.roll_certify(roll=roll, actor=staff_user)
    assert callbacks
    receivables = Receivable.objects.filter(source_type=source_type(roll))
    # whichever step bills the roll (certification today), its notices follow after commit
    assert Notice.objects.count() == receivables.count() > 0
    # in-process tasks: numbered now, each PDF rendered on its first download
    assert not Notice.objects.filter(document__isnull=False).exists()
    before = list(Notice.objects.values_list("pk", "number"))
    with django_capture_on_commit_callbacks(execute=True):
        rolls.roll_finalize(roll=roll, actor=staff_user, on=date(2026, 7, 1))
    assert list(Notice.objects.values_list("pk", "number")) == before      # nothing missing: nothing new
    notice = Notice.objects.first()
    document = services.notice_document(notice=notice)
    assert document.page_count == 1 and "IRR-10" in pdf_text(document)   # the lien the roll constitutes


def test_staff_pages_and_downloads(irr_roll, staff_client, staff_user):
    _issue_all(irr_roll, staff_user)
    batch = MailingBatch.objects.get()
    notice = Notice.objects.order_by("seq").first()
    for url in (reverse("notices:batch_list"), reverse("notices:batch_detail", args=[batch.pk]),
                reverse("notices:list") + "?q=Peña", reverse("notices:detail", args=[notice.pk])):
        response = staff_client.get(url)
        assert response.status_code == 200, url
        assert notice.display_number.encode() in response.content or url.endswith("envios/")
    response = staff_client.get(reverse("notices:pdf", args=[notice.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert DocumentDownloadLog.objects.filter(document=notice.document, user=staff_user).count() == 1
    response = staff_client.get(reverse("notices:batch_csv", args=[batch.pk]))
    assert response.status_code == 200 and b"CERTIFIED_RR" not in response.content
    assert staff_client.get(reverse("notices:batch_pdf", args=[batch.pk]))["Content-Type"] == "application/pdf"

    today = date.today()
    response = staff_client.post(reverse("notices:mailing", args=[notice.pk]), {"mailed_on": "2000-01-01"})
    assert response.status_code == 400 and "antes de la fecha del aviso" in response.content.decode()
    response = staff_client.post(reverse("notices:mailing", args=[notice.pk]),
                                 {"mailed_on": today.isoformat(), "tracking_number": ""})
    assert response.status_code == 302
    notice.refresh_from_db()
    assert notice.mailed_on == today

    response = staff_client.post(reverse("notices:correct", args=[notice.pk]), {"reason": "Nuevo dueño",
                                                                               "language": "es"})
    assert response.status_code == 302
    assert Notice.objects.get(replaces=notice).display_number == f"{notice.number}-C1"


def test_an_auditor_reads_but_cannot_record(irr_roll, staff_user, auditor_user, client):
    _issue_all(irr_roll, staff_user)
    notice = Notice.objects.first()
    client.force_login(auditor_user)
    assert client.get(reverse("notices:detail", args=[notice.pk])).status_code == 200
    assert client.post(reverse("notices:mailing", args=[notice.pk]),
                       {"mailed_on": date.today().isoformat()}).status_code == 403


def test_issue_demo_notices_renders_the_demo_owners_and_numbers_the_rest(irr_roll, staff_user):
    from districts.demo import OWNER_REF
    from districts.models import Party

    rec = Receivable.objects.filter(source_type=source_type(irr_roll)).order_by("source_id").last()
    owner = rec.account.parcel.ownerships.get().party
    Party.objects.filter(pk=owner.pk).update(ref=OWNER_REF)
    out = io.StringIO()
    call_command("issue_demo_notices", stdout=out)
    total = Receivable.objects.count()
    assert Notice.objects.count() == total
    assert list(Notice.objects.filter(document__isnull=False).values_list("receivable_id", flat=True)) == [rec.pk]
    call_command("issue_demo_notices", stdout=io.StringIO())
    assert Notice.objects.count() == total and Notice.objects.filter(document__isnull=False).count() == 1


def test_mailing_every_notice_of_a_sid_round_meets_its_sid2_clock(resolution, staff_user):
    from core.models import Clock
    from districts.improvement import services as improvement

    today = date.today()
    improvement.sid_crim_receipt_record(actor=staff_user, resolution=resolution, received_on=date(2026, 7, 1))
    first_round = resolution.notice_rounds.get(sequence=1)
    clock = Clock.objects.get(rule="SID-2", object_id=first_round.pk)
    assert clock.status == "OPEN" and clock.due_date >= today
    fund = Fund.objects.create(code="dem", name="Fondo de Distritos Especiales de Mejoramiento", lien_kind="SID")
    office = factories.office(name="CRIM", kind="CRIM")
    parcels = list(resolution.district.memberships.values_list("parcel_id", flat=True))
    from districts.models import Parcel

    for parcel in Parcel.objects.filter(pk__in=parcels):
        receivable_create(
            account=account_for_parcel(parcel), fund=fund, office=office, kind="BENEFIT_CHARGE",
            source_type=f"sid:{resolution.pk}:2027", source_id=parcel.cadastre,
            installments=[(date(2027, 1, 1), "100.00")], description=f"Cargo por beneficio FY2027 — {parcel.cadastre}",
            breakdown={"rule": "SID-1", "fiscal_year": 2027, "notice_round": {"kind": "SID", "id": first_round.pk},
                       "penalty_terms": "Recargo de 10 % a los 30 días (Resolución R-1)."},
            surcharge_rule="RESOLUTION", surcharge_terms={"grace_days": "30", "surcharge_pct": "10",
                                                          "interest_pct_per_month": "0", "citation": "Resolución R-1"},
            creates_lien=True, issued_on=date(2026, 12, 1), actor=staff_user)
    services.notices_issue_for_source(source_type=f"sid:{resolution.pk}:2027", actor=staff_user)
    notices = list(Notice.objects.filter(source_type=f"sid:{resolution.pk}:2027").order_by("seq"))
    assert len(notices) == 3 and {n.method for n in notices} == {"REGULAR"} and {n.program for n in notices} == {"SID"}
    text = pdf_text(notices[0].document)
    assert "Resolución R-1" in text and "SID-4" in text and "10 %" in text

    for notice in notices[:2]:
        services.notice_mailing_record(notice=notice, actor=staff_user, mailed_on=today)
    assert Clock.objects.get(pk=clock.pk).status == "OPEN"        # one owner not notified yet
    services.notice_mailing_record(notice=notices[2], actor=staff_user, mailed_on=today)
    clock.refresh_from_db()
    first_round.refresh_from_db()
    assert (first_round.mailed_on, clock.met_on, clock.status) == (today, today, "MET")


def test_the_tracking_upload_page_shows_every_error_and_changes_nothing(three_programs, staff_client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    batch = MailingBatch.objects.get(source_type="tid:2027")
    notice = batch.notices.get()
    url = reverse("notices:batch_import", args=[batch.pk])
    bad = f"notice,tracking_number,mailed_on\n{notice.display_number},,{date.today():%Y-%m-%d}\nAV-1,,\n"
    response = staff_client.post(url, {"file": SimpleUploadedFile("lista.csv", bad.encode(), "text/csv")})
    body = response.content.decode()
    assert response.status_code == 400 and 'id="import-errors"' in body
    assert "tracking_number" in body and "no es de este lote" in body
    notice.refresh_from_db()
    assert notice.mailed_on is None
    good = f"notice,tracking_number,mailed_on\n{notice.display_number},9400111,{date.today():%Y-%m-%d}\n"
    response = staff_client.post(url, {"file": SimpleUploadedFile("lista.csv", good.encode("cp1252"), "text/csv")})
    assert response.status_code == 302
    notice.refresh_from_db()
    assert (notice.tracking_number, notice.status) == ("9400111", "MAILED")


def test_the_mailing_csv_never_carries_a_live_formula(three_programs):
    # The addressees are the notice's snapshot of the register when it was issued.
    Notice.objects.update(addressees=[{"name": '=HYPERLINK("http://evil.example","x")',
                                       "address_lines": ["@SUM(A1)", "-1+1", "+cmd"], "attention": "=A1"}])
    for batch in MailingBatch.objects.all():
        text = services.mailing_csv(batch)
        cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
        assert any("HYPERLINK" in c for c in cells)
        assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
