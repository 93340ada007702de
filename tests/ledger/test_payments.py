"""payment_record: allocation order to the cent, surcharges posted at payment time, credits,
idempotency, receipts, and returned payments."""
from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from assessments.compute import run
from assessments.ledger.services import payment_record, payment_return, statement
from assessments.models import LedgerEntry, Payment
from tests.ledger.conftest import assert_balances_consistent

D = Decimal
pytestmark = pytest.mark.django_db


def pay(account, amount, on, batch, cashier, key=None, method="CASH", **kw):
    return payment_record(account=account, amount=D(amount), method=method, paid_on=on, payer="José Rodríguez",
                          idempotency_key=key or f"k-{on}-{amount}-{method}", batch=batch, actor=cashier, **kw)


def entries_of(payment):
    return [(e.installment.receivable.description if e.installment else None,
             e.installment.seq if e.installment else None, e.kind, e.component, e.amount)
            for e in payment.entries.select_related("installment__receivable").order_by("id")]


def test_allocation_oldest_due_first_exact_cents(account, charge, batch, cashier):
    r1 = charge([(date(2025, 7, 1), "100.00"), (date(2026, 1, 1), "100.00")])
    r2 = charge([(date(2025, 9, 1), "50.00")])
    p = pay(account, "180.00", date(2026, 1, 15), batch, cashier)
    assert entries_of(p) == [
        (r1.description, 1, "PAYMENT", "PRINCIPAL", D("-100.00")),
        (r2.description, 1, "PAYMENT", "PRINCIPAL", D("-50.00")),
        (r1.description, 2, "PAYMENT", "PRINCIPAL", D("-30.00")),
    ]
    account.refresh_from_db()
    assert account.balance == D("70.00")
    r2.refresh_from_db()
    r1.refresh_from_db()
    assert (r1.status, r2.status) == ("OPEN", "PAID")
    assert_balances_consistent()


def test_laj7_surcharge_posted_on_late_payment_matches_engine(account, charge, batch, cashier):
    rec = charge([(date(2025, 7, 1), "250.00")], rule="LAJ-7", lien=True)
    expected = run("lajas-surcharge", {"installment": "250.00", "due_date": "2025-07-01", "paid_on": "2025-10-15"})
    assert expected["surcharge"] == "2.50"
    p = pay(account, "252.50", date(2025, 10, 15), batch, cashier)
    assert entries_of(p) == [
        (rec.description, 1, "SURCHARGE", "SURCHARGE", D("2.50")),
        (rec.description, 1, "PAYMENT", "SURCHARGE", D("-2.50")),
        (rec.description, 1, "PAYMENT", "PRINCIPAL", D("-250.00")),
    ]
    posted = p.entries.get(kind="SURCHARGE")
    assert posted.amount == D(expected["surcharge"]) and posted.rule == "LAJ-7"
    account.refresh_from_db()
    assert account.balance == D("0.00")
    rec.refresh_from_db()
    assert rec.status == "PAID"
    from liens.models import Lien
    assert Lien.objects.get(origin_id=str(rec.pk)).status == "SATISFIED"
    assert_balances_consistent()


def test_laj7_partial_payments_surcharge_by_portions_matches_engine(account, charge, batch, cashier):
    charge([(date(2025, 7, 1), "250.00")], rule="LAJ-7")
    p1 = pay(account, "100.00", date(2025, 10, 15), batch, cashier)
    # Surcharge first: the largest portion x with x + round(x × 1 %) ≤ 100.00 is 99.01 (+0.99).
    assert [e[2:] for e in entries_of(p1)] == [
        ("SURCHARGE", "SURCHARGE", D("0.99")), ("PAYMENT", "SURCHARGE", D("-0.99")),
        ("PAYMENT", "PRINCIPAL", D("-99.01"))]
    p2 = pay(account, "154.01", date(2025, 12, 20), batch, cashier)
    assert [e[2:] for e in entries_of(p2)] == [
        ("SURCHARGE", "SURCHARGE", D("3.02")), ("PAYMENT", "SURCHARGE", D("-3.02")),
        ("PAYMENT", "PRINCIPAL", D("-150.99"))]
    engine = run("lajas-surcharge", {"installment": "250.00", "due_date": "2025-07-01", "portions": [
        {"amount": "99.01", "paid_on": "2025-10-15"}, {"amount": "150.99", "paid_on": "2025-12-20"}]})
    posted = sum(e.amount for e in LedgerEntry.objects.filter(kind="SURCHARGE"))
    assert posted == D(engine["surcharge"]) == D("4.01")
    account.refresh_from_db()
    assert account.balance == D("0.00")
    assert_balances_consistent()


def test_payment_within_grace_has_no_surcharge(account, charge, batch, cashier):
    charge([(date(2025, 7, 1), "250.00")], rule="LAJ-7")
    p = pay(account, "250.00", date(2025, 8, 30), batch, cashier)   # grace_end itself
    assert not p.entries.filter(kind="SURCHARGE").exists()


def test_overpayment_becomes_credit_applied_to_next_charge(account, charge, batch, cashier):
    charge([(date(2025, 7, 1), "100.00")])
    p = pay(account, "150.00", date(2025, 7, 10), batch, cashier)
    assert [e[2:] for e in entries_of(p)] == [("PAYMENT", "PRINCIPAL", D("-100.00")),
                                               ("CREDIT", "CREDIT", D("-50.00"))]
    account.refresh_from_db()
    assert account.balance == D("-50.00")
    st = statement(account=account, as_of=date(2025, 7, 10))
    assert st.credit == D("50.00")
    nxt = charge([(date(2026, 1, 1), "80.00")], issued_on=date(2025, 12, 1))
    account.refresh_from_db()
    assert account.balance == D("30.00")
    applied = LedgerEntry.objects.filter(kind="CREDIT_APPLIED").order_by("id")
    assert [(e.installment_id is not None, e.amount) for e in applied] == [(True, D("-50.00")), (False, D("50.00"))]
    assert statement(account=account, as_of=date(2025, 12, 1)).installments[-1].principal_open == D("30.00")
    assert nxt.status == "OPEN"
    assert_balances_consistent()


def test_irr9_without_parameters_charges_no_surcharge_and_says_so(account, charge, batch, cashier):
    from core.models import ParameterVersion

    ParameterVersion.objects.filter(family="irr_delinquency").delete()  # not even "none apply" recorded
    charge([(date(2025, 7, 1), "1000.00")], rule="IRR-9", fund="irr")
    st = statement(account=account, as_of=date(2026, 1, 15))
    assert st.accrued_surcharge == D("0.00")
    assert any("irr_delinquency" in n for n in st.notes)
    p = pay(account, "1000.00", date(2026, 1, 15), batch, cashier)
    assert not p.entries.filter(kind="SURCHARGE").exists()


def test_irr9_none_apply_recorded_charges_no_surcharge_and_names_the_decision(account, charge):
    """IRR-9: the administrator recorded that the property-tax law gives no terms to apply."""
    charge([(date(2025, 7, 1), "1000.00")], rule="IRR-9", fund="irr")
    st = statement(account=account, as_of=date(2026, 1, 15))
    assert st.accrued_surcharge == D("0.00")
    assert any("no aplican" in n for n in st.notes)


def test_irr9_with_parameters_entered_by_an_administrator(account, charge, batch, cashier):
    from core.models import ParameterVersion

    ParameterVersion.objects.create(
        family="irr_delinquency", version="test-1", effective_from=date(2000, 1, 1),
        citation="Property-tax law (test)", values={"grace_days": "30", "surcharge_pct": "5",
                                                    "interest_pct_per_month": "1"})
    charge([(date(2025, 7, 1), "1000.00")], rule="IRR-9", fund="irr")
    # grace ends 2025-07-31; paid 2025-09-15 is 2 months (or fractions) late: 5 % + 2 × 1 % = 7 %.
    assert statement(account=account, as_of=date(2025, 9, 15)).accrued_surcharge == D("70.00")
    p = pay(account, "1070.00", date(2025, 9, 15), batch, cashier)
    assert p.entries.get(kind="SURCHARGE").amount == D("70.00")
    account.refresh_from_db()
    assert account.balance == D("0.00")


def test_resolution_terms_and_none(account, charge, batch, cashier):
    charge([(date(2025, 7, 1), "200.00")], rule="RESOLUTION", fund="irr",
           terms={"grace_days": "0", "surcharge_pct": "10", "interest_pct_per_month": "0", "citation": "Res. 1"})
    charge([(date(2025, 7, 1), "300.00")], rule="NONE", fund="fra")
    st = statement(account=account, as_of=date(2025, 8, 1))
    assert [i.accrued_surcharge for i in st.installments] == [D("20.00"), D("0.00")]
    assert st.payoff == D("520.00")


def test_same_idempotency_key_posts_once(account, charge, batch, cashier):
    charge([(date(2025, 7, 1), "100.00")])
    a = pay(account, "40.00", date(2025, 7, 2), batch, cashier, key="form-1")
    b = pay(account, "40.00", date(2025, 7, 2), batch, cashier, key="form-1")
    assert a.pk == b.pk and Payment.objects.count() == 1
    with pytest.raises(ValidationError):
        pay(account, "41.00", date(2025, 7, 2), batch, cashier, key="form-1")
    account.refresh_from_db()
    assert account.balance == D("60.00")


def test_receipt_numbers_are_consecutive(account, charge, batch, cashier):
    charge([(date(2025, 7, 1), "100.00")])
    numbers = [pay(account, "10.00", date(2025, 7, 2), batch, cashier, key=f"r{i}").receipt_seq for i in range(4)]
    assert numbers == [numbers[0] + i for i in range(4)]


def test_bad_input_is_refused_and_changes_nothing(account, charge, batch, cashier):
    charge([(date(2025, 7, 1), "100.00")])
    for kw in ({"amount": D("0")}, {"amount": D("1.001")}, {"method": "GOLD"},
               {"method": "CHECK"}, {"paid_on": date(2999, 1, 1)}):
        args = {"account": account, "amount": D("10.00"), "method": "CASH", "paid_on": date(2025, 7, 2), "payer": "x",
                    "idempotency_key": "bad", "batch": batch, "actor": cashier}
        args.update(kw)
        with pytest.raises(ValidationError):
            payment_record(**args)
    assert not Payment.objects.exists()
    assert LedgerEntry.objects.count() == 1


def test_closed_batch_refuses_payments(account, charge, batch, cashier):
    from assessments.ledger.services import batch_close

    charge([(date(2025, 7, 1), "100.00")])
    batch_close(batch=batch, counted={}, actor=cashier)
    with pytest.raises(ValidationError, match="cerrado"):
        pay(account, "10.00", date(2025, 7, 2), batch, cashier)
    assert not Payment.objects.exists()


def test_returned_check_restores_balance_and_surcharge(account, charge, batch, cashier):
    from liens.models import Lien

    rec = charge([(date(2025, 7, 1), "250.00")], rule="LAJ-7", lien=True)
    before = statement(account=account, as_of=date(2025, 12, 20))
    p = pay(account, "252.50", date(2025, 10, 15), batch, cashier, method="CHECK", check_number="1042")
    assert Lien.objects.get(origin_id=str(rec.pk)).status == "SATISFIED"
    payment_return(payment=p, on=date(2025, 10, 20), reason="Fondos insuficientes", actor=cashier)
    p.refresh_from_db()
    assert p.status == "RETURNED"
    account.refresh_from_db()
    assert account.balance == D("250.00")
    after = statement(account=account, as_of=date(2025, 12, 20))
    # As if never paid: 4 months or fractions after 2025-08-30 → 2 % of 250.00.
    assert after.accrued_surcharge == before.accrued_surcharge == D("5.00")
    assert after.payoff == before.payoff == D("255.00")
    assert Lien.objects.get(origin_id=str(rec.pk)).status == "ACTIVE"
    rec.refresh_from_db()
    assert rec.status == "OPEN"
    reversal = list(p.entries.filter(kind="REVERSAL").values_list("amount", flat=True).order_by("id"))
    assert reversal == [D("-2.50"), D("2.50"), D("250.00")]
    # Returning twice changes nothing.
    payment_return(payment=p, on=date(2025, 10, 21), reason="otra vez", actor=cashier)
    assert p.entries.filter(kind="REVERSAL").count() == 3
    assert_balances_consistent()


def test_returned_overpayment_takes_back_the_credit_already_applied(account, charge, batch, cashier):
    charge([(date(2025, 7, 1), "100.00")])
    p = pay(account, "150.00", date(2025, 7, 10), batch, cashier, method="CHECK", check_number="77")
    later = charge([(date(2026, 1, 1), "80.00")], issued_on=date(2025, 12, 1))
    payment_return(payment=p, on=date(2025, 12, 5), reason="Cheque devuelto", actor=cashier)
    account.refresh_from_db()
    assert account.balance == D("180.00")
    st = statement(account=account, as_of=date(2025, 12, 5))
    assert st.credit == D("0.00")
    assert [i.principal_open for i in st.installments] == [D("100.00"), D("80.00")]
    later.refresh_from_db()
    assert later.status == "OPEN"
    assert_balances_consistent()
