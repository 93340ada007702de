"""Issue #17: every role's home page lists what waits on that role, with counts — the approver the
roll-line changes, adjustments, write-offs and refunds to decide (never their own requests), the cashier
their open drawer, the legal reviewer the lien conflicts; the auditor is told nothing waits."""
from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.ledger.conftest import account, charge, funds, office, parcel  # noqa: F401 (fixtures)
from tests.rolls.conftest import irrigation_figures, irrigation_register  # noqa: F401 (fixtures)
from tests.web.test_roles import draft_roll, pending_change  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def _home(user, language="es") -> str:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(user)
    response = client.get(reverse("home"))
    assert response.status_code == 200
    return response.content.decode()


def _count(html: str, key: str) -> int | None:
    found = re.search(rf'id="waiting-{key}"[^>]*>.*?<span class="waiting-count">(\d+)</span>', html, re.S)
    return int(found.group(1)) if found else None


@pytest.fixture
def requests_pending(account, charge, staff_user, pending_change):  # noqa: F811
    from assessments.ledger.services import adjustment_request

    rec = charge([(date(2025, 7, 1), "100.00")])
    inst = rec.installments.get()
    for amount in ("-10.00", "-5.00"):
        adjustment_request(kind="ADJUSTMENT", account=account, installment=inst, amount=Decimal(amount),
                           reason="Error de cabida", actor=staff_user)
    adjustment_request(kind="WRITE_OFF", account=account, receivable=rec, amount=Decimal("100.00"),
                       reason="Incobrable", actor=staff_user)
    return pending_change


def test_the_approver_sees_each_kind_of_request_waiting_with_its_count(requests_pending, approver_user):
    html = _home(approver_user)
    assert "Espera por usted" in html
    assert _count(html, "line_change") == 1
    assert _count(html, "adjustment") == 2
    assert _count(html, "write_off") == 1
    assert _count(html, "refund") == 0
    assert _count(html, "roll_certify") == 1
    # The line change links to the one roll it is in, where the approver decides it.
    assert f'href="{reverse("rolls:detail", args=[requests_pending.line.roll_id])}"' in html
    # Not the cashier's or the legal reviewer's work.
    assert _count(html, "cash_batch") is None and _count(html, "lien_conflict") is None


def test_the_requester_is_not_asked_to_approve_their_own_requests(requests_pending, make_user, staff_user):
    from django.contrib.auth.models import Group

    staff_user.groups.add(Group.objects.get(name="approver"))  # may approve, but not what they asked for
    html = _home(staff_user)
    assert _count(html, "line_change") == 0 and _count(html, "adjustment") == 0 and _count(html, "write_off") == 0


def test_staff_cashier_legal_reviewer_and_auditor_each_see_their_own(requests_pending, staff_user, cashier_user,
                                                                      make_user, auditor_user):
    from assessments.ledger.services import batch_open

    staff = _home(staff_user)
    assert _count(staff, "line_change") is None and _count(staff, "adjustment") is None
    assert _count(staff, "franchise_flag") == 0

    batch_open(cashier=cashier_user, business_date=date(2026, 1, 15), actor=cashier_user)
    cashier = _home(cashier_user)
    assert _count(cashier, "cash_batch") == 1 and _count(cashier, "adjustment") is None

    legal = _home(make_user("lucia.legal", "legal_reviewer"))
    assert _count(legal, "lien_conflict") == 0 and _count(legal, "adjustment") is None

    auditor = _home(auditor_user)
    assert "Nada espera por su rol" in auditor and 'class="waiting-count"' not in auditor


def test_the_waiting_box_speaks_english(requests_pending, approver_user):
    html = _home(approver_user, language="en")
    assert "Waiting for you" in html and "Adjustments to approve" in html
