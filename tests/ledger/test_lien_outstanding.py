"""LIEN-4: a lien secures only what is still owed on the charge it was constituted for.

The special improvement districts law (SID-4) says of the benefit-charge lien that it "sólo
garantizará el pago de los cargos por beneficios"; the same holds for the IRR/LAJ/TID/FRA liens that
secure a quota. So each lien shows the amount it was constituted for and what it secures on a date,
derived from the ledger as of that date; at zero it is released (a dated, audited event) and a
reversal revives it. The sale distribution, the certificate, IRR-12, the aging page and the ranking
use the outstanding amount.
"""
from __future__ import annotations

import io
from datetime import date
from decimal import Decimal as D

import pytest
from django.urls import reverse
from pypdf import PdfReader

from assessments.ledger.services import adjustment_approve, adjustment_request, payment_record, payment_return
from core.models import AuditEntry
from liens import rules, selectors
from liens.models import Lien, LienEvent
from liens.outstanding import secured_amount
from tests.ledger.conftest import assert_balances_consistent

ISSUED = date(2026, 1, 1)
DUE = date(2026, 3, 1)


@pytest.fixture
def lien_charge(postgres_only, charge):
    """A $600.00 irrigation charge on the parcel, with its lien (IRR-10) constituted on issue."""
    rec = charge([(DUE, "600.00")], fund="irr", lien=True, issued_on=ISSUED)
    lien = Lien.objects.get(origin_type="assessments.receivable", origin_id=str(rec.pk))
    return rec, lien


def pay(rec, amount, on, key, actor):
    return payment_record(account=rec.account, amount=D(amount), method="TRANSFER", paid_on=on, payer="José Rodríguez",
                          idempotency_key=key, batch=None, actor=actor, source="API")


# --- The rule (pure) ----------------------------------------------------------------------------

def test_secured_amount_is_the_open_principal_within_the_amount_constituted():
    """"sólo garantizará el pago de los cargos por beneficios": the charge still owed, nothing more."""
    assert rules.secured_amount(D("600.00"), D("300.00")) == D("300.00")
    assert rules.secured_amount(D("600.00"), D("0.00")) == D("0.00")
    assert rules.secured_amount(D("600.00"), D("-5.00")) == D("0.00")      # a credit never makes it negative
    assert rules.secured_amount(D("600.00"), D("650.00")) == D("600.00")   # never above what was constituted
    assert rules.secured_amount(D("60000.00"), None) == D("60000.00")      # no charge in the ledger (a mortgage)


def test_distribution_pays_the_outstanding_amount():
    """LIEN-3 with LIEN-4: a half-paid lien takes its half; the next rank gets the rest."""
    a = rules.Lien("a", "IRRIGATION", date(2026, 1, 1), D("600.00"), outstanding=D("300.00"))
    b = rules.Lien("b", "OTHER", date(2026, 2, 1), D("500.00"))
    dist = rules.distribute([a, b], [("a",), ("b",)], D("700.00"))
    assert [(p.id, p.paid, p.unpaid) for p in dist.payouts] == [("a", D("300.00"), D("0.00")),
                                                                ("b", D("400.00"), D("100.00"))]
    assert dist.remaining == D("0.00")


# --- Derived from the ledger, as of a date ------------------------------------------------------

def test_partial_payment_moves_what_the_lien_secures_on_each_date(lien_charge, staff_user):
    """A half-paid charge's lien secures the half still owed from the payment's date on; before it, all."""
    rec, lien = lien_charge
    pay(rec, "300.00", date(2026, 4, 10), "half", staff_user)
    assert secured_amount(lien, date(2026, 4, 9)) == D("600.00")
    assert secured_amount(lien, date(2026, 4, 10)) == D("300.00")
    lien.refresh_from_db()
    assert lien.amount == D("600.00") and lien.status == Lien.Status.ACTIVE   # the register row is not edited
    pr = selectors.parcel_ranking(lien.parcel, date(2026, 5, 1))
    row = pr.row(str(lien.pk))
    assert (row.constituted, row.secured, pr.total) == (D("600.00"), D("300.00"), D("300.00"))
    assert selectors.parcel_ranking(lien.parcel, date(2026, 4, 1)).row(str(lien.pk)).secured == D("600.00")


def test_paid_in_full_releases_and_a_returned_check_revives(lien_charge, staff_user):
    """At zero the lien is released (dated, audited); the returned check restores and revives it."""
    rec, lien = lien_charge
    payment = pay(rec, "600.00", date(2026, 4, 10), "full", staff_user)
    lien.refresh_from_db()
    assert (lien.status, lien.status_on) == (Lien.Status.SATISFIED, date(2026, 4, 10))
    assert not selectors.parcel_ranking(lien.parcel, date(2026, 4, 20)).rows     # it no longer ranks
    payment_return(payment=payment, on=date(2026, 5, 2), reason="Fondos insuficientes", actor=staff_user)
    lien.refresh_from_db()
    assert lien.status == Lien.Status.ACTIVE
    events = list(LienEvent.objects.filter(lien=lien).values_list("kind", "on", "secured"))
    assert events == [("SATISFIED", date(2026, 4, 10), D("0.00")), ("REVIVED", date(2026, 5, 2), D("600.00"))]
    assert AuditEntry.objects.filter(action="lien.reinstate", data__secured="600.00").exists()
    # Each date reads its own state: secured before, released between, revived after.
    assert [r.secured for r in selectors.parcel_ranking(lien.parcel, date(2026, 4, 1)).rows] == [D("600.00")]
    assert selectors.parcel_ranking(lien.parcel, date(2026, 4, 20)).rows == []
    assert [r.secured for r in selectors.parcel_ranking(lien.parcel, date(2026, 5, 2)).rows] == [D("600.00")]
    assert_balances_consistent()


def test_adjustment_and_write_off_move_it_and_a_full_write_off_cancels(lien_charge, staff_user, approver_user):
    """A decrease and a partial write-off reduce what the lien secures; writing off the rest cancels it."""
    rec, lien = lien_charge
    inst = rec.installments.get()
    adj = adjustment_request(kind="ADJUSTMENT", account=rec.account, amount="-100.00", installment=inst,
                             reason="Lectura corregida", actor=staff_user, effective_date=date(2026, 2, 1))
    adjustment_approve(adjustment=adj, actor=approver_user)
    assert secured_amount(lien, date(2026, 2, 1)) == D("500.00")
    wo = adjustment_request(kind="WRITE_OFF", account=rec.account, amount="200.00", receivable=rec,
                            reason="Incobrable en parte", actor=staff_user, effective_date=date(2026, 6, 1))
    adjustment_approve(adjustment=wo, actor=approver_user)
    assert secured_amount(lien, date(2026, 6, 1)) == D("300.00")
    wo = adjustment_request(kind="WRITE_OFF", account=rec.account, amount="300.00", receivable=rec,
                            reason="Incobrable", actor=staff_user, effective_date=date(2026, 7, 1))
    adjustment_approve(adjustment=wo, actor=approver_user)
    lien.refresh_from_db()
    assert (lien.status, lien.status_on) == (Lien.Status.RELEASED, date(2026, 7, 1))
    assert LienEvent.objects.filter(lien=lien, kind="RELEASED", on=date(2026, 7, 1)).exists()


def test_a_lien_without_a_charge_secures_its_amount(lien_charge, staff_user):
    """A mortgage recorded by staff has no charge in the ledger: it secures what it was constituted for."""
    rec, _lien = lien_charge
    from liens.services import lien_register

    other = lien_register(parcel=rec.account.parcel, kind="OTHER", amount=D("1000.00"),
                          constituted_on=date(2025, 1, 1), actor=staff_user)
    assert secured_amount(other, date(2026, 6, 1)) == D("1000.00")


# --- Where it is used: distribution, IRR-12, aging, API, pages, certificate ----------------------

def test_distribution_irr12_and_api_use_the_outstanding_amount(lien_charge, staff_user, staff_client):
    """GET /api/v1/parcels/{id}/liens/?on=&proceeds= gives `amount` and `outstanding`; the distribution pays
    `outstanding`; IRR-12 deducts it ("valor contributivo después de deducir todos los gravámenes")."""
    rec, lien = lien_charge
    parcel = rec.account.parcel
    pay(rec, "250.00", date(2026, 4, 10), "part", staff_user)
    result = selectors.parcel_distribution(parcel, D("1000.00"), date(2026, 6, 1))
    assert [(p.row.id, p.paid, p.unpaid) for p in result.payouts] == [(str(lien.pk), D("350.00"), D("0.00"))]
    assert result.remaining == D("650.00")
    tax_value, liens_total, net = selectors.net_tax_value(parcel, date(2026, 6, 1))
    assert liens_total == D("350.00") and net == tax_value - D("350.00")
    assert selectors.net_tax_values([parcel.pk], date(2026, 6, 1))[parcel.pk][1] == D("350.00")
    assert selectors.net_tax_values([parcel.pk], date(2026, 4, 1))[parcel.pk][1] == D("600.00")

    url = f"/api/v1/parcels/{parcel.pk}/liens/"
    body = staff_client.get(url, {"on": "2026-06-01", "proceeds": "100.00"}).json()
    assert [(x["id"], x["amount"], x["outstanding"]) for x in body["liens"]] == [(str(lien.pk), "600.00", "350.00")]
    assert body["distribution"] == [{"id": str(lien.pk), "paid": "100.00", "unpaid": "250.00"}]
    before = staff_client.get(url, {"on": "2026-04-09"}).json()
    assert before["liens"][0]["outstanding"] == "600.00"
    assert staff_client.get(url, {"on": "not-a-date"}).status_code == 400


def test_aging_seizure_limits_deduct_the_outstanding_amount(lien_charge, staff_user):
    rec, _lien = lien_charge
    from assessments.ledger.aging import delinquent_accounts
    from assessments.rolls.delinquency import seizure_limits

    pay(rec, "200.00", date(2026, 4, 10), "aging", staff_user)
    rows = delinquent_accounts(as_of=date(2026, 6, 1))
    limit = seizure_limits(rows, date(2026, 6, 1))[rec.account.parcel_id]
    assert limit.liens_total == D("400.00") and limit.amount_owed == D("400.00")


def test_pages_show_constituted_and_secured_amounts(lien_charge, staff_user, staff_client):
    """The lien list shows "Constituido por" and "Garantiza al DD/MM/AAAA"; so does the certificate PDF."""
    rec, lien = lien_charge
    parcel = rec.account.parcel
    pay(rec, "300.00", date(2026, 4, 10), "page", staff_user)
    html = " ".join(staff_client.get(reverse("liens:ladder", args=[parcel.pk]), {"on": "2026-06-01"})
                    .content.decode().split())
    assert "Constituido por $600.00" in html and "Garantiza al 01/06/2026: $300.00" in html
    dist = staff_client.get(reverse("liens:distribution", args=[parcel.pk]), {"proceeds": "1000.00"}).content.decode()
    assert "$300.00" in dist and "Garantiza al" in dist
    response = staff_client.post(reverse("liens:certificate", args=[parcel.pk]), {"on": "2026-06-01", "language": "es"})
    assert response.status_code == 302
    from core.models import Document

    document = Document.objects.get(kind=Document.Kind.LIEN_CERTIFICATE)
    with document.file.open("rb") as fh:
        text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(fh.read())).pages).split())
    assert "Constituido por" in text and "Garantiza al 01/06/2026" in text
    assert "$600.00" in text and "$300.00" in text


def test_account_page_and_payoff_certificate_show_what_the_lien_secures(lien_charge, staff_user, staff_client):
    """The account's lien list and the *certificación de deuda* give the constituted and the secured amounts."""
    rec, _lien = lien_charge
    pay(rec, "300.00", date(2026, 4, 10), "acct", staff_user)
    page = " ".join(staff_client.get(reverse("assessments:account", args=[rec.account.pk]), {"as_of": "2026-06-01"})
                    .content.decode().split())
    assert "Constituido por" in page and "Garantiza al 01/06/2026 (LIEN-4)" in page and "$300.00" in page
    cert = " ".join(staff_client.get(reverse("assessments:certificate", args=[rec.account.pk]),
                                     {"as_of": "2026-06-01"}).content.decode().split())
    assert "Constituido por $600.00" in cert and "Garantiza al 01/06/2026: $300.00" in cert
    before = " ".join(staff_client.get(reverse("assessments:certificate", args=[rec.account.pk]),
                                       {"as_of": "2026-04-01"}).content.decode().split())
    assert "Garantiza al 01/04/2026: $600.00" in before


def test_a_charge_lien_is_not_satisfied_by_hand_while_it_secures_something(lien_charge, staff_user):
    """"sólo garantizará el pago de los cargos por beneficios" — and until they are paid, it does."""
    from django.core.exceptions import ValidationError

    from liens.services import lien_satisfy

    rec, lien = lien_charge
    pay(rec, "100.00", date(2026, 4, 10), "hand", staff_user)
    with pytest.raises(ValidationError, match=r"\$500\.00"):
        lien_satisfy(lien=lien, on=date(2026, 4, 11), actor=staff_user)
    lien.refresh_from_db()
    assert lien.status == Lien.Status.ACTIVE and not LienEvent.objects.filter(lien=lien).exists()


def test_the_ladder_in_english(lien_charge, staff_user, staff_client, settings):
    rec, _lien = lien_charge
    pay(rec, "300.00", date(2026, 4, 10), "en", staff_user)
    staff_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = " ".join(staff_client.get(reverse("liens:ladder", args=[rec.account.parcel_id]), {"on": "2026-06-01"})
                    .content.decode().split())
    assert "Constituted for $600.00" in html and "Secures on 01/06/2026: $300.00" in html
