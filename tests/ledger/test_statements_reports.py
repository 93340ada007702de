"""Statements reproducible as of past dates; payoff certificate; opening balances; collections by fund."""
import csv
import io
from datetime import date
from decimal import Decimal

import pytest
from django.utils import timezone

from assessments.ledger.services import (
    collections_by_fund,
    collections_csv,
    opening_balances_import,
    payment_record,
    payment_return,
    payoff_certificate,
    statement,
)
from assessments.models import Receivable
from tests import factories
from tests.ledger.conftest import assert_balances_consistent

D = Decimal
pytestmark = pytest.mark.django_db


def snapshot(st):
    return (st.balance, st.credit, st.accrued_surcharge, st.payoff,
            [(i.installment_id, i.principal_open, i.surcharge_open, i.accrued_surcharge) for i in st.installments],
            [(e.pk, e.amount) for e in st.entries])


def test_statement_as_of_a_past_date_is_reproduced_after_later_payments(account, charge, batch, cashier):
    charge([(date(2025, 7, 1), "125.00"), (date(2026, 1, 1), "125.00")], rule="LAJ-7")
    payment_record(account=account, amount=D("60.00"), method="CASH", paid_on=date(2025, 10, 15), payer="x",
                   idempotency_key="a", batch=batch, actor=cashier)
    as_of = date(2025, 11, 30)
    first = statement(account=account, as_of=as_of)
    # 60.00 paid 2025-10-15 pays 59.41 + 0.59 surcharge; 65.59 left accrues 3 months to 2025-11-30.
    assert first.balance == D("190.59")
    assert first.accrued_surcharge == D("0.98")
    assert first.payoff == D("191.57")
    later = [payment_record(account=account, amount=D("100.00"), method="CASH", paid_on=date(2026, 2, 1), payer="x",
                            idempotency_key="b", batch=batch, actor=cashier),
             payment_record(account=account, amount=D("95.00"), method="CHECK", paid_on=date(2026, 3, 1), payer="x",
                            idempotency_key="c", batch=batch, actor=cashier, check_number="9")]
    payment_return(payment=later[1], on=date(2026, 3, 10), reason="devuelto", actor=cashier)
    assert snapshot(statement(account=account, as_of=as_of)) == snapshot(first)
    assert statement(account=account, as_of=date(2026, 3, 10)).balance != first.balance


def test_known_at_reproduces_what_was_printed(account, charge, batch, cashier):
    charge([(date(2025, 7, 1), "100.00")])
    printed_at = timezone.now()
    printed = statement(account=account, as_of=date(2025, 7, 31), known_at=printed_at)
    # A payment recorded later but dated back into the period:
    payment_record(account=account, amount=D("40.00"), method="CASH", paid_on=date(2025, 7, 20), payer="x",
                   idempotency_key="late", batch=batch, actor=cashier)
    assert statement(account=account, as_of=date(2025, 7, 31), known_at=printed_at).balance == printed.balance
    assert statement(account=account, as_of=date(2025, 7, 31)).balance == D("60.00")


def test_payoff_certificate_lists_owners_charges_and_liens(account, charge, parcel):
    charge([(date(2025, 7, 1), "250.00")], rule="LAJ-7", lien=True)
    cert = payoff_certificate(account=account, as_of=date(2025, 12, 20))
    assert [o.party.display_name for o in cert["owners"]] == ["José Ramón Rodríguez Núñez"]
    assert cert["payoff"] == D("255.00") and cert["accrued_surcharge"] == D("5.00")
    assert len(cert["charges"]) == 1 and cert["charges"][0]["total"] == D("255.00")
    assert [lien.kind for lien in cert["liens"]] == ["LAJAS"]


def test_opening_balances_all_or_nothing(funds, office, staff_user, parcel):
    good = f"cadastre,fund,due_date,amount,description,surcharge_rule,creates_lien\n" \
           f"{parcel.cadastre},lajas-explotacion,2024-07-01,80.00,Saldo anterior,LAJ-7,sí\n"
    bad = good + "999-999-999-99,nope,2024-13-01,abc,,XYZ,\n"
    report = opening_balances_import(file=bad.encode(), office=office, issued_on=date(2025, 6, 30), actor=staff_user)
    assert not report.ok and [n for n, _ in report.errors] == [3]
    assert "fondo" in report.errors[0][1] and "importe" in report.errors[0][1]
    assert not Receivable.objects.exists()
    report = opening_balances_import(file=good.encode(), office=office, issued_on=date(2025, 6, 30), actor=staff_user)
    assert (report.ok, report.created, report.total) == (True, 1, D("80.00"))
    again = opening_balances_import(file=good.encode(), office=office, issued_on=date(2025, 6, 30), actor=staff_user)
    assert (again.created, again.skipped) == (0, 1)
    rec = Receivable.objects.get()
    assert rec.creates_lien and rec.surcharge_rule == "LAJ-7" and rec.account.parcel == parcel
    assert_balances_consistent()


def test_collections_by_fund_and_csv(account, charge, batch, cashier):
    charge([(date(2025, 7, 1), "250.00")], rule="LAJ-7", fund="lajas")
    charge([(date(2025, 7, 1), "100.00")], fund="irr")
    holder = factories.person(given="Hotel", first="Playa")
    from assessments.ledger.services import account_for_party
    other = account_for_party(holder)
    charge([(date(2025, 7, 1), "500.00")], fund="fra", acct=other)
    payment_record(account=account, amount=D("400.00"), method="CASH", paid_on=date(2025, 10, 15), payer="x",
                   idempotency_key="1", batch=batch, actor=cashier)
    returned = payment_record(account=other, amount=D("500.00"), method="CHECK", paid_on=date(2025, 10, 16),
                              payer="x", idempotency_key="2", batch=batch, actor=cashier, check_number="1")
    payment_return(payment=returned, on=date(2025, 10, 20), reason="devuelto", actor=cashier)
    report = collections_by_fund(start=date(2025, 10, 1), end=date(2025, 10, 31))
    rows = {f.fund_code: (f.principal, f.surcharge) for f in report.funds}
    # 400.00 pays the older-by-issue Lajas line with its 2.50 surcharge first, then 100.00 irrigation,
    # leaving 47.50 credit; the franchise payment was returned within the period.
    assert rows == {"lajas-explotacion": (D("250.00"), D("2.50")), "riego": (D("100.00"), D("0.00")),
                    "franquicias": (D("0.00"), D("0.00"))}
    assert report.unapplied_credit == D("47.50")
    assert report.total == D("400.00")
    lines = list(csv.reader(io.StringIO(collections_csv(report))))
    assert lines[0][:5] == ["fund_code", "fund", "principal", "surcharge", "total"]
    assert lines[-1][4] == "400.00"


def test_payoff_certificate_pdf_is_issued_with_its_verification_code(client, staff_user, account, charge, parcel):
    import pypdf
    from django.urls import reverse

    from core.models import Document

    charge([(date(2025, 7, 1), "125.00")], rule="LAJ-7")
    client.force_login(staff_user)
    response = client.post(reverse("assessments:certificate_pdf", args=[account.pk]), {"as_of": "2025-12-31"})
    assert response.status_code == 302
    document = Document.objects.get(kind="CERTIFICATE")
    with document.file.open("rb") as fh:
        text = "".join(page.extract_text() for page in pypdf.PdfReader(fh).pages)
    assert "Certificación de deuda" in text
    assert document.verification_code in text
    assert parcel.cadastre in text
    assert "$128.13" in text   # 125.00 + LAJ-7: 0.5 % × 5 months (or fractions) after the grace ending 2025-08-30
