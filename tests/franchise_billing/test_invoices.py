"""FRA-1 to FRA-3 tariff invoices: equal to `compute franchise-tariff`, FRA-3's dates, the pro rata
first year, exemptions, idempotent runs, the task and its beat entry."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.conf import settings
from django.core.management import call_command

from assessments.compute import run
from assessments.franchise_billing import services
from assessments.franchise_billing.models import FranchiseCharge, InvoiceRun
from assessments.franchise_billing.tasks import franchise_invoices_generate_task
from assessments.ledger.receivables import account_for_party
from assessments.models import LedgerEntry, Receivable
from assessments.rules.franchise import first_year_amount
from core.money import round_half_up
from franchises.models import Franchise

D = date.fromisoformat
pytestmark = pytest.mark.django_db


def tariff(f: Franchise, as_of: str = "2026-07-01") -> dict:
    payload = {"source": f.source, "use": f.use, "authorized_gallons": str(f.authorized_gallons),
               "payment_plan": f.payment_plan, "as_of": as_of}
    return run("franchise-tariff", payload)


def invoice(f: Franchise, fy: int = 2027) -> Receivable:
    return FranchiseCharge.objects.get(franchise=f, kind="TARIFF", fiscal_year=fy).receivable


def installments(rec: Receivable) -> list[tuple[date, Decimal]]:
    return [(i.due_date, i.amount) for i in rec.installments.order_by("seq")]


FIXED_DATES_DEMO = {"DRNA-FE-2016-0088", "DRNA-FE-2018-0021", "DRNA-FE-2019-0077", "DRNA-FE-2020-0054",
                    "DRNA-FE-2021-0113", "DRNA-FE-2022-0031"}


def test_every_demo_franchise_is_billed_exactly_as_compute_says():
    call_command("seed_franchises", verbosity=0)
    result = services.franchise_invoices_generate(fiscal_year=2027, actor=None, issued_on=D("2026-06-01"))
    report = result.report
    demo = list(Franchise.objects.order_by("number"))
    assert len(demo) == 17  # 15 and a renewal chain (DRNA-FE-2016-0140 renewed as a new franchise)
    billed = exempt = metered = 0
    for f in demo:
        if f.exemption:
            exempt += 1
            assert not FranchiseCharge.objects.filter(franchise=f).exists()
            row = next(e for e in report["exempt"] if e["number"] == f.number)
            assert row["exemption"] == f.exemption and row["citation"]
        elif f.tariff_class == "GROUND_INDUSTRIAL":
            metered += 1
            assert not FranchiseCharge.objects.filter(franchise=f, kind="TARIFF").exists()
            assert f.number in [m["number"] for m in report["metered"]]
        else:
            billed += 1
            expected = tariff(f)
            rec = invoice(f)
            if f.expiry_date < D("2027-06-30") or f.issue_date > D("2026-07-01"):
                # FRA-3 Decision: the first and last years are billed pro rata by days
                period = rec.breakdown["period"]
                assert period["start"] == max(f.issue_date, D("2026-07-01")).isoformat()
                assert period["end"] == min(f.expiry_date, D("2027-06-30")).isoformat()
                assert rec.amount == round_half_up(Decimal(expected["annual_tariff"]) * period["days"] / 365)
                continue
            assert rec.amount == Decimal(expected["annual_tariff"])
            assert [a for _, a in installments(rec)] == [Decimal(a) for a in expected["installments"]]
            dues = [D("2026-07-01")] if f.payment_plan == "ANNUAL" else [D("2026-07-01"), D("2027-01-01")]
            assert [d for d, _ in installments(rec)] == dues
            assert rec.breakdown["tariff_class"] == expected["tariff_class"] == f.tariff_class
    assert (billed, exempt, metered) == (9, 6, 2)
    assert len(report["created"]) == 9 and report["skipped"] == [] and report["errors"] == []
    amounts = {c["number"]: c["amount"] for c in report["created"]}
    renewed = [c for c in report["created"] if c["number"] not in FIXED_DATES_DEMO]
    assert {k: v for k, v in amounts.items() if k in FIXED_DATES_DEMO} == {
        "DRNA-FE-2016-0088": "8000.00", "DRNA-FE-2018-0021": "675.00", "DRNA-FE-2019-0077": "9250.00",
        "DRNA-FE-2020-0054": "4500.00", "DRNA-FE-2021-0113": "200.00", "DRNA-FE-2022-0031": "112.50"}
    # the demo dates follow today: the expiring franchise and the renewal chain are prorated, and the
    # chain's two invoices bill the year's days once: together they ask the annual $50.00 (±1 cent).
    assert len(renewed) == 3
    chain = [Decimal(c["amount"]) for c in renewed if c["number"] != "DRNA-FE-2017-0150"]
    assert abs(sum(chain) - Decimal("50.00")) <= Decimal("0.01")
    assert report["created_total"] == str(sum((Decimal(a) for a in amounts.values()), Decimal(0)))


def test_the_invoice_is_a_receivable_of_the_holder_in_the_special_fund(make_franchise, holder, drna):
    f = make_franchise(source="BRACKISH", use="INDUSTRIAL_COMMERCIAL", gallons=250_000_000)
    services.franchise_invoices_generate(fiscal_year=2027, actor=None, issued_on=D("2026-06-01"))
    rec = invoice(f)
    assert (rec.kind, rec.account, rec.fund.code, rec.office) == (
        "INVOICE", account_for_party(holder), "franquicias-fondo-especial", drna)
    assert (rec.source_type, rec.source_id) == ("franchise_billing.tariff", f"{f.pk}:FY2027")
    assert rec.amount == Decimal("200.00")  # $150 + $0.20 × 250 MG
    assert rec.issued_on == D("2026-06-01") and rec.status == "OPEN" and not rec.creates_lien
    b = rec.breakdown
    assert b["rules"] == ["FRA-1", "FRA-3"] and b["tariff_class"] == "BRACKISH"
    assert b["parameters"] == ["fra_tariffs@reglamento-aguas-1"] and "8.13 b" in b["citation"]
    assert "8.14" in b["payment_citation"] and b["lines"][0]["rule"] == "FRA-3"
    charge = rec.franchise_charge
    assert (charge.tariff_class, charge.fiscal_year, charge.parameters) == (
        "BRACKISH", 2027, "fra_tariffs@reglamento-aguas-1")


def test_semiannual_halves_are_due_july_1_and_january_1(make_franchise):
    f = make_franchise(gallons=1_234_567, plan="SEMIANNUAL")  # DOMESTIC: 50 × 1.234567 = 61.72835 → 61.73
    services.franchise_invoice_create(franchise=f, fiscal_year=2027, actor=None, issued_on=D("2026-06-01"))
    rec = invoice(f)
    assert installments(rec) == [(D("2026-07-01"), Decimal("30.87")), (D("2027-01-01"), Decimal("30.86"))]
    assert [str(a) for _, a in installments(rec)] == tariff(f)["installments"]


def test_annual_is_due_july_1(make_franchise):
    f = make_franchise(gallons=750_000)  # DOMESTIC below 1 MG: the $50 minimum
    services.franchise_invoice_create(franchise=f, fiscal_year=2026, actor=None, issued_on=D("2025-06-01"))
    assert installments(invoice(f, 2026)) == [(D("2025-07-01"), Decimal("50.00"))]


@pytest.mark.parametrize(("issue", "plan", "expected"), [
    # 259 of 365 days (2026-10-15 … 2027-06-30): 100 × 259 / 365 = 70.958… → 70.96, due on the issue date
    ("2026-10-15", "ANNUAL", [("2026-10-15", "70.96")]),
    # semiannual, issued in S1: halves of the prorated amount, on the issue date and January 1
    ("2026-10-15", "SEMIANNUAL", [("2026-10-15", "35.48"), ("2027-01-01", "35.48")]),
    # issued in S2 (150 days): 100 × 150 / 365 = 41.095… → 41.10, whole on the issue date
    ("2027-02-01", "SEMIANNUAL", [("2027-02-01", "41.10")]),
    # issued on July 1 itself: the full year, FRA-3's own dates
    ("2026-07-01", "SEMIANNUAL", [("2026-07-01", "50.00"), ("2027-01-01", "50.00")]),
])
def test_a_franchise_issued_mid_year_pays_its_first_year_pro_rata_by_days(make_franchise, issue, plan, expected):
    f = make_franchise(gallons=2_000_000, plan=plan, issue=D(issue), expiry=D("2031-06-30"))  # $100.00 a year
    outcome = services.franchise_invoice_create(franchise=f, fiscal_year=2027, actor=None)
    rec = outcome.charge.receivable
    assert installments(rec) == [(D(d), Decimal(a)) for d, a in expected]
    annual = Decimal(tariff(f, as_of=max(issue, "2026-07-01"))["annual_tariff"])
    assert annual == Decimal("100.00")
    assert rec.amount == (first_year_amount(annual, D(issue)) if issue != "2026-07-01" else annual)
    assert outcome.charge.prorated == (issue != "2026-07-01")
    if outcome.charge.prorated:
        assert rec.breakdown["prorated"]["issued_on"] == issue
        # the next fiscal year is a whole year again
        nxt = services.franchise_invoice_create(franchise=f, fiscal_year=2028, actor=None).charge
        assert nxt.receivable.amount == Decimal("100.00") and not nxt.prorated


def test_exempt_franchises_get_no_invoice_and_are_reported_with_their_reason(make_franchise):
    exempt = make_franchise(use="GOVERNMENTAL", exemption="AAA", exemption_basis="Toma de la planta de filtros.")
    paying = make_franchise()
    before = Receivable.objects.count()
    result = services.franchise_invoices_generate(fiscal_year=2027, actor=None, issued_on=D("2026-06-01"))
    assert Receivable.objects.count() == before + 1
    assert not FranchiseCharge.objects.filter(franchise=exempt).exists()
    assert FranchiseCharge.objects.filter(franchise=paying).count() == 1
    [row] = result.report["exempt"]
    assert (row["number"], row["exemption"], row["label"]) == (exempt.number, "AAA",
                                                             "Autoridad de Acueductos y Alcantarillados")
    assert "8.13 d" in row["citation"]


def test_a_second_run_creates_nothing(make_franchise):
    make_franchise(plan="SEMIANNUAL")
    make_franchise(source="SURFACE", use="INDUSTRIAL_COMMERCIAL", gallons=18_500_000)
    first = services.franchise_invoices_generate(fiscal_year=2027, actor=None, issued_on=D("2026-06-01"))
    counts = (Receivable.objects.count(), LedgerEntry.objects.count(), FranchiseCharge.objects.count())
    second = services.franchise_invoices_generate(fiscal_year=2027, actor=None, issued_on=D("2026-06-02"))
    assert first.created_count == 2 and second.created_count == 0
    assert (Receivable.objects.count(), LedgerEntry.objects.count(), FranchiseCharge.objects.count()) == counts
    assert [s["reason"] for s in second.report["skipped"]] == ["ALREADY_INVOICED", "ALREADY_INVOICED"]
    assert second.report["fy_totals_by_class"] == first.report["fy_totals_by_class"]
    assert InvoiceRun.objects.count() == 2


def test_franchises_not_active_or_outside_the_year_are_skipped(make_franchise):
    make_franchise(number="DRNA-FE-2020-0001", status=Franchise.Status.SUSPENDED)
    make_franchise(number="DRNA-FE-2020-0002", issue=D("2017-01-15"), expiry=D("2026-06-30"))
    make_franchise(number="DRNA-FE-2020-0003", issue=D("2027-07-01"), expiry=D("2030-07-01"))
    report = services.franchise_invoices_generate(fiscal_year=2027, actor=None).report
    assert [(s["number"], s["reason"]) for s in report["skipped"]] == [
        ("DRNA-FE-2020-0001", "NOT_ACTIVE"), ("DRNA-FE-2020-0002", "EXPIRED"), ("DRNA-FE-2020-0003", "NOT_YET_ISSUED")]
    assert report["created"] == [] and not Receivable.objects.exists()


def test_a_run_refuses_future_issue_dates_and_far_years(make_franchise):
    from django.core.exceptions import ValidationError

    make_franchise()
    with pytest.raises(ValidationError) as exc:
        services.franchise_invoices_generate(fiscal_year=2035, actor=None)
    assert "fiscal_year" in exc.value.message_dict
    with pytest.raises(ValidationError) as exc:
        services.franchise_invoices_generate(fiscal_year=2027, actor=None, issued_on=D("2099-01-01"))
    assert "issued_on" in exc.value.message_dict
    assert not Receivable.objects.exists() and not InvoiceRun.objects.exists()


def test_the_task_delivered_twice_bills_once_and_june_1_beat_runs_the_next_year(make_franchise):
    make_franchise()
    assert franchise_invoices_generate_task.delay(2027).get()["created"] == 1
    assert franchise_invoices_generate_task(2027)["created"] == 0
    assert FranchiseCharge.objects.count() == 1
    nxt = franchise_invoices_generate_task(None, "2026-06-01")
    assert (nxt["fiscal_year"], nxt["created"]) == (2027, 0)
    entry = settings.CELERY_BEAT_SCHEDULE["franchise-invoices-june-1"]
    assert entry["task"] == "assessments.franchise_billing.tasks.franchise_invoices_generate_task"
    assert (entry["schedule"].month_of_year, entry["schedule"].day_of_month) == ({6}, {1})
    assert "franchise-arrears-flags-daily" in settings.CELERY_BEAT_SCHEDULE


def test_catch_up_keeps_no_empty_runs_and_bills_new_franchises(make_franchise):
    from assessments.franchise_billing.tasks import franchise_invoices_catch_up_task

    make_franchise()
    assert franchise_invoices_catch_up_task()["created"] == 1
    assert franchise_invoices_catch_up_task()["run"] is None
    assert InvoiceRun.objects.count() == 1


def test_invoices_get_notices_like_every_other_charge(make_franchise, django_capture_on_commit_callbacks):
    from assessments.notices.models import Notice

    make_franchise()
    with django_capture_on_commit_callbacks(execute=True):
        services.franchise_invoices_generate(fiscal_year=2027, actor=None, issued_on=D("2026-06-01"))
    receivables = Receivable.objects.filter(kind=Receivable.Kind.INVOICE)
    assert receivables.exists()
    assert Notice.objects.filter(receivable__in=receivables).count() == receivables.count()
