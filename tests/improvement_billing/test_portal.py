"""Owners' portal: benefit charges, their notices and payments appear for the parcel's owners,
and nobody else reaches them (404)."""
from datetime import date
from decimal import Decimal

import pytest

from assessments.improvement_billing import services
from assessments.ledger.payments import payment_record
from assessments.models import Payment, Receivable
from assessments.notices.models import Notice
from districts.models import Ownership

from .conftest import TODAY

pytestmark = pytest.mark.django_db


@pytest.fixture
def billed(received, staff_user, make_user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        run = services.improvement_bill(district=received.district, fiscal_year=2027, actor=staff_user, today=TODAY)
    recs = {r.account.parcel.cadastre: r for r in Receivable.objects.filter(source_type=run.source_type)}
    users = {}
    for cadastre in ("100-200-300-01", "100-200-300-02"):
        party = Ownership.objects.get(parcel__cadastre=cadastre).party
        party.user = make_user(f"owner-{cadastre[-2:]}", "owner")
        party.save()
        users[cadastre] = party.user
    rec = recs["100-200-300-01"]
    payment = payment_record(account=rec.account, amount=Decimal("50.00"), method=Payment.Method.TRANSFER,
                             paid_on=date(2026, 8, 20), payer=Ownership.objects.get(parcel=rec.account.parcel).party,
                             idempotency_key="portal-1", batch=None, actor=None, source=Payment.Source.API)
    return {"recs": recs, "users": users, "payment": payment,
            "notice": Notice.objects.get(receivable=rec)}


def test_owner_sees_charge_notice_and_payment(client, billed):
    client.force_login(billed["users"]["100-200-300-01"])
    rec = billed["recs"]["100-200-300-01"]
    account = client.get(f"/api/v1/portal/accounts/{rec.account_id}/").json()
    refs = {i["reference"] for i in account["open_installments"]}
    assert refs == {rec.payment_reference}
    assert Decimal(account["balance"]) == Decimal("50.00")   # 100.00 billed − 50.00 paid
    notices = client.get("/api/v1/portal/notices/").json()
    assert [(n["program"], n["payment_reference"]) for n in notices] == [("SID", rec.payment_reference)]
    payments = client.get("/api/v1/portal/payments/").json()
    assert [p["id"] for p in payments] == [billed["payment"].pk]
    page = client.get(f"/portal/cuentas/{rec.account_id}/").content.decode()
    assert rec.payment_reference in page


def test_other_owner_gets_404(client, billed):
    client.force_login(billed["users"]["100-200-300-02"])
    rec = billed["recs"]["100-200-300-01"]
    for url in (f"/api/v1/portal/accounts/{rec.account_id}/", f"/api/v1/portal/notices/{billed['notice'].pk}/",
                f"/api/v1/portal/payments/{billed['payment'].pk}/", f"/portal/cuentas/{rec.account_id}/",
                f"/portal/avisos/{billed['notice'].pk}/pdf/", f"/portal/pagos/{billed['payment'].pk}/recibo/"):
        assert client.get(url).status_code == 404, url
    notices = client.get("/api/v1/portal/notices/").json()
    assert billed["recs"]["100-200-300-01"].payment_reference not in {n["payment_reference"] for n in notices}
