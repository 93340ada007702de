"""seed_franchise_billing: idempotent; FY2027 invoices equal `compute franchise-tariff`; FRA-4 has numbers."""
from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.utils import timezone

from assessments.compute import run
from assessments.franchise_billing import rules, selectors
from assessments.franchise_billing.management.commands.seed_franchise_billing import Command
from assessments.franchise_billing.models import AaaTransfer, FranchiseCharge, InvoiceRun
from assessments.models import LedgerEntry, Payment, Receivable
from core.models import Flag
from core.money import round_half_up
from franchises.models import Franchise

pytestmark = pytest.mark.django_db


def counts():
    return (Receivable.objects.count(), LedgerEntry.objects.count(), Payment.objects.count(),
            FranchiseCharge.objects.count(), AaaTransfer.objects.count(), InvoiceRun.objects.count(),
            Flag.objects.count())


def test_seed_is_idempotent_and_bills_every_demo_franchise_as_compute_says():
    call_command("seed_franchise_billing", verbosity=0)
    first = counts()
    call_command("seed_franchise_billing", verbosity=0)
    assert counts() == first

    for f in Franchise.objects.all():
        tariff = FranchiseCharge.objects.filter(franchise=f, kind="TARIFF", fiscal_year=2027).first()
        if f.exemption or f.tariff_class == "GROUND_INDUSTRIAL":
            assert tariff is None
            continue
        expected = run("franchise-tariff", {"source": f.source, "use": f.use, "payment_plan": f.payment_plan,
                                            "authorized_gallons": str(f.authorized_gallons), "as_of": "2026-07-01"})
        if tariff.prorated:  # FRA-3: a first or last year (or a renewal's remainder) by days
            assert tariff.amount == round_half_up(Decimal(expected["annual_tariff"]) * tariff.days / 365)
            continue
        assert str(tariff.receivable.amount) == expected["annual_tariff"]
        assert [str(i.amount) for i in tariff.receivable.installments.order_by("seq")] == expected["installments"]

    bottler = Franchise.objects.get(number="DRNA-FE-2019-0042")
    bills = list(FranchiseCharge.objects.filter(franchise=bottler, kind="METERED").order_by("month"))
    assert len(bills) == 18
    expected = run("franchise-tariff", {"source": bottler.source, "use": bottler.use,
                                        "monthly_gallons_extracted": [str(b.gallons) for b in bills]})
    assert [str(b.receivable.amount) for b in bills] == expected["monthly_bills"]
    assert [b.receivable.status for b in bills].count("OPEN") == 2

    transfer = AaaTransfer.objects.get()  # the last fiscal quarter ended: FY2027-Q1 on 2026-12-01
    assert transfer.period_label == Command.last_ended_quarter(timezone.localdate()).label
    report = selectors.fra4_report(rules.period_from_label(transfer.period_label))
    gi = next(r for r in report.rows if r.tariff_class == "GROUND_INDUSTRIAL")
    assert gi.collected > 0 and gi.transferred == round_half_up(gi.collected * Decimal("0.9"))
    assert (transfer.collected, transfer.transferred, transfer.retained) == (gi.collected, gi.transferred,
                                                                             gi.retained)
    assert rules.period_from_label("FY2027-Q1") == Command.last_ended_quarter(date(2026, 12, 1))
    assert Command.last_ended_quarter(date(2026, 7, 1)).label == "FY2026-Q4"


def test_the_seed_has_a_renewed_franchise_billed_without_overlap():
    """FRA-3 Decision (sec. 8.14 a, 8.18): the renewed franchise's last year ends at its expiry and
    its renewal starts the day after; no day of FY2027 is billed twice."""
    call_command("seed_franchise_billing", verbosity=0)
    old = Franchise.objects.get(number="DRNA-FE-2016-0140")
    new = old.successors.get()
    assert new.issue_date == old.expiry_date + timedelta(days=1)
    periods = sorted((c.period_start, c.period_end) for c in selectors.chain_invoices(old)
                     if c.fiscal_year == 2027 and selectors.bills_days(c))
    assert periods[0][1] == old.expiry_date and periods[-1][0] == new.issue_date
    for (_, end), (start, _) in zip(periods, periods[1:], strict=False):
        assert start > end
