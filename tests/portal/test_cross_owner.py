"""An owner can never reach another owner's data by any URL or API call (issue #6).

Every notice, receipt, statement, parcel and payment in the database is tried, by each owner, on
every portal page and API endpoint that takes an id; what is not theirs is a 404 each time and
nothing of it is downloaded (so nothing is logged). A last test checks that no portal URL with an
id escapes this list, so a new endpoint cannot be added without its cross-owner test.
"""
from __future__ import annotations

from datetime import date

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from assessments.models import Account, Payment
from assessments.notices.models import Notice
from core.models import DocumentDownloadLog
from districts.models import Parcel
from tests import factories
from tests.portal.conftest import SOURCE, _charge, _pay

pytestmark = pytest.mark.django_db

# Every portal URL that takes an id, by the kind of record the id names.
URLS = {
    "parcel": ["/portal/parcelas/{pk}/", "/api/v1/portal/parcels/{pk}/"],
    "notice": ["/portal/avisos/{pk}/pdf/", "/api/v1/portal/notices/{pk}/", "/api/v1/portal/notices/{pk}/pdf/"],
    "account": ["/portal/cuentas/{pk}/", "/api/v1/portal/accounts/{pk}/"],        # the statements
    "payment": ["/portal/pagos/{pk}/recibo/", "/api/v1/portal/payments/{pk}/",
                "/api/v1/portal/payments/{pk}/receipt/"],
}
MODELS = {"parcel": Parcel, "notice": Notice, "account": Account, "payment": Payment}
# The id-taking portal URLs that are not an owner's record (staff pages under /portal/personal/).
NOT_OWNER_RECORDS = {"/portal/personal/invitar/{pk}/"}


@pytest.fixture
def crowd(world, staff_user):
    """The portal world plus records no portal user owns: Dora (no account) with a parcel, its
    notice and a paid receipt, and a party account (a franchise holder's) of Beto's with its own
    charge, notice and payment."""
    from assessments.ledger.receivables import account_for_parcel, account_for_party
    from assessments.ledger.services import receivable_create
    from assessments.notices import services

    dora = factories.person(given="Dora", first="Maldonado", second="Vega")
    parcel_d = factories.parcel(cadastre="100-000-000-04")
    factories.own(parcel_d, dora)
    account_d = account_for_parcel(parcel_d)
    notice_d = services.notice_issue(
        receivable=_charge(account_d, world.fund, world.office, "d", parcel_d.cadastre, staff_user), actor=staff_user)
    payment_d = _pay(account_d, dora, "pay-d", staff_user)
    account_beto = account_for_party(world.beto)
    invoice = receivable_create(
        account=account_beto, fund=world.fund, office=world.office, kind="INVOICE", source_type=SOURCE,
        source_id="bp", installments=[(date(2026, 7, 1), "80.00")], description="Factura de franquicia FY2027",
        breakdown={"fiscal_year": 2027}, surcharge_rule="NONE", creates_lien=False, issued_on=date(2026, 7, 1),
        actor=staff_user)
    notice_bp = services.notice_issue(receivable=invoice, actor=staff_user)
    payment_bp = _pay(account_beto, world.beto, "pay-bp", staff_user)
    return {
        # what each owner may see, written out by hand (not computed by the selectors under test)
        "ana": {"parcel": {world.parcel_a.pk}, "notice": {world.notice_a.pk}, "account": {world.account_a.pk},
                "payment": {world.payment_a.pk}},
        # a co-owner: the parcel, its notice, its account and the payment made on it while she co-owned it
        "carla": {"parcel": {world.parcel_a.pk}, "notice": {world.notice_a.pk}, "account": {world.account_a.pk},
                  "payment": {world.payment_a.pk}},
        "beto": {"parcel": {world.parcel_b.pk}, "notice": {world.notice_b.pk, notice_bp.pk},
                 "account": {world.account_b.pk, account_beto.pk}, "payment": {world.payment_b.pk, payment_bp.pk}},
        "_dora": {"notice": notice_d, "payment": payment_d},
    }


@pytest.mark.parametrize("who", ["ana", "carla", "beto"])
def test_each_owner_gets_a_404_for_every_record_not_theirs_and_a_200_for_theirs(world, crowd, client, who):
    client.force_login(getattr(world, f"{who}_user"))
    mine = crowd[who]
    tried = 0
    for kind, model in MODELS.items():
        ids = set(model.objects.values_list("pk", flat=True))
        assert mine[kind] <= ids and ids - mine[kind], kind          # there is something of others' to try
        for pk in ids:
            for url in URLS[kind]:
                expected = 200 if pk in mine[kind] else 404
                assert client.get(url.format(pk=pk)).status_code == expected, (url.format(pk=pk), who)
                tried += expected == 404
    assert tried >= 20
    sent = set(DocumentDownloadLog.objects.values_list("document_id", flat=True))
    theirs = {n.document_id for n in Notice.objects.filter(pk__in=mine["notice"])}
    assert sent and sent <= theirs | _receipt_documents(mine["payment"])     # only their own files went out


def _receipt_documents(payment_ids) -> set[int]:
    from assessments.ledger.receipts import receipt_document

    return {receipt_document(p).pk for p in Payment.objects.filter(pk__in=payment_ids)}


@pytest.mark.parametrize("who", ["ana", "carla", "beto"])
def test_each_list_shows_only_the_owners_own_records(world, crowd, client, who):
    client.force_login(getattr(world, f"{who}_user"))
    mine = crowd[who]
    assert {n["id"] for n in client.get("/api/v1/portal/notices/").json()} == mine["notice"]
    assert {p["id"] for p in client.get("/api/v1/portal/parcels/").json()} == mine["parcel"]
    assert {a["id"] for a in client.get("/api/v1/portal/accounts/").json()} == mine["account"]
    assert {p["id"] for p in client.get("/api/v1/portal/payments/").json()} == mine["payment"]
    others_notices = Notice.objects.exclude(pk__in=mine["notice"])
    others_payments = Payment.objects.exclude(pk__in=mine["payment"])
    for page in ("/portal/", "/portal/avisos/", "/portal/pagos/"):
        body = client.get(page).content.decode()
        assert not [n.display_number for n in others_notices if n.display_number in body], page
        assert not [p.receipt_number for p in others_payments if p.receipt_number in body], page


def test_an_owner_account_without_a_party_reaches_nothing(world, crowd, client, owner_user):
    client.force_login(owner_user)                       # the owner role, linked to no party
    for kind, model in MODELS.items():
        for pk in model.objects.values_list("pk", flat=True):
            for url in URLS[kind]:
                status = client.get(url.format(pk=pk)).status_code
                assert status in (403, 404) and (status == 404 or url.startswith("/api/")), url
    assert not DocumentDownloadLog.objects.exists()


def test_office_staff_linked_to_a_party_do_not_download_through_the_portal(world, client, make_user):
    clerk = make_user("clerk.ana", "staff", "owner")
    world.ana.user = clerk
    world.ana.save()
    client.force_login(clerk)
    response = client.get(f"/portal/avisos/{world.notice_a.pk}/pdf/")
    assert response.status_code == 302 and response["Location"] == "/"          # staff use their own pages
    assert not DocumentDownloadLog.objects.exists()


def test_every_portal_url_with_an_id_is_in_the_cross_owner_list():
    def walk(patterns, prefix=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                yield prefix + str(p.pattern)

    routes = {"/" + r.replace("<int:pk>", "{pk}") for r in walk(get_resolver().url_patterns)
              if r.startswith(("portal/", "api/v1/portal/")) and "<" in r}
    covered = {u for urls in URLS.values() for u in urls} | NOT_OWNER_RECORDS
    assert routes == covered


def test_a_download_costs_five_queries_and_no_rendering(world, client, django_assert_max_num_queries, monkeypatch):
    from assessments.notices import services as notice_services

    def no_rendering(**kwargs):
        raise AssertionError("a stored notice is sent as it is")

    monkeypatch.setattr(notice_services, "notice_document", no_rendering)
    client.force_login(world.ana_user)
    url = f"/portal/avisos/{world.notice_a.pk}/pdf/"
    # session, user, the roles (does this account owe a second factor? core/otp.py, on every request so a role
    # granted mid-session is enforced), notice + ownership + role + file, log
    with django_assert_max_num_queries(5):
        response = client.get(url)
        body = b"".join(response.streaming_content)
    assert response.status_code == 200 and body.startswith(b"%PDF")
    assert body == world.notice_a.document.file.open("rb").read()
    assert response["Content-Disposition"] == f'attachment; filename="{world.notice_a.display_number}.pdf"'
    assert response["Cache-Control"] == "private, no-store"
    log = DocumentDownloadLog.objects.get()
    assert (log.document_id, log.user_id, log.ip) == (world.notice_a.document_id, world.ana_user.pk, "127.0.0.1")


def test_a_notice_numbered_without_its_pdf_is_rendered_once_then_served_stored(world, client):
    Notice.objects.filter(pk=world.beto_user.party.notice_addressees.get().notice_id).update(document=None)
    client.force_login(world.beto_user)
    url = f"/portal/avisos/{world.notice_b.pk}/pdf/"
    first = client.get(url)
    assert first.status_code == 200 and b"".join(first.streaming_content).startswith(b"%PDF")
    notice = Notice.objects.get(pk=world.notice_b.pk)
    assert notice.document_id is not None
    second = client.get(url)
    assert second.status_code == 200
    assert list(DocumentDownloadLog.objects.values_list("document_id", flat=True)) == [notice.document_id] * 2


def test_a_receipt_download_is_logged_and_sent_as_stored(world, client):
    client.force_login(world.carla_user)                 # the co-owner: a payment on the parcel while she owned it
    response = client.get(f"/portal/pagos/{world.payment_a.pk}/recibo/")
    assert response.status_code == 200 and b"".join(response.streaming_content).startswith(b"%PDF")
    assert DocumentDownloadLog.objects.get().user == world.carla_user
