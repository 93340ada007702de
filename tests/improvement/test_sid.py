"""SID life cycle: SID-1 (no exemption, exoneration or discount), SID-3 (retention and remittance,
as the `sid-remittance` calculation computes them), the report of what is due and late, and
SID-5 (refund sources that add up to what owners paid, to the cent)."""
from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from assessments.compute import run
from core.models import AuditEntry, Flag
from districts.improvement import rules, selectors, services
from districts.improvement.models import SidCollectionBatch, SidResolution, SidResolutionCharge
from districts.models import Parcel, Party

pytestmark = pytest.mark.django_db


def parcel(cadastre):
    return Parcel.objects.get(cadastre=cadastre)


# --- SID-1 ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("field", ["exemption", "exoneration_pct", "prompt_payment_discount", "discount_pct",
                                   "descuento_pronto_pago", "exencion"])
def test_sid1_resolution_refuses_any_exemption_or_discount(sid_district, staff_user, field):
    with pytest.raises(ValidationError) as exc:
        services.sid_resolution_create(
            actor=staff_user, district=sid_district, number="R-9", adopted_on=date(2025, 1, 10), term_years=3,
            first_fiscal_year=2026, due_dates=["07-01"], **{field: Decimal("0")})
    assert "SID-1" in str(exc.value) and field in str(exc.value)
    assert not SidResolution.objects.filter(number="R-9").exists()


@pytest.mark.parametrize("field", ["exemption", "exoneration", "prompt_payment_discount"])
def test_sid1_charge_refuses_any_exemption_or_discount(resolution, staff_user, field):
    with pytest.raises(ValidationError) as exc:
        services.sid_charge_set(actor=staff_user, resolution=resolution, parcel=parcel("100-200-300-01"),
                                annual_charge=Decimal("100.00"), **{field: Decimal("10.00")})
    assert "SID-1" in str(exc.value)
    with pytest.raises(ValidationError):
        services.sid_charges_set(actor=staff_user, resolution=resolution, lines=[
            {"parcel": parcel("100-200-300-02"), "annual_charge": Decimal("50.00")},
            {"parcel": parcel("100-200-300-01"), "annual_charge": Decimal("100.00"), field: True}])
    assert not SidResolutionCharge.objects.exists()  # the whole request refused, nothing written


def test_sid1_form_and_api_refuse_a_discount_field(resolution, staff_client):
    url = reverse("improvement:sid_charge", args=[resolution.pk])
    response = staff_client.post(url, {"parcel": parcel("100-200-300-01").pk, "annual_charge": "100.00",
                                       "prompt_payment_discount": "5"})
    assert response.status_code == 200
    assert "SID-1" in response.content.decode()
    api = staff_client.post(f"/api/v1/improvement/sid-resolutions/{resolution.pk}/charges/",
                            {"parcel": "100-200-300-01", "annual_charge": "100.00", "exemption": "true"},
                            content_type="application/json")
    assert api.status_code == 400
    assert "SID-1" in str(api.json())
    assert not SidResolutionCharge.objects.exists()


def test_sid1_due_dates_and_penalty_are_the_resolutions(resolution):
    assert resolution.due_dates == ["07-01", "01-01"]
    assert resolution.due_dates_for(2026) == [date(2025, 7, 1), date(2026, 1, 1)]
    assert (resolution.penalty_pct, resolution.penalty_grace_days) == (Decimal("10"), 30)


def test_sid1_resolution_needs_a_due_date_and_a_sid_district(sid_district, tid_district, staff_user):
    common = {"number": "R-2", "adopted_on": date(2025, 1, 10), "term_years": 3, "first_fiscal_year": 2026}
    with pytest.raises(ValidationError) as exc:
        services.sid_resolution_create(actor=staff_user, district=sid_district, due_dates=[], **common)
    assert "due_dates" in exc.value.message_dict
    with pytest.raises(ValidationError) as exc:
        services.sid_resolution_create(actor=staff_user, district=tid_district, due_dates=["07-01"], **common)
    assert "district" in exc.value.message_dict


def test_sid_charge_needs_a_member_parcel(resolution, staff_user, tid_district):
    outsider = Parcel.objects.filter(memberships__district=tid_district).first()
    with pytest.raises(ValidationError):
        services.sid_charge_set(actor=staff_user, resolution=resolution, parcel=outsider, annual_charge="10.00")


# --- SID-3 ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("collected", ["10000.10", "199.90", "0.10", "0.09", "1234567.89", "0.00"])
def test_sid3_batch_matches_the_compute_calculation(charged_resolution, staff_user, collected):
    services.sid_crim_receipt_record(actor=staff_user, resolution=charged_resolution, received_on=date(2025, 2, 1))
    batch = services.sid_batch_record(actor=staff_user, resolution=charged_resolution, received_on=date(2025, 9, 2),
                                      collected=Decimal(collected))
    expected = run("sid-remittance", {"collected": collected})
    assert (str(batch.retained), str(batch.remitted)) == (expected["retained"], expected["remitted"])
    assert batch.parameters_label == expected["parameters"][0]
    assert batch.retained + batch.remitted == Decimal(collected)


def test_sid3_extended_batch_rounds_once_on_its_new_total(charged_resolution, staff_user):
    """The collections feed extends a batch not yet remitted: SID-3 is recomputed here (one place for
    its rounding) on the new total, never as the sum of two rounded retentions."""
    services.sid_crim_receipt_record(actor=staff_user, resolution=charged_resolution, received_on=date(2025, 2, 1))
    batch = services.sid_batch_record(actor=staff_user, resolution=charged_resolution, received_on=date(2025, 9, 2),
                                      collected=Decimal("0.10"))     # 0.005 → 0.01 retained
    assert batch.retained == Decimal("0.01")
    batch = services.sid_batch_extend(actor=staff_user, batch=batch, collected=Decimal("0.20"))
    batch.refresh_from_db()
    expected = run("sid-remittance", {"collected": "0.20"})
    assert (str(batch.retained), str(batch.remitted)) == (expected["retained"], expected["remitted"]) == \
        ("0.01", "0.19")                                             # 0.01 + 0.01 would be 0.02
    assert batch.parameters_label == expected["parameters"][0]
    pct, label, result = services.sid_batch_figures(batch.received_on, Decimal("0.20"))
    assert (pct, label, result.retained) == (batch.retention_pct, batch.parameters_label, batch.retained)
    entry = AuditEntry.objects.filter(action="sid.batch.extend").get()
    assert (entry.data["before"], entry.data["collected"], entry.data["rule"]) == ("0.10", "0.20", "SID-3")
    # A remitted batch is closed: what is collected later goes in another batch.
    services.sid_batch_remit(actor=staff_user, batch=batch, remitted_on=date(2025, 9, 10))
    with pytest.raises(ValidationError) as refused:
        services.sid_batch_extend(actor=staff_user, batch=batch, collected=Decimal("0.30"))
    assert "collected" in refused.value.message_dict
    batch.refresh_from_db()
    assert batch.collected == Decimal("0.20")


def test_sid3_batch_recorded_twice_changes_nothing(charged_resolution, staff_user):
    services.sid_crim_receipt_record(actor=staff_user, resolution=charged_resolution, received_on=date(2025, 2, 1))
    kwargs = {"resolution": charged_resolution, "received_on": date(2025, 9, 2), "collected": "500.00",
              "reference": "L-1"}
    first = services.sid_batch_record(actor=staff_user, **kwargs)
    audits = AuditEntry.objects.count()
    again = services.sid_batch_record(actor=staff_user, **kwargs)
    assert again.pk == first.pk
    assert (SidCollectionBatch.objects.count(), AuditEntry.objects.count()) == (1, audits)
    with pytest.raises(ValidationError):
        services.sid_batch_record(actor=staff_user, **{**kwargs, "collected": "501.00"})


def test_sid3_no_collection_before_crim_receives_the_resolution(charged_resolution, staff_user):
    with pytest.raises(ValidationError):
        services.sid_batch_record(actor=staff_user, resolution=charged_resolution, received_on=date(2025, 9, 2),
                                  collected="1.00")


def test_sid3_report_what_is_due_when_and_what_is_late(charged_resolution, staff_user):
    services.sid_crim_receipt_record(actor=staff_user, resolution=charged_resolution, received_on=date(2025, 2, 1))
    on_time = services.sid_batch_record(actor=staff_user, resolution=charged_resolution,
                                        received_on=date(2026, 3, 3), collected="1000.00")
    services.sid_batch_remit(actor=staff_user, batch=on_time, remitted_on=date(2026, 6, 1))
    late = services.sid_batch_record(actor=staff_user, resolution=charged_resolution,
                                     received_on=date(2026, 6, 9), collected="200.00")
    services.sid_batch_remit(actor=staff_user, batch=late, remitted_on=date(2026, 9, 10))
    overdue = services.sid_batch_record(actor=staff_user, resolution=charged_resolution,
                                        received_on=date(2026, 7, 1), collected="100.00")  # due Sep 29
    pending = services.sid_batch_record(actor=staff_user, resolution=charged_resolution,
                                        received_on=date(2026, 8, 3), collected="40.00")  # due Nov 2 (Sun Nov 1)
    report = selectors.sid_remittance_report(resolution=charged_resolution, today=date(2026, 10, 1))
    statuses = {row["batch"].pk: (row["status"], row["days_late"]) for row in report["rows"]}
    assert statuses == {on_time.pk: ("REMITTED", 0), late.pk: ("REMITTED_LATE", 2), overdue.pk: ("OVERDUE", 2),
                        pending.pk: ("PENDING", 0)}
    assert pending.remittance_due_on == date(2026, 11, 2)
    t = report["totals"]
    assert (t["collected"], t["retained"], t["remitted_done"], t["overdue"], t["pending"]) == (
        Decimal("1340.00"), Decimal("67.00"), Decimal("1140.00"), Decimal("95.00"), Decimal("38.00"))
    assert report["late_count"] == 2


# --- SID-5 ---------------------------------------------------------------------------------------

def _refund_setup(resolution, user):
    services.sid_crim_receipt_record(actor=user, resolution=resolution, received_on=date(2025, 2, 1))
    remitted = services.sid_batch_record(actor=user, resolution=resolution, received_on=date(2025, 8, 1),
                                         collected="300.01")  # retained 15.00, remitted 285.01
    services.sid_batch_remit(actor=user, batch=remitted, remitted_on=date(2025, 9, 1))
    services.sid_batch_record(actor=user, resolution=resolution, received_on=date(2026, 1, 15),
                              collected="233.32")  # retained 11.67, still in the fund: 221.65
    services.sid_project_not_carried_out(actor=user, resolution=resolution, on=date(2026, 2, 1),
                                         reason="La obra no se construyó.")


def _owner(cadastre):
    return Parcel.objects.get(cadastre=cadastre).ownerships.get().party


def test_sid5_refund_sources_add_up_to_what_owners_paid(charged_resolution, staff_user):
    _refund_setup(charged_resolution, staff_user)
    payments = [(parcel("100-200-300-01"), _owner("100-200-300-01"), Decimal("100.00")),
                (parcel("100-200-300-02"), _owner("100-200-300-02"), Decimal("200.00")),
                (parcel("100-200-300-03"), _owner("100-200-300-03"), Decimal("233.33"))]
    refund = services.sid_refund_create(actor=staff_user, resolution=charged_resolution, payments=payments,
                                        decided_on=date(2026, 3, 1))
    assert refund.total == Decimal("533.33")
    assert (refund.from_authority, refund.from_crim, refund.from_fund) == (
        Decimal("285.01"), Decimal("26.67"), Decimal("221.65"))
    assert refund.from_authority + refund.from_fund + refund.from_crim == refund.total
    lines = list(refund.lines.order_by("parcel__cadastre"))
    assert [(line.paid, line.from_authority, line.from_fund, line.from_crim) for line in lines] == [
        (Decimal("100.00"), Decimal("53.44"), Decimal("41.56"), Decimal("5.00")),
        (Decimal("200.00"), Decimal("106.88"), Decimal("83.12"), Decimal("10.00")),
        (Decimal("233.33"), Decimal("124.69"), Decimal("96.97"), Decimal("11.67"))]
    for line in lines:
        assert line.from_authority + line.from_fund + line.from_crim == line.paid
    assert sum(line.from_authority for line in lines) == refund.from_authority
    assert sum(line.from_fund for line in lines) == refund.from_fund
    assert sum(line.from_crim for line in lines) == refund.from_crim
    flag = Flag.objects.get(rule="SID-5", resolved_on__isnull=True)
    assert "26.67" in flag.description
    services.sid_refund_crim_recovered(actor=staff_user, refund=refund, on=date(2026, 4, 1))
    assert Flag.objects.get(pk=flag.pk).resolved_on == date(2026, 4, 1)


def test_sid5_refund_needs_the_project_not_carried_out(charged_resolution, staff_user):
    with pytest.raises(ValidationError):
        services.sid_refund_create(actor=staff_user, resolution=charged_resolution, decided_on=date(2026, 3, 1),
                                   payments=[(parcel("100-200-300-01"), _owner("100-200-300-01"), Decimal("1.00"))])


def test_sid5_refund_refuses_payments_below_what_crim_already_handled(charged_resolution, staff_user):
    _refund_setup(charged_resolution, staff_user)
    with pytest.raises(ValidationError) as exc:
        services.sid_refund_create(actor=staff_user, resolution=charged_resolution, decided_on=date(2026, 3, 1),
                                   payments=[(parcel("100-200-300-01"), _owner("100-200-300-01"), Decimal("100"))])
    assert "SID-5" in str(exc.value)


@pytest.mark.parametrize("paid", [["0.01"], ["0.01", "0.01", "0.01"], ["1000.00", "0.03", "7.77"],
                                  ["33.33", "33.33", "33.34"]])
@pytest.mark.parametrize(("retained", "remitted"), [("0.00", "0.00"), ("0.01", "0.00"), ("0.02", "0.01")])
def test_sid5_refund_plan_adds_up_to_the_cent(paid, retained, remitted):
    rows = [rules.PaymentRow(parcel_id=i, party_id=1, paid=Decimal(p)) for i, p in enumerate(paid, start=1)]
    total = sum(r.paid for r in rows)
    if Decimal(retained) + Decimal(remitted) > total:
        with pytest.raises(rules.RefundError):
            rules.refund_plan(rows, crim_retained=Decimal(retained), authority_remitted=Decimal(remitted))
        return
    plan = rules.refund_plan(rows, crim_retained=Decimal(retained), authority_remitted=Decimal(remitted))
    assert plan.total == total
    assert plan.from_crim + plan.from_authority + plan.from_fund == total
    assert sum(line.from_crim for line in plan.lines) == Decimal(retained)
    assert sum(line.from_authority for line in plan.lines) == Decimal(remitted)
    for line in plan.lines:
        assert line.total == line.paid
        assert min(line.from_crim, line.from_authority, line.from_fund) >= 0


def test_sid5_refund_from_the_page(charged_resolution, staff_client, staff_user):
    _refund_setup(charged_resolution, staff_user)
    owner: Party = _owner("100-200-300-01")
    url = reverse("improvement:sid_refund", args=[charged_resolution.pk])
    response = staff_client.post(url, {"decided_on": "2026-03-01", "payments": (
        f"100-200-300-01; {owner.pk}; 300.00\n100-200-300-02; {_owner('100-200-300-02').pk}; 233.33")})
    assert response.status_code == 302
    refund = charged_resolution.__class__.objects.get(pk=charged_resolution.pk).refund
    assert refund.total == Decimal("533.33")
    page = staff_client.get(reverse("improvement:sid_detail", args=[charged_resolution.pk])).content.decode()
    assert "$533.33" in page and "recobrar del CRIM" in page
