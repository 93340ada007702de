"""TID life cycle: TID-1 findings, TID-2 formula (refused with position and reason; preview over
the member parcels), TID-3 collector, TID-5 cumulative 5 % cap, and the billing hook."""
from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from core.models import AuditEntry
from districts.improvement import selectors, services
from districts.improvement.errors import AdminCapExceeded, FormulaRefused
from districts.improvement.models import TidAccountEntry, TidOrdinance, TidPetition
from tests.improvement.conftest import FORMULA, issue

pytestmark = pytest.mark.django_db


# --- TID-1: the five factors ------------------------------------------------------------------------

def test_tid1_ordinance_needs_five_favorable_findings(petition, staff_user):
    for factor in "abcd":
        services.tid_finding_record(actor=staff_user, petition=petition, factor=factor, finding="FAVORABLE")
    with pytest.raises(ValidationError) as exc:
        issue(petition, staff_user)
    assert "(e)" in str(exc.value)
    services.tid_finding_record(actor=staff_user, petition=petition, factor="e", finding="UNFAVORABLE")
    with pytest.raises(ValidationError) as exc:
        issue(petition, staff_user)
    assert "(e)" in str(exc.value) and "desfavorable" in str(exc.value)
    assert not TidOrdinance.objects.exists()
    services.tid_finding_record(actor=staff_user, petition=petition, factor="e", finding="FAVORABLE")
    assert issue(petition, staff_user).petition.status == TidPetition.Status.ORDINANCE


# --- TID-2: the formula --------------------------------------------------------------------------------

@pytest.mark.parametrize(("formula", "position", "reason"), [
    ("0.25 * frontage", 7, "unknown name"),
    ('if(use_class == "HOTEL", 1, 2', 29, "unexpected token"),  # the end: ')' expected
    ("max(150)", 0, "wrong arity"),
    ("2 +* 3", 3, "unexpected token"),
    ('use_class + 1', 10, "type mismatch"),
    ("assessed_value $ 2", 15, "unexpected character"),
    ("100 / (frontage_m - 80)", 4, "division by zero"),  # the hotel has 80 m of frontage
    ("frontage_m - 100", 0, "negative charge"),
])
def test_tid2_bad_formula_is_refused_with_position(favorable, staff_user, formula, position, reason):
    with pytest.raises(FormulaRefused) as exc:
        issue(favorable, staff_user, formula=formula)
    assert (exc.value.position, exc.value.reason) == (position, reason)
    assert f"posición {position}" in exc.value.messages[0]
    assert not TidOrdinance.objects.exists()
    assert TidPetition.objects.get(pk=favorable.pk).status == TidPetition.Status.RECEIVED


def test_tid2_preview_over_member_parcels(tid_district):
    preview = selectors.tid_formula_preview(tid_district, FORMULA, Decimal("3500.00"))
    assert [(r.parcel.cadastre, r.charge) for r in preview.rows] == [
        ("200-300-400-01", Decimal("3000.00")), ("200-300-400-02", Decimal("250.00")),
        ("200-300-400-03", Decimal("150.00"))]
    assert (preview.total, preview.difference) == (Decimal("3400.00"), Decimal("-100.00"))
    assert preview.variables == ["assessed_value", "frontage_m", "use_class"]


def test_tid2_area_variables_come_from_the_register(tid_district):
    # 12.5 cuerdas = 49,129.9453125 m²; the formula sees exact cuerdas.
    preview = selectors.tid_formula_preview(tid_district, "area_cuerdas * 10 + area_m2 * 0")
    assert {r.charge for r in preview.rows} == {Decimal("125.00")}


def test_tid2_preview_api(ordinance, staff_client, auditor_user, client):
    url = f"/api/v1/improvement/ordinances/{ordinance.pk}/preview/"
    ok = staff_client.post(url, {}, content_type="application/json")
    assert ok.status_code == 200
    body = ok.json()
    assert (body["total"], body["expected_amount"], body["difference"]) == ("3400.00", "3400.00", "0.00")
    assert [p["charge"] for p in body["parcels"]] == ["3000.00", "250.00", "150.00"]
    bad = staff_client.post(url, {"formula": "max(150, 0.25 * frontag)"}, content_type="application/json")
    assert bad.status_code == 400
    assert bad.json()["error"] | {"message": None} == {
        "field": "formula", "position": 16, "reason": "unknown name", "detail": "frontag", "message": None}
    client.force_login(auditor_user)  # a preview changes nothing: auditors may run it
    assert client.post(url, {}, content_type="application/json").status_code == 200


def test_tid2_api_refuses_an_ordinance_with_a_bad_formula(favorable, staff_client):
    response = staff_client.post("/api/v1/improvement/ordinances/", {
        "petition": favorable.pk, "number": "Ord. 2", "name": "X", "issued_on": "2026-05-01",
        "expected_amount": "100.00", "term_years": 2, "first_fiscal_year": 2027, "formula": "1 + (2"},
        content_type="application/json")
    assert response.status_code == 400
    assert (response.json()["error"]["position"], response.json()["error"]["reason"]) == (6, "unexpected token")
    assert not TidOrdinance.objects.exists()


def test_tid2_staff_live_preview(favorable, staff_client):
    url = reverse("improvement:tid_preview", args=[favorable.pk])
    ok = staff_client.post(url, {"formula": FORMULA, "expected_amount": "3500"})
    assert ok.status_code == 200
    html = ok.content.decode()
    assert "$3,400.00" in html and "$3,500.00" in html and "-$100.00" in html
    bad = staff_client.post(url, {"formula": "0.25 * frontage"})
    assert bad.status_code == 400
    assert "posición 7" in bad.content.decode() and "<mark>f</mark>" in bad.content.decode()


def test_tid2_formula_fixed_before_the_mayor_decides(ordinance, staff_user):
    ordinance = services.tid_ordinance_formula_change(actor=staff_user, ordinance=ordinance, formula="200")
    assert ordinance.formula == "200"
    with pytest.raises(FormulaRefused):
        services.tid_ordinance_formula_change(actor=staff_user, ordinance=ordinance, formula="200 +")


# --- TID-1 mayor, TID-3 collector --------------------------------------------------------------------

def test_tid1_mayor_decides_after_receipt_only(ordinance, staff_user):
    with pytest.raises(ValidationError):
        services.tid_mayor_decide(actor=staff_user, ordinance=ordinance, decision="APPROVED",
                                  decided_on=date(2026, 5, 6))


def test_tid1_disapproved_ordinance_is_not_published(ordinance, staff_user):
    services.tid_mayor_receipt(actor=staff_user, ordinance=ordinance, received_on=date(2026, 5, 4))
    ordinance = services.tid_mayor_decide(actor=staff_user, ordinance=ordinance, decision="DISAPPROVED",
                                          decided_on=date(2026, 5, 6))
    assert (ordinance.petition.status, ordinance.publication_due_on) == (TidPetition.Status.DISAPPROVED, None)
    with pytest.raises(ValidationError):
        services.tid_publication_record(actor=staff_user, ordinance=ordinance, newspaper="X",
                                        published_on=date(2026, 5, 7))


def test_tid3_association_collects_only_when_authorized(favorable, staff_user, association):
    ordinance = issue(favorable, staff_user, association_authorized=False)
    services.tid_mayor_receipt(actor=staff_user, ordinance=ordinance, received_on=date(2026, 5, 4))
    services.tid_mayor_decide(actor=staff_user, ordinance=ordinance, decision="APPROVED", decided_on=date(2026, 5, 6))
    with pytest.raises(ValidationError) as exc:
        services.tid_collector_set(actor=staff_user, ordinance=ordinance, collector="ASSOCIATION",
                                   association=association)
    assert "TID-3" in str(exc.value)
    ordinance = services.tid_collector_set(actor=staff_user, ordinance=ordinance, collector="CRIM",
                                           copy_sent_to_crim_on=date(2026, 5, 11))
    assert (ordinance.collector, ordinance.association) == ("CRIM", None)
    with pytest.raises(ValidationError):  # TID-4/TID-5 are the association's
        services.tid_association_receipt(actor=staff_user, ordinance=ordinance, received_on=date(2026, 5, 12))


# --- TID-5: the cumulative 5 % cap ---------------------------------------------------------------------

def _deposit(ordinance, user, amount, on=date(2026, 8, 1)):
    return services.tid_account_entry_add(actor=user, ordinance=ordinance, kind="DEPOSIT", entry_date=on,
                                          amount=Decimal(amount), purpose="Recaudos")


def _admin(ordinance, user, amount, on=date(2026, 8, 15)):
    return services.tid_account_entry_add(actor=user, ordinance=ordinance, kind="EXPENSE", entry_date=on,
                                          amount=Decimal(amount), purpose="Contabilidad", admin_expense=True)


def test_tid5_expense_reaching_exactly_five_percent_is_accepted(with_association, staff_user):
    _deposit(with_association, staff_user, "10000.00")
    _admin(with_association, staff_user, "400.00")
    entry = _admin(with_association, staff_user, "100.00")  # 500.00 = 5 % of 10,000.00
    assert entry.pk is not None
    account = selectors.tid_account_summary(with_association, today=date(2026, 9, 1))
    assert (account["admin"], account["cap"], account["available"], account["within_cap"]) == (
        Decimal("500.00"), Decimal("500.00"), Decimal("0.00"), True)


def test_tid5_one_cent_more_is_refused_with_the_figures(with_association, staff_user):
    _deposit(with_association, staff_user, "10000.00")
    _admin(with_association, staff_user, "400.00")
    entries, audits = TidAccountEntry.objects.count(), AuditEntry.objects.count()
    with pytest.raises(AdminCapExceeded) as exc:
        _admin(with_association, staff_user, "100.01")
    assert exc.value.figures() == {
        "on": "2026-08-15", "collected_to_date": "10000.00", "cap_pct": "5", "cap": "500.00",
        "spent_to_date": "400.00", "proposed": "100.01", "spent_after": "500.01", "available": "100.00"}
    message = exc.value.message_dict["amount"][0]
    for figure in ("10000.00", "500.00", "400.00", "100.01", "500.01", "100.00"):
        assert figure in message
    assert (TidAccountEntry.objects.count(), AuditEntry.objects.count()) == (entries, audits)  # nothing changed
    # A non-administrative expense is not capped.
    services.tid_account_entry_add(actor=staff_user, ordinance=with_association, kind="EXPENSE",
                                   entry_date=date(2026, 8, 15), amount=Decimal("5000.00"), purpose="Iluminación")


def test_tid5_cap_counts_collections_to_the_expense_date(with_association, staff_user):
    _deposit(with_association, staff_user, "10000.00", on=date(2026, 8, 1))
    _deposit(with_association, staff_user, "10000.00", on=date(2026, 9, 1))
    with pytest.raises(AdminCapExceeded):  # on Aug 15 only the first deposit had come in
        _admin(with_association, staff_user, "600.00", on=date(2026, 8, 15))
    _admin(with_association, staff_user, "600.00", on=date(2026, 9, 2))
    with pytest.raises(AdminCapExceeded) as exc:  # back-dated: would break Sep 2's cap of 1,000.00
        _admin(with_association, staff_user, "450.00", on=date(2026, 8, 20))
    assert (exc.value.on, exc.value.check.cap, exc.value.check.spent_after) == (
        date(2026, 9, 2), Decimal("1000.00"), Decimal("1050.00"))


def test_tid5_api_refuses_with_figures_and_page_shows_them(with_association, staff_client, staff_user):
    _deposit(with_association, staff_user, "10000.00")
    url = f"/api/v1/improvement/ordinances/{with_association.pk}/account-entries/"
    ok = staff_client.post(url, {"kind": "EXPENSE", "entry_date": "2026-08-15", "amount": "500.00",
                                 "purpose": "Contabilidad", "admin_expense": True}, content_type="application/json")
    assert ok.status_code == 201
    refused = staff_client.post(url, {"kind": "EXPENSE", "entry_date": "2026-08-16", "amount": "0.01",
                                      "purpose": "Papelería", "admin_expense": True}, content_type="application/json")
    assert refused.status_code == 400
    err = refused.json()["error"]
    assert (err["rule"], err["cap"], err["spent_to_date"], err["spent_after"]) == ("TID-5", "500.00", "500.00",
                                                                                    "500.01")
    page = staff_client.post(reverse("improvement:tid_account_entry", args=[with_association.petition_id]), {
        "kind": "EXPENSE", "entry_date": "2026-08-16", "amount": "0.01", "purpose": "Papelería",
        "admin_expense": "on"})
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="cap-refusal"' in html and "$500.01" in html


# --- the billing hook --------------------------------------------------------------------------------

def test_charges_for_year_tid(with_association, tid_district):
    assert selectors.improvement_charges_for_year(tid_district, 2026) == []  # before the term
    rows = selectors.improvement_charges_for_year(tid_district, 2027)
    assert [(amount, dues) for _, amount, dues, _ in rows] == [
        (Decimal("3000.00"), [date(2026, 7, 1), date(2027, 1, 1)]),
        (Decimal("250.00"), [date(2026, 7, 1), date(2027, 1, 1)]),
        (Decimal("150.00"), [date(2026, 7, 1), date(2027, 1, 1)])]
    breakdown = rows[0][3]
    assert (breakdown["rule"], breakdown["formula"], breakdown["collector"]) == ("TID-2", FORMULA, "ASSOCIATION")
    assert breakdown["installments"] == [("2026-07-01", "1500.00"), ("2027-01-01", "1500.00")]
    assert selectors.improvement_charges_for_year(tid_district, 2030) == []  # after the term


def test_charges_for_year_tid_needs_approval_and_publication(approved, tid_district):
    assert selectors.improvement_charges_for_year(tid_district, 2027) == []  # approved, not yet published


def test_charges_for_year_sid(charged_resolution, sid_district, staff_user):
    rows = selectors.improvement_charges_for_year(sid_district, 2027)
    assert [amount for _, amount, _, _ in rows] == [Decimal("100.00"), Decimal("200.00"), Decimal("333.33")]
    _, amount, dues, breakdown = rows[2]
    assert dues == [date(2026, 7, 1), date(2027, 1, 1)]
    assert breakdown["installments"] == [("2026-07-01", "166.67"), ("2027-01-01", "166.66")]
    assert breakdown["late_payment_penalty"] == {"pct": "10.0000000000", "grace_days": 30, "terms": "",
                                                 "source": "SID-1 (resolution)"}
    assert breakdown["rule"] == "SID-1" and breakdown["exemptions"] == "none (SID-1)"
    assert selectors.improvement_charges_for_year(sid_district, 2029) == []  # term FY2026–FY2028
    services.sid_project_not_carried_out(actor=staff_user, resolution=charged_resolution, on=date(2026, 8, 1),
                                         reason="No se hizo.")
    assert selectors.improvement_charges_for_year(sid_district, 2027) == []


def test_tid5_entry_dated_before_the_ordinance_is_a_400_naming_the_field(with_association, staff_client):
    """Year 0127 for 2027 was a 500 (no TID-5 parameters in force then); now the field says why."""
    url = f"/api/v1/improvement/ordinances/{with_association.pk}/account-entries/"
    for admin in (True, False):
        response = staff_client.post(url, {"kind": "EXPENSE", "entry_date": "0127-06-05", "amount": "10.00",
                                           "purpose": "Papelería", "admin_expense": admin},
                                     content_type="application/json")
        assert response.status_code == 400, response.content
        assert "anterior a la ordenanza" in str(response.json()["entry_date"])
