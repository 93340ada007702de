"""Credits and refunds belong to whoever paid (issue #16).

"An overpayment, or a decrease after payment (late water records, corrections), is a credit of the
payer, not of the parcel: it is never applied to charges of a later owner without that payer's
consent; a refund names its payee and is posted in the ledger. A refund request is checked when it
is made (not only when approved)."
"""
from __future__ import annotations

from datetime import date
from decimal import Decimal as D

import pytest
from django.core.exceptions import ValidationError

from assessments.ledger import credit_rules
from assessments.ledger.common import lock_account, payer_credits
from assessments.ledger.services import (
    adjustment_approve,
    adjustment_request,
    credit_apply,
    credit_refund_approve,
    credit_refund_request,
    payment_record,
    payment_return,
)
from assessments.models import LedgerEntry, Receivable
from districts.models import Ownership
from tests import factories
from tests.ledger.conftest import assert_balances_consistent

SOLD_ON = date(2026, 5, 1)


@pytest.fixture
def owners(postgres_only, parcel):
    """The parcel's owner of record (the seller, until SOLD_ON) and the buyer (from SOLD_ON)."""
    seller_ownership = Ownership.objects.get(parcel=parcel)
    buyer = factories.person(given="Marta", first="Vélez", second="Ortiz")
    return seller_ownership.party, buyer


def sell(parcel, buyer):
    Ownership.objects.filter(parcel=parcel, end_date__isnull=True).update(end_date=SOLD_ON)
    factories.own(parcel, buyer, start=SOLD_ON)


def pay(account, amount, on, key, payer, actor):
    return payment_record(account=account, amount=D(amount), method="TRANSFER", paid_on=on, payer=payer,
                          idempotency_key=key, batch=None, actor=actor, source="API")


def credit_of(account, party=None, name=""):
    return next((c.amount for c in payer_credits(account)
                 if (party and c.party_id == party.pk) or (not party and c.name == name)), D("0.00"))


# --- The rule (pure) ----------------------------------------------------------------------------

def test_credit_may_apply_only_to_the_payers_own_charges_unless_they_consent():
    """"never applied to charges of a later owner without that payer's consent"."""
    seller = credit_rules.PayerCredit(party_id=1, name="Seller", amount=D("50.00"), since=date(2026, 4, 1))
    by_name = credit_rules.PayerCredit(party_id=None, name="Ventanilla", amount=D("5.00"), since=date(2026, 4, 1))
    assert credit_rules.credit_may_apply(seller, owner_ids_on_charge=frozenset({1}), owners_changed_since=False)
    assert not credit_rules.credit_may_apply(seller, owner_ids_on_charge=frozenset({2}), owners_changed_since=True)
    assert credit_rules.credit_may_apply(seller, owner_ids_on_charge=frozenset({2}), owners_changed_since=True,
                                         consented=True)
    assert credit_rules.credit_may_apply(by_name, owner_ids_on_charge=frozenset({2}), owners_changed_since=False)
    assert not credit_rules.credit_may_apply(by_name, owner_ids_on_charge=frozenset({2}), owners_changed_since=True)
    assert credit_rules.refund_refusal(D("50.01"), D("50.00")) == "EXCEEDS_CREDIT"
    assert credit_rules.refund_refusal(D("50.00"), D("50.00")) is None


# --- In the ledger ------------------------------------------------------------------------------

def test_sellers_overpayment_is_not_applied_to_the_buyers_charge(owners, account, charge, staff_user):
    """The seller's overpayment stays the seller's: the buyer's later charge stays open."""
    seller, buyer = owners
    charge([(date(2026, 3, 1), "100.00")], issued_on=date(2026, 2, 1))
    pay(account, "150.00", date(2026, 4, 1), "over", seller, staff_user)
    assert credit_of(account, seller) == D("50.00")
    sell(account.parcel, buyer)
    later = charge([(date(2026, 8, 1), "80.00")], issued_on=date(2026, 7, 1))
    later.refresh_from_db()
    assert later.status == Receivable.Status.OPEN
    assert credit_of(account, seller) == D("50.00")
    assert not LedgerEntry.objects.filter(receivable=later, kind="CREDIT_APPLIED").exists()
    # With the seller's consent it pays the buyer's charge.
    assert credit_apply(account=lock_account(account), on=date(2026, 7, 2), actor=staff_user,
                        consent_of=[seller]) == D("50.00")
    assert credit_of(account, seller) == D("0.00")
    assert_balances_consistent()


def test_the_same_owners_credit_pays_their_next_charge(owners, account, charge, staff_user):
    seller, _buyer = owners
    charge([(date(2026, 3, 1), "100.00")], issued_on=date(2026, 2, 1))
    pay(account, "130.00", date(2026, 4, 1), "over", seller, staff_user)
    nxt = charge([(date(2026, 8, 1), "20.00")], issued_on=date(2026, 7, 1))
    nxt.refresh_from_db()
    assert nxt.status == Receivable.Status.PAID and credit_of(account, seller) == D("10.00")
    assert LedgerEntry.objects.filter(kind="CREDIT_APPLIED", component="CREDIT", credit_party=seller).exists()


def test_refund_names_its_payee_and_is_checked_when_requested(owners, account, charge, staff_user, approver_user):
    """A refund request beyond the payer's credit (less their pending requests) is refused when made."""
    seller, buyer = owners
    charge([(date(2026, 3, 1), "100.00")], issued_on=date(2026, 2, 1))
    pay(account, "150.00", date(2026, 4, 1), "over", seller, staff_user)
    pay(account, "10.00", date(2026, 4, 2), "ventanilla", "Pago en ventanilla", staff_user)
    with pytest.raises(ValidationError) as refused:
        credit_refund_request(account=account, amount="20.00", reason="Pago doble", actor=staff_user)
    assert "payee" in refused.value.message_dict          # two payers hold credit: say whose
    with pytest.raises(ValidationError) as refused:
        credit_refund_request(account=account, amount="50.01", reason="Pago doble", actor=staff_user, payee=seller)
    assert "amount" in refused.value.message_dict
    with pytest.raises(ValidationError):
        credit_refund_request(account=account, amount="1.00", reason="No pagó", actor=staff_user, payee=buyer)
    req = credit_refund_request(account=account, amount="30.00", reason="Pago doble", actor=staff_user, payee=seller)
    assert (req.payee_party, req.payee_name) == (seller, seller.display_name)
    with pytest.raises(ValidationError):   # the pending request already claims 30.00 of the 50.00
        credit_refund_request(account=account, amount="20.01", reason="Otra", actor=staff_user, payee=seller)
    credit_refund_approve(adjustment=req, actor=approver_user)
    refund = LedgerEntry.objects.get(kind="REFUND")
    assert refund.credit_party == seller and seller.display_name in refund.memo and refund.amount == D("30.00")
    assert credit_of(account, seller) == D("20.00")
    assert credit_of(account, name="Pago en ventanilla") == D("10.00")
    assert_balances_consistent()


def test_a_decrease_after_payment_is_the_payers_credit(owners, account, charge, staff_user, approver_user):
    """A late water record lowers a paid charge: the difference is credited to the payer it names."""
    seller, buyer = owners
    charge([(date(2026, 3, 1), "100.00")], issued_on=date(2026, 2, 1))
    pay(account, "100.00", date(2026, 4, 1), "exact", seller, staff_user)
    adj = adjustment_request(kind="ADJUSTMENT", account=account, amount="-15.00", payee=seller,
                             reason="Lectura tardía del contador", actor=staff_user, effective_date=date(2026, 4, 20))
    adjustment_approve(adjustment=adj, actor=approver_user)
    assert credit_of(account, seller) == D("15.00")
    sell(account.parcel, buyer)
    later = charge([(date(2026, 8, 1), "40.00")], issued_on=date(2026, 7, 1))
    later.refresh_from_db()
    assert later.status == Receivable.Status.OPEN and credit_of(account, seller) == D("15.00")


def test_returned_overpayment_takes_back_the_credit_it_paid(owners, account, charge, staff_user):
    seller, _buyer = owners
    charge([(date(2026, 3, 1), "100.00")], issued_on=date(2026, 2, 1))
    over = pay(account, "150.00", date(2026, 4, 1), "over", seller, staff_user)
    nxt = charge([(date(2026, 8, 1), "30.00")], issued_on=date(2026, 7, 1))
    nxt.refresh_from_db()
    assert nxt.status == Receivable.Status.PAID
    payment_return(payment=over, on=date(2026, 7, 10), reason="Cheque devuelto", actor=staff_user)
    nxt.refresh_from_db()
    assert nxt.status == Receivable.Status.OPEN and credit_of(account, seller) == D("0.00")
    assert_balances_consistent()


def test_refund_page_names_the_payee_and_refuses_too_much_at_once(owners, account, charge, staff_user, client):
    """The request page offers the payers who hold credit; too much is refused when requested."""
    from django.urls import reverse

    from assessments.models import Adjustment

    seller, _buyer = owners
    charge([(date(2026, 3, 1), "100.00")], issued_on=date(2026, 2, 1))
    pay(account, "150.00", date(2026, 4, 1), "over", seller, staff_user)
    pay(account, "10.00", date(2026, 4, 2), "ventanilla", "Pago en ventanilla", staff_user)
    client.force_login(staff_user)
    url = reverse("assessments:adjustment_request", args=[account.pk])
    page = client.get(url).content.decode()
    assert f"party:{seller.pk}" in page and "name:Pago en ventanilla" in page and "$50.00" in page
    form = {"kind": "REFUND", "installment": "", "amount": "60.00", "effective_date": "2026-04-03",
            "reason": "Pago doble", "payee": f"party:{seller.pk}"}
    refused = client.post(url, form)
    assert refused.status_code == 200 and "excede el crédito disponible" in refused.content.decode()
    assert not Adjustment.objects.exists()
    assert client.post(url, {**form, "amount": "50.00"}).status_code == 302
    assert Adjustment.objects.get().payee_party == seller
