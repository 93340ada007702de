"""Staff pages and the API: roles, a double-submitted payment form posts once, 400 with details."""
from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from assessments.models import Adjustment, Payment
from tests.ledger.conftest import assert_balances_consistent

D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture
def cashier_client(client, cashier):
    client.force_login(cashier)
    return client


def test_account_page_shows_statement_and_past_dates(staff_client, account, charge, batch, cashier):
    from assessments.ledger.services import payment_record

    charge([(date(2025, 7, 1), "250.00")], rule="LAJ-7", lien=True)
    payment_record(account=account, amount=D("100.00"), method="CASH", paid_on=date(2025, 10, 15), payer="x",
                   idempotency_key="k", batch=batch, actor=cashier)
    url = reverse("assessments:account", args=[account.pk])
    page = staff_client.get(url).content.decode()
    assert account.number in page and "Recargo acumulado" in page and "LAJ-7" in page
    past = staff_client.get(url, {"as_of": "2025-09-01"}).content.decode()
    assert "$250.00" in past and "Reproducción al 01/09/2025" in past
    assert staff_client.get(reverse("assessments:certificate", args=[account.pk])).status_code == 200


def test_payment_form_double_submit_posts_once(cashier_client, account, charge, cashier):
    charge([(date(2025, 7, 1), "100.00")])
    url = reverse("assessments:payment_create", args=[account.pk])
    page = cashier_client.get(url).content.decode()
    assert "Abrir lote de caja" in page
    cashier_client.post(reverse("assessments:my_batch"), {"next": url})
    form = cashier_client.get(url).context["form"]
    key = form.initial["idempotency_key"]
    assert key.startswith("form:")
    data = {"method": "CASH", "amount": "40.00", "paid_on": "2025-07-02", "payer_name": "José",
            "check_number": "", "idempotency_key": key}
    first = cashier_client.post(url, data)
    second = cashier_client.post(url, data)
    assert first.status_code == second.status_code == 302 and first.url == second.url
    assert Payment.objects.count() == 1
    assert cashier_client.get(url).context["form"].initial["idempotency_key"] != key
    assert_balances_consistent()


def test_payment_form_shows_service_errors(cashier_client, account, charge, cashier):
    charge([(date(2025, 7, 1), "100.00")])
    cashier_client.post(reverse("assessments:my_batch"))
    url = reverse("assessments:payment_create", args=[account.pk])
    response = cashier_client.post(url, {"method": "CHECK", "amount": "40.00", "paid_on": "2025-07-02",
                                         "idempotency_key": "form:x"})
    assert response.status_code == 200 and "número del cheque" in response.content.decode()
    assert not Payment.objects.exists()


def test_auditor_reads_but_cannot_pay_or_close(client, auditor_user, account, charge, batch):
    charge([(date(2025, 7, 1), "100.00")])
    client.force_login(auditor_user)
    assert client.get(reverse("assessments:account", args=[account.pk])).status_code == 200
    assert client.get(reverse("assessments:batch", args=[batch.pk])).status_code == 200
    assert client.get(reverse("assessments:payment_create", args=[account.pk])).status_code == 403
    assert client.post(reverse("assessments:batch", args=[batch.pk]), {}).status_code == 403
    assert client.post("/api/v1/payments/", {}, content_type="application/json").status_code == 403
    assert client.get(f"/api/v1/accounts/{account.pk}/statement/").status_code == 200


def test_batch_page_close_balanced_and_unbalanced(cashier_client, account, charge, batch, cashier):
    from assessments.ledger.services import payment_record

    charge([(date(2025, 7, 1), "100.00")])
    payment_record(account=account, amount=D("30.00"), method="CASH", paid_on=date(2025, 7, 2), payer="x",
                   idempotency_key="k", batch=batch, actor=cashier)
    url = reverse("assessments:batch", args=[batch.pk])
    bad = cashier_client.post(url, {"counted_CASH": "25.00"})
    assert bad.status_code == 200 and "no cuadra" in bad.content.decode()
    batch.refresh_from_db()
    assert batch.status == "OPEN"
    ok = cashier_client.post(url, {"counted_CASH": "30.00"})
    assert ok.status_code == 302
    batch.refresh_from_db()
    assert batch.status == "CLOSED"


def test_adjustment_queue_four_eyes(client, staff_user, approver, account, charge):
    rec = charge([(date(2025, 7, 1), "100.00")])
    client.force_login(staff_user)
    url = reverse("assessments:adjustment_request", args=[account.pk])
    inst = rec.installments.get()
    assert client.post(url, {"kind": "ADJUSTMENT", "installment": str(inst.pk), "amount": "-5.00",
                             "effective_date": "2025-07-05", "reason": "Cabida"}).status_code == 302
    adj = Adjustment.objects.get()
    decide = reverse("assessments:adjustment_decide", args=[adj.pk])
    assert client.post(decide, {"decision": "approve"}).status_code == 403   # staff is not an approver
    client.force_login(approver)
    assert "Cabida" in client.get(reverse("assessments:adjustments")).content.decode()
    client.post(decide, {"decision": "approve", "note": "ok"})
    adj.refresh_from_db()
    account.refresh_from_db()
    assert adj.status == "APPROVED" and account.balance == D("95.00")


def test_bank_upload_page_and_collections_csv(cashier_client, account, charge):
    from django.core.files.uploadedfile import SimpleUploadedFile

    rec = charge([(date(2025, 7, 1), "100.00")])
    content = f"reference,amount,date,bank_ref\n{rec.payment_reference},100.00,2025-07-03,B1\n".encode()
    response = cashier_client.post(reverse("assessments:bankfiles"),
                                 {"file": SimpleUploadedFile("banco.csv", content, "text/csv")})
    assert response.status_code == 302
    report = cashier_client.get(response.url).content.decode()
    assert "Conciliada" in report
    again = cashier_client.post(reverse("assessments:bankfiles"),
                              {"file": SimpleUploadedFile("banco.csv", content, "text/csv")}, follow=True)
    assert "ya se había importado" in again.content.decode()
    assert Payment.objects.count() == 1
    csv_response = cashier_client.get(reverse("assessments:collections"),
                                    {"start": "2025-07-01", "end": "2025-07-31", "format": "csv"})
    assert csv_response["Content-Type"].startswith("text/csv")
    assert "lajas-explotacion" in csv_response.content.decode()


def test_receipt_pdf_is_issued_once(cashier_client, account, charge, batch, cashier):
    from assessments.ledger.services import payment_record
    from core.models import Document

    charge([(date(2025, 7, 1), "100.00")])
    p = payment_record(account=account, amount=D("30.00"), method="CASH", paid_on=date(2025, 7, 2), payer="x",
                       idempotency_key="k", batch=batch, actor=cashier)
    first = cashier_client.post(reverse("assessments:receipt", args=[p.pk]))
    second = cashier_client.post(reverse("assessments:receipt", args=[p.pk]))
    assert first.url == second.url and Document.objects.filter(kind="RECEIPT").count() == 1
    pdf = cashier_client.get(first.url)
    assert pdf["Content-Type"] == "application/pdf"
    assert b"".join(pdf.streaming_content).startswith(b"%PDF")


# --- API ------------------------------------------------------------------------------------------

def test_api_post_payment_created_replayed_and_400(cashier_client, account, charge, batch):
    charge([(date(2025, 7, 1), "250.00")], rule="LAJ-7")
    body = {"account": account.pk, "amount": "252.50", "method": "CASH", "paid_on": "2025-10-15",
            "payer_name": "José", "idempotency_key": "api-1", "batch": batch.pk}
    first = cashier_client.post("/api/v1/payments/", body, content_type="application/json")
    assert first.status_code == 201, first.content
    data = first.json()
    assert data["account_balance"] == "0.00" and data["batch"] == batch.pk
    assert [(e["kind"], e["amount"]) for e in data["entries"]] == [
        ("SURCHARGE", "2.50"), ("PAYMENT", "-2.50"), ("PAYMENT", "-250.00")]
    again = cashier_client.post("/api/v1/payments/", body, content_type="application/json")
    assert again.status_code == 200 and again.json()["id"] == data["id"]
    bad = cashier_client.post("/api/v1/payments/", {**body, "idempotency_key": "api-2", "amount": "-1",
                                                    "method": "GOLD"}, content_type="application/json")
    assert bad.status_code == 400 and set(bad.json()) >= {"amount", "method"}
    no_check = cashier_client.post("/api/v1/payments/", {**body, "idempotency_key": "api-3", "method": "CHECK"},
                                   content_type="application/json")
    assert no_check.status_code == 400 and "check_number" in no_check.json()
    assert Payment.objects.count() == 1


def test_api_payment_without_open_batch_is_400(cashier_client, account, charge):
    charge([(date(2025, 7, 1), "10.00")])
    r = cashier_client.post("/api/v1/payments/", {"account": account.pk, "amount": "1.00", "method": "CASH",
                                                  "paid_on": "2025-07-02", "idempotency_key": "x"},
                            content_type="application/json")
    assert r.status_code == 400 and "batch" in r.json()


def test_api_statement_and_receivables(staff_client, account, charge):
    rec = charge([(date(2025, 7, 1), "250.00")], rule="LAJ-7")
    st = staff_client.get(f"/api/v1/accounts/{account.pk}/statement/", {"as_of": "2025-12-20"}).json()
    assert (st["balance"], st["accrued_surcharge"], st["payoff"]) == ("250.00", "5.00", "255.00")
    assert st["installments"][0]["months_late"] == 4
    assert staff_client.get(f"/api/v1/accounts/{account.pk}/statement/", {"as_of": "nope"}).status_code == 400
    listing = staff_client.get("/api/v1/receivables/", {"account": account.pk}).json()
    assert listing["count"] == 1 and listing["results"][0]["payment_reference"] == rec.payment_reference
    assert staff_client.get("/api/v1/receivables/", {"account": "x"}).status_code == 400
