"""improvement_bill: SID-1 / TID-2 charges as receivables, with liens, notices and refusals."""
from datetime import date
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from assessments.improvement_billing import services
from assessments.improvement_billing.models import BillingRun, ImprovementCharge
from assessments.models import LedgerEntry, Receivable
from assessments.notices.models import Notice
from core.models import Flag
from districts.improvement.models import SidNoticeRound
from liens.models import Lien

from .conftest import TODAY

pytestmark = pytest.mark.django_db


def bill(district, fy, user=None, today=TODAY, **kw):
    return services.improvement_bill(district=district, fiscal_year=fy, actor=user, today=today, **kw)


def test_sid_charges_become_receivables_with_liens(received, staff_user):
    run = bill(received.district, 2027, staff_user)
    assert (run.status, run.charges_count, run.charges_total) == ("BILLED", 3, Decimal("633.33"))
    recs = list(Receivable.objects.filter(source_type=run.source_type).order_by("amount"))
    assert [r.amount for r in recs] == [Decimal("100.00"), Decimal("200.00"), Decimal("333.33")]
    rec = recs[2]
    assert rec.kind == Receivable.Kind.BENEFIT_CHARGE
    assert rec.fund.code == "sid-fondo-especial" and rec.fund.lien_kind == "SID"
    assert rec.office.kind == "CRIM"
    # SID-1: the resolution's penalty, no exemption or discount.
    assert rec.surcharge_rule == "RESOLUTION"
    assert rec.surcharge_terms == {"grace_days": "30", "surcharge_pct": "10", "interest_pct_per_month": "0",
                                   "citation": "SID-1: Resolución R-1"}
    assert rec.breakdown["rule"] == "SID-1" and rec.breakdown["exemptions"] == "none (SID-1)"
    # July 1 was already past on Aug 3: it moves to Aug 3 + 30 days; January 1 stays.
    insts = list(rec.installments.order_by("seq").values_list("due_date", "amount"))
    assert insts == [(date(2026, 9, 2), Decimal("166.67")), (date(2027, 1, 1), Decimal("166.66"))]
    assert rec.breakdown["lines"][0]["moved_from"] == "2026-07-01"
    assert rec.breakdown["lines"][1]["moved_from"] is None
    assert sum(a for _d, a in insts) == rec.amount
    # LIEN-1 / SID-4: one lien per charge, dated the issue date.
    lien = Lien.objects.get(origin_type=Receivable.LIEN_ORIGIN, origin_id=str(rec.pk))
    assert (lien.kind, lien.amount, lien.constituted_on) == ("SID", Decimal("333.33"), TODAY)
    assert lien.finances_public_infrastructure is True
    assert LedgerEntry.objects.filter(receivable__in=recs, kind="CHARGE").count() == 6


def test_billing_twice_changes_nothing(received, staff_user):
    first = bill(received.district, 2027, staff_user)
    entries = LedgerEntry.objects.count()
    second = bill(received.district, 2027, staff_user)
    assert second.pk == first.pk and second.created_now == 0
    assert LedgerEntry.objects.count() == entries
    assert ImprovementCharge.objects.count() == 3 and Lien.objects.filter(kind="SID").count() == 3
    assert len(second.report["attempts"]) == 2


def test_due_dates_in_the_future_do_not_move(received, staff_user):
    run = bill(received.district, 2028, staff_user, today=date(2027, 6, 2))
    rec = Receivable.objects.filter(source_type=run.source_type).order_by("amount").first()
    assert list(rec.installments.values_list("due_date", flat=True)) == [date(2027, 7, 1), date(2028, 1, 1)]
    assert "late_billing" not in rec.breakdown


@pytest.mark.parametrize(("fy", "today", "reason"), [
    (2029, date(2028, 8, 1), "TERM_ENDED"),     # FY2026–FY2028 term
    (2025, TODAY, "BEFORE_TERM"),
    (2029, TODAY, "TOO_FAR"),                   # beyond next fiscal year (FY2028)
])
def test_years_outside_the_term_are_refused_and_flagged(received, staff_user, fy, today, reason):
    with pytest.raises(services.BillingRefused) as exc:
        bill(received.district, fy, staff_user, today=today)
    assert exc.value.reason == reason
    run = BillingRun.objects.get(district=received.district, fiscal_year=fy)
    assert (run.status, run.reason, run.charges_count) == ("REFUSED", reason, 0)
    flag = Flag.objects.get(object_id=run.pk, resolved_on__isnull=True)
    assert flag.rule == "SID-1" and f"FY{fy}" in flag.description
    assert not Receivable.objects.filter(source_type=run.source_type).exists()


def test_not_received_by_crim_is_refused_then_billed(charged_resolution, staff_user):
    from districts.improvement import services as improvement

    with pytest.raises(services.BillingRefused) as exc:
        bill(charged_resolution.district, 2027, staff_user)
    assert exc.value.reason == "NOT_RECEIVED" and "R-1" in exc.value.text
    improvement.sid_crim_receipt_record(actor=staff_user, resolution=charged_resolution, received_on=date(2026, 7, 6))
    run = bill(charged_resolution.district, 2027, staff_user)
    assert run.status == "BILLED" and run.reason == ""
    assert not Flag.objects.filter(object_id=run.pk, rule="SID-1", resolved_on__isnull=True).exists()


def test_project_not_carried_out_is_refused(received, staff_user):
    from districts.improvement import services as improvement

    improvement.sid_project_not_carried_out(actor=staff_user, resolution=received, on=date(2026, 7, 1), reason="X")
    with pytest.raises(services.BillingRefused) as exc:
        bill(received.district, 2027, staff_user)
    assert exc.value.reason == "NOT_CARRIED_OUT"


def test_not_an_improvement_district(db):
    from tests import factories

    with pytest.raises(services.ValidationError) as exc:
        bill(factories.district(), 2027)
    assert "district" in exc.value.message_dict


def test_tid_association_charges(tid_in_force, staff_user):
    run = bill(tid_in_force.district, 2027, staff_user)
    recs = list(Receivable.objects.filter(source_type=run.source_type).order_by("-amount"))
    assert [r.amount for r in recs] == [Decimal("3000.00"), Decimal("250.00"), Decimal("150.00")]
    rec = recs[0]
    assert rec.fund.code == "tid-tid-prueba" and rec.fund.lien_kind == "TID"
    assert rec.office.kind == "ASSOCIATION" and rec.office.name == "Asociación de Prueba, Inc."
    assert rec.surcharge_rule == "NONE" and rec.breakdown["rule"] == "TID-2"
    assert rec.breakdown["notice_round"]["kind"] == "TID"
    assert Lien.objects.filter(kind="TID", origin_id=str(rec.pk)).count() == 1
    assert {c.collector for c in ImprovementCharge.objects.filter(run=run)} == {"ASSOCIATION"}


def test_tid_outside_term_refused(tid_in_force, staff_user):
    with pytest.raises(services.BillingRefused) as exc:
        bill(tid_in_force.district, 2026, staff_user)
    assert exc.value.reason == "BEFORE_TERM"
    assert Flag.objects.filter(rule="TID-2", resolved_on__isnull=True).count() == 1


def test_notices_by_collector(received, tid_in_force, staff_user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        sid_run = bill(received.district, 2027, staff_user)
        tid_run = bill(tid_in_force.district, 2027, staff_user)
    sid_notices = Notice.objects.filter(source_type=sid_run.source_type)
    tid_notices = Notice.objects.filter(source_type=tid_run.source_type)
    assert sid_notices.count() == 3 and tid_notices.count() == 3
    assert set(sid_notices.values_list("method", "program")) == {("REGULAR", "SID")}      # SID-2
    assert set(tid_notices.values_list("method", "program")) == {("CERTIFIED_RR", "TID")}  # TID-4
    sid_round = SidNoticeRound.objects.get(resolution=received, fiscal_year=2027)
    assert all(n.receivable.breakdown["notice_round"] == {"kind": "SID", "id": sid_round.pk} for n in sid_notices)


def test_tid_collected_by_crim_goes_by_regular_mail(approved, staff_user, django_capture_on_commit_callbacks):
    from districts.improvement import services as improvement

    improvement.tid_publication_record(actor=staff_user, ordinance=approved, newspaper="El Vocero",
                                       published_on=date(2026, 5, 8))
    with django_capture_on_commit_callbacks(execute=True):
        run = bill(approved.district, 2027, staff_user)
    assert set(Notice.objects.filter(source_type=run.source_type).values_list("method", flat=True)) == {"REGULAR"}
    assert set(Receivable.objects.filter(source_type=run.source_type).values_list("office__kind", flat=True)) == {
        "CRIM"}


def test_command(received, capsys):
    call_command("improvement_bill", "--district", "sid-prueba", "--fiscal-year", "2027",
                 "--issued-on", "2026-11-30")
    out = capsys.readouterr().out
    assert "3 cargos nuevos por $633.33" in out
    call_command("improvement_bill", "--district", "sid-prueba", "--fiscal-year", "2027")
    assert "0 cargos nuevos" in capsys.readouterr().out
    with pytest.raises(CommandError, match="TERM_ENDED|TOO_FAR"):
        call_command("improvement_bill", "--district", "sid-prueba", "--fiscal-year", "2031")
    with pytest.raises(CommandError, match="no existe"):
        call_command("improvement_bill", "--district", "nope", "--fiscal-year", "2027")


def test_sid_notice_pdf_states_amount_dates_and_consequences(received, staff_user, tmp_path):
    """SID-2: the notice states the amount, the due dates (as billed) and the resolution's terms."""
    import os
    import shutil
    import subprocess

    from assessments.notices.services import notice_document, notice_issue

    received.penalty_terms = "Penalidad de 10 % tras 30 días de gracia."
    received.save()
    run = bill(received.district, 2027, staff_user)
    rec = Receivable.objects.filter(source_type=run.source_type).order_by("-amount").first()
    notice = notice_issue(receivable=rec, actor=staff_user)
    pdf = notice_document(notice=notice).file.path
    from tests.conftest import require

    require(shutil.which("pdftotext") is not None, "needs poppler's pdftotext (apt-get install poppler-utils)")
    text = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True, check=True).stdout
    assert "333.33" in text and "02/09/2026" in text and "01/01/2027" in text
    # The resolution's installments are numbered, not named after semesters; the moved one says so.
    assert "Plazo 1 de 2" in text and "Plazo 2 de 2" in text and "semestre" not in text
    assert "vencía el 01/07/2026" in " ".join(text.split())
    assert "Penalidad de 10 % tras 30 días de gracia." in text
    assert "SID-4" in text and "SID-2" in text
    if os.environ.get("SHOTS_DIR"):
        shutil.copy(pdf, os.path.join(os.environ["SHOTS_DIR"], "improvement_billing_notice.pdf"))


def test_a_parcel_joining_later_is_billed_by_the_next_run(tid_in_force, staff_user):
    from tests import factories

    run = bill(tid_in_force.district, 2027, staff_user)
    newcomer = factories.parcel(cadastre="200-300-400-04", municipality="San Juan", use_class="COMMERCIAL",
                                frontage_m=Decimal("2000.00"))
    factories.member(tid_in_force.district, newcomer, included_on=date(2026, 9, 1))
    again = bill(tid_in_force.district, 2027, staff_user, today=date(2026, 10, 1))
    assert (again.pk, again.created_now, again.charges_count) == (run.pk, 1, 4)
    rec = Receivable.objects.get(source_type=run.source_type, account__parcel=newcomer)
    assert (rec.amount, rec.issued_on) == (Decimal("500.00"), date(2026, 10, 1))   # max(150, 0.25 × 2000)
    assert list(rec.installments.values_list("due_date", flat=True)) == [date(2026, 10, 31), date(2027, 1, 1)]
    assert again.issued_on == TODAY
