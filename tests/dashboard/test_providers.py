"""Each app's dashboard provider: rolls to certify before July 1 (IRR-9, LAJ-6), lien conflicts
waiting for a ruling (LIEN-2), flagged franchises (FRA-7/8/10), delinquent amounts, other flags."""
from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from assessments.rolls.models import CertifiedFigures, Roll
from core.dashboard import items as it
from core.dashboard.registry import collect, providers
from core.models import Flag
from core.workqueue import flag_raise, flag_resolve
from districts.models import Office
from tests import factories
from tests.rolls.conftest import IRR_FIGURES

pytestmark = pytest.mark.django_db
D = date.fromisoformat


def keyed(today, **filters):
    return {i.key: i for i in collect(today=today, **filters)}


def test_every_app_contributes_through_its_dashboard_module():
    assert set(providers()) >= {"clocks", "rolls", "ledger", "franchises", "liens", "flags"}
    assert providers()[0] == "clocks" and providers()[-1] == "flags"   # core's generic flags come last


def test_a_draft_roll_is_due_for_certification_by_june_30_and_leaves_when_certified():
    district = factories.district()
    figures = CertifiedFigures.objects.create(district=district, fiscal_year=2027, figures=IRR_FIGURES,
                                              certified_by="DTOP", certified_on=D("2026-05-01"))
    roll = Roll.objects.create(district=district, fiscal_year=2027, figures=figures)
    key = f"roll:{roll.pk}:certify"
    item = keyed(D("2026-06-01"))[key]
    assert (item.kind, item.rule, item.due_date, item.url) == ("roll", "IRR-9", D("2026-06-30"),
                                                                roll.get_absolute_url())
    assert item.district_id == district.pk and item.office_id == district.office_id
    assert it.window(item.due_date, D("2026-06-22")) == it.NEXT_30
    assert it.window(item.due_date, D("2026-06-23")) == it.THIS_WEEK
    assert it.window(item.due_date, D("2026-07-01")) == it.OVERDUE          # July 1: finalization day passed it
    Roll.objects.filter(pk=roll.pk).update(status=Roll.Status.CERTIFIED)
    assert key not in keyed(D("2026-06-01"))


def test_figures_without_a_roll_ask_for_the_roll_to_be_generated():
    district = factories.district(code="lajas", kind="LAJAS", name="Valle de Lajas")
    CertifiedFigures.objects.create(district=district, fiscal_year=2028, figures={}, certified_by="AT",
                                    certified_on=D("2027-04-01"))
    items = [i for i in collect(today=D("2027-06-01")) if i.key.startswith("figures:")]
    assert [(i.rule, i.due_date) for i in items] == [("LAJ-6", D("2027-06-30"))]
    assert items[0].url == reverse("rolls:generate", args=["lajas", 2028])
    assert not [i for i in collect(today=D("2028-07-01")) if i.key.startswith("figures:")]  # that year is over


def test_lien_conflicts_carry_the_parcel_s_district_and_link_to_its_ladder():
    parcel = factories.parcel()
    district = factories.district()
    factories.member(district, parcel)
    flag = flag_raise(kind=Flag.Kind.LIEN_CONFLICT, target=parcel, description="IRR-10 contra SID-4",
                      rule="LIEN-2", severity=Flag.Severity.HIGH)
    item = keyed(D("2026-12-01"))[f"flag:{flag.pk}"]
    assert (item.kind, item.rule, item.district_id, item.url) == ("lien", "LIEN-2", district.pk,
                                                                   reverse("liens:ladder", args=[parcel.pk]))
    assert item.roles == ("legal_reviewer",) and item.severity == 3
    flag_resolve(flag=flag, actor=None, resolution="Resolución 2026-4")
    assert f"flag:{flag.pk}" not in keyed(D("2026-12-01"))


def test_franchise_flags_carry_the_drna_office_and_the_fra10_prescription_date():
    from franchises import services
    from franchises.models import Franchise

    drna = factories.office(name="DRNA — Franquicias", kind=Office.Kind.DRNA)
    franchise = services.franchise_save(actor=None, instance=Franchise(
        number="DRNA-FE-2020-0001", holder=factories.person(), source="GROUNDWATER", use="INDUSTRIAL_COMMERCIAL",
        authorized_gallons=1_000_000, issue_date=D("2020-01-15"), expiry_date=D("2030-01-14"), office=drna))
    Franchise.objects.filter(pk=franchise.pk).update(prescription_on=D("2026-12-05"))
    flag = flag_raise(kind=Flag.Kind.NON_USE, target=franchise, description="12 meses sin uso", rule="FRA-10")
    item = keyed(D("2026-12-01"))[f"flag:{flag.pk}"]
    assert (item.kind, item.rule, item.office_id, item.due_date) == ("franchise", "FRA-10", drna.pk, D("2026-12-05"))
    assert it.window(item.due_date, D("2026-12-01")) == it.THIS_WEEK
    assert list(keyed(D("2026-12-01"), kind="franchise")) == [f"flag:{flag.pk}"]


def test_other_flags_come_from_core_unchanged():
    district = factories.district()
    flag = flag_raise(kind=Flag.Kind.OTHER, target=district, description="Revisar la resolución")
    item = keyed(D("2026-12-01"))[f"flag:{flag.pk}"]
    assert (item.kind, item.due_date, item.url) == ("flag", None, district.get_absolute_url())
    assert it.window(item.due_date, D("2026-12-01")) == it.UNDATED


def test_delinquent_amounts_are_the_aging_report_s_past_due_installments(staff_user):
    from assessments.ledger.services import account_for_parcel, receivable_create
    from assessments.models import Fund

    office = factories.office()
    fund = Fund.objects.create(code="riego", name="Fondo de riego", lien_kind="IRRIGATION")
    parcel = factories.parcel()
    factories.own(parcel, factories.person())
    receivable_create(account=account_for_parcel(parcel), fund=fund, office=office, kind="ROLL_LINE",
                      source_type="test", source_id="1", description="Cargo de riego",
                      installments=[(D("2026-01-01"), Decimal("100.05")), (D("2026-07-01"), Decimal("50.10"))],
                      issued_on=D("2025-12-01"), actor=staff_user)
    key = "delinquent:other"                                              # a charge of no roll: no district
    assert key not in keyed(D("2025-12-31"))
    assert keyed(D("2026-01-01"))[key].amount == Decimal("100.05")       # the aging report's convention
    assert keyed(D("2026-07-02"))[key].amount == Decimal("150.15")
    assert keyed(D("2026-07-02"))[key].url == reverse("rolls:aging")


def test_delinquent_roll_charges_are_shown_per_district(staff_user):
    from assessments.ledger.services import account_for_parcel, receivable_create
    from assessments.models import Fund

    district = factories.district()
    figures = CertifiedFigures.objects.create(district=district, fiscal_year=2026, figures=IRR_FIGURES,
                                              certified_by="DTOP", certified_on=D("2025-05-01"))
    roll = Roll.objects.create(district=district, fiscal_year=2026, figures=figures, status=Roll.Status.FINALIZED)
    fund = Fund.objects.create(code="riego", name="Fondo de riego", lien_kind="IRRIGATION")
    parcel = factories.parcel()
    factories.own(parcel, factories.person())
    receivable_create(account=account_for_parcel(parcel), fund=fund, office=district.office, kind="ROLL_LINE",
                      source_type=f"rolls.Roll:{roll.pk}", source_id="371-045-123-07", description="Padrón FY2026",
                      installments=[(D("2025-07-01"), Decimal("75.50")), (D("2026-01-01"), Decimal("75.50"))],
                      issued_on=D("2025-07-01"), actor=staff_user)
    items = keyed(D("2026-12-01"), kind="delinquent")
    assert list(items) == [f"delinquent:district:{district.pk}"]
    item = items[f"delinquent:district:{district.pk}"]
    assert (item.amount, item.district_id, item.office_id) == (Decimal("151.00"), district.pk, district.office_id)
    assert item.url == f"{reverse('rolls:aging')}?district={district.code}"  # the page filters by code
    assert item.detail == "1 cuenta con plazos vencidos; lo más antiguo: más de 365 días"


def test_clocks_on_a_district_or_a_member_parcel_carry_that_district():
    from core.workqueue import clock_open

    district = factories.district()
    parcel = factories.parcel()
    factories.member(district, parcel)
    on_district = clock_open(rule="SID-2", start_date=D("2026-11-02"), due_date=D("2026-12-03"), target=district,
                             label="Notificar")
    on_parcel = clock_open(rule="LAJ-7", start_date=D("2026-11-02"), due_date=D("2026-12-04"), target=parcel,
                           label="Gracia", moves_past_holidays=False)
    items = keyed(D("2026-12-01"), district=district.pk)
    assert set(items) == {f"clock:{on_district.pk}", f"clock:{on_parcel.pk}"}
    assert keyed(D("2026-12-01"), district=district.pk + 1) == {}
