"""The owners' portal: activation with the code printed on a notice, staff-created accounts, every
other owner's record a 404 (pages and API), downloads logged, co-owners, and a sale."""
from __future__ import annotations

import io
import re
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.urls import reverse

from assessments.notices.models import Notice, NoticeAddressee
from core.models import DocumentDownloadLog
from districts.models import Ownership, Party
from tests import factories
from tests.notices.conftest import pdf_text
from tests.portal.conftest import SOURCE, _charge, link

pytestmark = pytest.mark.django_db
PASSWORD = "Lluvia-sobre-Lajas-2026"


def _page_urls(w, who: str) -> list[str]:
    parcel, notice, account, payment = (getattr(w, f"parcel_{who}"), getattr(w, f"notice_{who}"),
                                        getattr(w, f"account_{who}"), getattr(w, f"payment_{who}"))
    return [f"/portal/parcelas/{parcel.pk}/", f"/portal/avisos/{notice.pk}/pdf/", f"/portal/cuentas/{account.pk}/",
            f"/portal/pagos/{payment.pk}/recibo/"]


def _api_urls(w, who: str) -> list[str]:
    parcel, notice, account, payment = (getattr(w, f"parcel_{who}"), getattr(w, f"notice_{who}"),
                                        getattr(w, f"account_{who}"), getattr(w, f"payment_{who}"))
    base = "/api/v1/portal"
    return [f"{base}/notices/{notice.pk}/", f"{base}/notices/{notice.pk}/pdf/", f"{base}/parcels/{parcel.pk}/",
            f"{base}/accounts/{account.pk}/", f"{base}/payments/{payment.pk}/",
            f"{base}/payments/{payment.pk}/receipt/"]


def test_an_owner_reaches_each_of_their_records(world, client):
    client.force_login(world.ana_user)
    for url in _page_urls(world, "a") + _api_urls(world, "a"):
        assert client.get(url).status_code == 200, url
    home = client.get("/portal/").content.decode()
    assert world.parcel_a.cadastre in home and world.notice_a.display_number in home
    assert world.parcel_b.cadastre not in home


def test_every_record_of_another_owner_is_a_404_in_pages_and_api(world, client):
    client.force_login(world.beto_user)
    for url in _page_urls(world, "a") + _api_urls(world, "a"):
        assert client.get(url).status_code == 404, url
    for url in ("/portal/parcelas/999999/", "/portal/avisos/999999/pdf/", "/portal/cuentas/999999/",
                "/portal/pagos/999999/recibo/", "/api/v1/portal/notices/999999/", "/api/v1/portal/accounts/999999/"):
        assert client.get(url).status_code == 404, url
    # and the lists show only his own
    assert [n["id"] for n in client.get("/api/v1/portal/notices/").json()] == [world.notice_b.pk]
    assert [p["id"] for p in client.get("/api/v1/portal/parcels/").json()] == [world.parcel_b.pk]
    assert [a["id"] for a in client.get("/api/v1/portal/accounts/").json()] == [world.account_b.pk]
    assert [p["id"] for p in client.get("/api/v1/portal/payments/").json()] == [world.payment_b.pk]
    for page in ("/portal/", "/portal/avisos/", "/portal/pagos/"):
        body = client.get(page).content.decode()
        assert world.notice_a.display_number not in body and world.payment_a.receipt_number not in body
    assert not DocumentDownloadLog.objects.exists()   # nothing of Ana's was sent


def test_the_portal_api_is_for_owners_only(world, client, staff_user):
    assert client.get("/api/v1/portal/notices/").status_code == 403          # anonymous
    client.force_login(staff_user)
    assert client.get("/api/v1/portal/notices/").status_code == 403          # office staff use their own pages
    assert client.get("/portal/").status_code == 302
    orphan = factories.person(given="Sin", first="Cuenta")
    user = User.objects.create_user("sinparty", password="x")
    client.force_login(user)
    assert client.get("/api/v1/portal/notices/").status_code == 403          # not an owner
    assert orphan.user_id is None


def test_downloads_are_logged(world, client):
    client.force_login(world.ana_user)
    client.get(f"/portal/avisos/{world.notice_a.pk}/pdf/")
    client.get(f"/api/v1/portal/notices/{world.notice_a.pk}/pdf/")
    response = client.get(f"/portal/pagos/{world.payment_a.pk}/recibo/")
    assert response["Content-Type"] == "application/pdf"
    logs = DocumentDownloadLog.objects.filter(user=world.ana_user)
    assert sorted(logs.values_list("document__kind", flat=True)) == ["NOTICE", "NOTICE", "RECEIPT"]
    assert all(log.ip == "127.0.0.1" for log in logs)


def test_co_owners_each_see_the_parcel_and_its_notice(world, client):
    for user in (world.ana_user, world.carla_user):
        client.force_login(user)
        assert [n["id"] for n in client.get("/api/v1/portal/notices/").json()] == [world.notice_a.pk]
        parcel_page = client.get(f"/portal/parcelas/{world.parcel_a.pk}/").content.decode()
        assert world.notice_a.display_number in parcel_page
        assert client.get(f"/portal/avisos/{world.notice_a.pk}/pdf/").status_code == 200
    text = pdf_text(world.notice_a.document)
    assert "Ana Isabel Rivera Soto" in text and "Carla Rivera Soto" in text


def test_after_a_sale_the_new_owner_sees_the_open_charges_and_the_seller_keeps_what_was_theirs(world, client,
                                                                                                make_user):
    sold_on = date(2026, 9, 1)
    Ownership.objects.filter(parcel=world.parcel_a).update(end_date=sold_on)
    dora = factories.person(given="Dora", first="Maldonado", second="Vega")
    factories.own(world.parcel_a, dora, start=sold_on)
    dora_user = link(dora, make_user("dora.duena", "owner"))

    client.force_login(dora_user)
    page = client.get(f"/portal/parcelas/{world.parcel_a.pk}/").content.decode()
    assert world.receivable_a.payment_reference in page                     # the charge follows the land
    detail = client.get(f"/api/v1/portal/parcels/{world.parcel_a.pk}/").json()
    assert {i["reference"] for i in detail["open_installments"]} == {world.receivable_a.payment_reference}
    statement = client.get(f"/api/v1/portal/accounts/{world.account_a.pk}/").json()
    assert statement["since"] == "2026-09-01" and statement["balance"] == "150.00"
    assert statement["opening_balance"] == "150.00"      # 200 charged − 50 Ana paid, before Dora owned it
    account_page = client.get(f"/portal/cuentas/{world.account_a.pk}/").content.decode()
    assert world.payment_a.receipt_number not in account_page                   # the seller's payment is hers
    for url in (f"/portal/avisos/{world.notice_a.pk}/pdf/", f"/portal/pagos/{world.payment_a.pk}/recibo/",
                f"/api/v1/portal/notices/{world.notice_a.pk}/", f"/api/v1/portal/payments/{world.payment_a.pk}/"):
        assert client.get(url).status_code == 404, url

    client.force_login(world.ana_user)
    for url in (f"/portal/parcelas/{world.parcel_a.pk}/", f"/portal/cuentas/{world.account_a.pk}/",
                f"/api/v1/portal/parcels/{world.parcel_a.pk}/", f"/api/v1/portal/accounts/{world.account_a.pk}/"):
        assert client.get(url).status_code == 404, url
    for url in (f"/portal/avisos/{world.notice_a.pk}/pdf/", f"/portal/pagos/{world.payment_a.pk}/recibo/"):
        assert client.get(url).status_code == 200, url


@pytest.fixture
def diego(world, staff_user):
    """An owner without a portal account, with a notice (and its activation code) of his own."""
    from assessments.ledger.services import account_for_parcel
    from assessments.notices import services

    diego = factories.person(given="Diego", first="Ortiz", second="Lugo")
    parcel = factories.parcel(cadastre="100-000-000-03")
    factories.own(parcel, diego)
    receivable = _charge(account_for_parcel(parcel), world.fund, world.office, "c", parcel.cadastre, staff_user)
    notice = services.notice_issue(receivable=receivable, actor=staff_user)
    assert notice.receivable.source_type == SOURCE
    text = pdf_text(notice.document)
    code = [c for c in re.findall(r"[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}", text)
            if c != notice.document.verification_code]
    assert len(code) == 1
    return diego, parcel, notice, code[0]


def _activate(client, code, cadastre, username="diego.ortiz", password=PASSWORD, password2=None):
    return client.post("/portal/activar/", {"code": code, "cadastre": cadastre, "username": username,
                                            "password1": password, "password2": password2 or password})


def test_an_owner_activates_their_account_with_the_code_printed_on_the_notice(diego, client):
    party, parcel, notice, code = diego
    for bad_code, cadastre in (("ABCD-EFGH-JKLM", parcel.cadastre), (code, "100-000-000-01"), ("no", parcel.cadastre)):
        response = _activate(client, bad_code, cadastre)
        assert response.status_code == 200 and "no es válido" in response.content.decode()
    assert not User.objects.filter(username="diego.ortiz").exists()
    response = _activate(client, code, parcel.cadastre, password="123")
    assert "password1" in response.context["form"].errors
    assert not User.objects.filter(username="diego.ortiz").exists()
    response = _activate(client, code, parcel.cadastre, username="ana.duena")
    assert "username" in response.context["form"].errors

    response = _activate(client, code.lower().replace("-", " "), parcel.cadastre)
    assert response.status_code == 302 and response["Location"] == reverse("portal:home")
    user = User.objects.get(username="diego.ortiz")
    party.refresh_from_db()
    assert party.user == user and user.groups.filter(name="owner").exists() and user.check_password(PASSWORD)
    assert client.get("/portal/").status_code == 200                       # signed in
    assert client.get(f"/portal/avisos/{notice.pk}/pdf/").status_code == 200
    assert NoticeAddressee.objects.get(notice=notice, party=party).activation_used_at is not None

    client.logout()
    response = _activate(client, code, parcel.cadastre, username="otro.diego")
    assert "no es válido" in response.content.decode() and not User.objects.filter(username="otro.diego").exists()


def test_staff_create_an_owner_account_and_portal_invite_prints_the_link(diego, staff_user):
    from assessments.portal.services import owner_account_create

    party, _, notice, code = diego
    out = io.StringIO()
    call_command("portal_invite", str(party.pk), "diego.o", stdout=out)
    assert "/cuentas/reset/" in out.getvalue()
    user = User.objects.get(username="diego.o")
    party.refresh_from_db()
    assert party.user == user and not user.has_usable_password()
    assert NoticeAddressee.objects.get(notice=notice, party=party).activation_used_at is not None   # code retired
    with pytest.raises(Exception, match="ya tiene cuenta"):
        owner_account_create(party=party, username="diego.2", actor=staff_user)


def test_the_owner_pages_render(world, client):
    client.force_login(world.ana_user)
    for url in ("/portal/", "/portal/avisos/", "/portal/pagos/", f"/portal/cuentas/{world.account_a.pk}/",
                f"/portal/parcelas/{world.parcel_a.pk}/"):
        response = client.get(url)
        assert response.status_code == 200, url
    statement = client.get(f"/portal/cuentas/{world.account_a.pk}/").content.decode()
    assert world.receivable_a.payment_reference in statement and "$150.00" in statement
    assert Party.objects.filter(user=world.ana_user).exists()
    assert Notice.objects.filter(source_type=SOURCE).count() == 2


def test_a_receipt_not_yet_printed_is_issued_on_the_owners_first_download(world, client, staff_user):
    """A payment by bank file or API has no printed receipt: the owner's first download issues it, once."""
    from assessments.ledger.payments import payment_return
    from assessments.ledger.receipts import receipt_document
    from assessments.ledger.services import payment_record
    from assessments.models import Payment

    payment = payment_record(account=world.account_a, amount="25.00", method="TRANSFER", paid_on=date(2026, 9, 1),
                             payer=world.ana, idempotency_key="pay-a-bank", batch=None, actor=staff_user,
                             source=Payment.Source.BANK)
    assert receipt_document(payment) is None
    client.force_login(world.ana_user)
    assert f"/portal/pagos/{payment.pk}/recibo/" in client.get("/portal/pagos/").content.decode()
    first = client.get(f"/portal/pagos/{payment.pk}/recibo/")
    assert first.status_code == 200 and b"".join(first.streaming_content).startswith(b"%PDF")
    document = receipt_document(payment)
    assert document is not None
    again = client.get(f"/api/v1/portal/payments/{payment.pk}/receipt/")
    assert again.status_code == 200 and receipt_document(payment).pk == document.pk
    from core.models import Document

    assert Document.objects.filter(kind="RECEIPT", object_id=payment.pk).count() == 1
    # Beto cannot make Ana's receipt appear: 404, nothing issued.
    other = payment_record(account=world.account_a, amount="5.00", method="TRANSFER", paid_on=date(2026, 9, 2),
                           payer=world.ana, idempotency_key="pay-a-bank-2", batch=None, actor=staff_user,
                           source=Payment.Source.BANK)
    client.force_login(world.beto_user)
    assert client.get(f"/portal/pagos/{other.pk}/recibo/").status_code == 404
    assert receipt_document(other) is None
    # A payment returned before any receipt was printed gets none.
    payment_return(payment=other, on=date(2026, 9, 5), reason="Fondos insuficientes", actor=staff_user)
    client.force_login(world.ana_user)
    assert client.get(f"/portal/pagos/{other.pk}/recibo/").status_code == 404


def test_an_owner_asks_for_english_notices_and_the_next_ones_come_in_english(world, client, staff_user):
    from assessments.notices import services as notices
    from assessments.notices.rules import notice_language

    client.force_login(world.beto_user)
    assert 'id="notice-language"' in client.get("/portal/").content.decode()
    assert client.post("/portal/idioma-avisos/", {"language": "xx"}).status_code == 302
    world.beto.refresh_from_db()
    assert world.beto.notice_language == "es"                      # unknown language: refused, nothing changed
    client.post("/portal/idioma-avisos/", {"language": "en"})
    world.beto.refresh_from_db()
    assert world.beto.notice_language == "en"
    assert world.notice_b.language == "es"                         # issued notices stay as they are
    # Beto's next charge: its notice is in English, and says so in English.
    from tests.portal.conftest import _charge

    receivable = _charge(world.account_b, world.fund, world.office, "b2", world.parcel_b.cadastre, staff_user)
    notice = notices.notice_issue(receivable=receivable, actor=staff_user)
    assert notice.language == "en"
    response = client.get(f"/portal/avisos/{notice.pk}/pdf/")
    from pypdf import PdfReader

    text = PdfReader(io.BytesIO(b"".join(response.streaming_content))).pages[0].extract_text()
    assert "NOTICE" in text.upper() and "Roberto" in text
    # Co-owners who did not all ask for English get the official Spanish.
    assert notice_language([{"language": "en"}, {"language": "es"}]) == "es"
    assert notice_language([{"language": "en"}, {"language": "en"}]) == "en"
    assert notice_language([{}]) == "es" and notice_language([]) == "es"


def test_the_notice_language_through_the_api(world, client):
    client.force_login(world.carla_user)
    url = "/api/v1/portal/notice-language/"
    assert client.get(url).json() == {"language": "es"}
    bad = client.put(url, {"language": "fr"}, content_type="application/json")
    assert bad.status_code == 400 and "language" in bad.json()
    assert client.put(url, {"language": "en"}, content_type="application/json").json() == {"language": "en"}
    world.carla.refresh_from_db()
    assert world.carla.notice_language == "en" and world.ana.notice_language == "es"
    client.force_login(world.ana_user)
    assert client.get(url).json() == {"language": "es"}       # each owner sees and sets only their own


def test_a_receipt_first_downloaded_after_a_sale_names_the_owners_on_the_day_of_payment(world, client, staff_user,
                                                                                       make_user):
    from assessments.ledger.receipts import receipt_document
    from assessments.ledger.services import payment_record
    from assessments.models import Payment

    payment = payment_record(account=world.account_a, amount="20.00", method="TRANSFER", paid_on=date(2026, 8, 20),
                             payer=world.ana, idempotency_key="pay-a-before-sale", batch=None, actor=staff_user,
                             source=Payment.Source.BANK)
    sold_on = date(2026, 9, 1)
    Ownership.objects.filter(parcel=world.parcel_a).update(end_date=sold_on)
    dora = factories.person(given="Dora", first="Maldonado", second="Vega")
    factories.own(world.parcel_a, dora, start=sold_on)
    client.force_login(world.ana_user)
    response = client.get(f"/portal/pagos/{payment.pk}/recibo/")
    assert response.status_code == 200
    from pypdf import PdfReader

    text = PdfReader(io.BytesIO(b"".join(response.streaming_content))).pages[0].extract_text()
    assert "Ana Isabel" in text and "Dora" not in text
    assert dora.pk not in receipt_document(payment).owner_party_ids


def test_the_language_form_of_an_owner_account_without_a_party_is_a_404(client, make_user):
    user = make_user("sin.parte", "owner")
    client.force_login(user)
    assert client.post("/portal/idioma-avisos/", {"language": "en"}).status_code == 404
