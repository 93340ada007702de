"""Bank files: imported twice posts once; a line already posted is a duplicate; reconciliation report."""
from datetime import date
from decimal import Decimal

import pytest

from assessments.ledger.services import bankfile_import
from assessments.models import BankFileLine, Payment
from tests.ledger.conftest import assert_balances_consistent

D = Decimal
pytestmark = pytest.mark.django_db


def csv_bytes(*lines, header="reference,amount,date,bank_ref"):
    return ("\n".join([header, *lines]) + "\n").encode()


def test_same_file_twice_posts_once(account, charge, staff_user):
    rec = charge([(date(2025, 7, 1), "100.00")])
    content = csv_bytes(f"{rec.payment_reference},60.00,2025-07-20,B-1",
                        f"{rec.payment_reference},40.00,2025-07-21,B-2")
    first = bankfile_import(file=content, actor=staff_user, filename="banco-0721.csv")
    assert not first.already_imported
    assert first.report["MATCHED"] == {"count": 2, "total": "100.00"}
    second = bankfile_import(file=content, actor=staff_user, filename="banco-0721.csv")
    assert second.already_imported and second.bank_file.pk == first.bank_file.pk
    assert Payment.objects.count() == 2
    account.refresh_from_db()
    assert account.balance == D("0.00")
    assert {p.method for p in Payment.objects.all()} == {"TRANSFER"}
    assert_balances_consistent()


def test_line_already_posted_in_another_file_is_duplicate(account, charge, staff_user):
    rec = charge([(date(2025, 7, 1), "100.00")])
    bankfile_import(file=csv_bytes(f"{rec.payment_reference},60.00,2025-07-20,B-1"), actor=staff_user)
    again = bankfile_import(file=csv_bytes(f"{rec.payment_reference},60.00,2025-07-20,B-1",
                                           f"{rec.payment_reference},15.00,2025-07-22,B-9"), actor=staff_user)
    lines = {ln.bank_ref: ln for ln in again.bank_file.lines.all()}
    assert lines["B-1"].status == "DUPLICATE" and lines["B-1"].payment is not None
    assert lines["B-9"].status == "MATCHED"
    assert Payment.objects.count() == 2
    account.refresh_from_db()
    assert account.balance == D("25.00")


def test_unmatched_lines_are_reported_and_post_nothing(account, charge, staff_user):
    rec = charge([(date(2025, 7, 1), "100.00")])
    bad_digit = rec.payment_reference[:-1] + str((int(rec.payment_reference[-1]) + 1) % 10)
    result = bankfile_import(file=csv_bytes(f"{bad_digit},10.00,2025-07-20,X1", "0000000026,10.00,2025-07-20,X2",
                                            f"{rec.payment_reference},abc,2025-07-20,X3",
                                            f"{rec.payment_reference},10.00,20/07/2025,X4"), actor=staff_user)
    assert result.report["UNMATCHED"]["count"] == 4
    assert result.report["MATCHED"]["count"] == 0
    messages = list(BankFileLine.objects.order_by("line_no").values_list("message", flat=True))
    assert "verificador" in messages[0] and "referencia" in messages[1].lower()
    assert not Payment.objects.exists()


def test_identical_lines_without_bank_id_are_two_payments(account, charge, staff_user):
    rec = charge([(date(2025, 7, 1), "100.00")])
    result = bankfile_import(file=csv_bytes(f"{rec.payment_reference},10.00,2025-07-20",
                                            f"{rec.payment_reference},10.00,2025-07-20",
                                            header="reference,amount,date"), actor=staff_user)
    assert result.report["MATCHED"]["count"] == 2
    assert Payment.objects.count() == 2
