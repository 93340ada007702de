"""`seed_improvement` is idempotent; the API walks the SID and TID life cycles."""
from io import StringIO

import pytest
from django.core.management import call_command

from core.models import AuditEntry, Clock, Flag
from districts.improvement import selectors
from districts.improvement.models import (
    SidCollectionBatch,
    SidResolution,
    SidResolutionCharge,
    TidAccountEntry,
    TidFactorFinding,
    TidOrdinance,
    TidPetition,
)
from districts.models import District, Membership, Parcel, Party
from tests.improvement.conftest import FORMULA

pytestmark = pytest.mark.django_db

MODELS = [District, Parcel, Party, Membership, SidResolution, SidResolutionCharge, SidCollectionBatch, TidPetition,
          TidFactorFinding, TidOrdinance, TidAccountEntry, AuditEntry, Clock, Flag]


def test_seed_improvement_is_idempotent():
    out = StringIO()
    call_command("seed_improvement", stdout=out)
    assert "SID:" in out.getvalue()
    counts = {m.__name__: m.objects.count() for m in MODELS}
    call_command("seed_improvement", stdout=StringIO())
    assert {m.__name__: m.objects.count() for m in MODELS} == counts

    sid = SidResolution.objects.get()
    batches = list(sid.batches.order_by("received_on"))
    assert [b.remitted_late for b in batches] == [False, True]
    assert sid.charges.count() >= 3
    ordinance = TidOrdinance.objects.get()
    assert (ordinance.formula, ordinance.mayor_decision, ordinance.collector) == (FORMULA, "APPROVED", "ASSOCIATION")
    assert ordinance.published_on is not None and ordinance.association_id is not None
    assert ordinance.petition.findings.filter(finding="FAVORABLE").count() == 5
    assert TidAccountEntry.objects.filter(ordinance=ordinance).count() == 3
    account = selectors.tid_account_summary(ordinance)
    assert account["within_cap"]
    district = ordinance.petition.district
    rows = selectors.improvement_charges_for_year(district, 2026)
    assert len(rows) == Membership.objects.filter(district=district).count()


def test_seed_uses_existing_demo_districts(sid_district, tid_district):
    call_command("seed_improvement", stdout=StringIO())
    assert SidResolution.objects.get().district == sid_district
    assert TidPetition.objects.get().district == tid_district
    assert District.objects.filter(kind__in=["SID", "TID"]).count() == 2


def test_api_sid_life_cycle(staff_client, sid_district):
    created = staff_client.post("/api/v1/improvement/sid-resolutions/", {
        "district": "sid-prueba", "number": "R-API", "adopted_on": "2025-01-10", "term_years": 2,
        "first_fiscal_year": 2026, "due_dates": ["01-01", "07-01"], "penalty_pct": "5", "penalty_grace_days": 15},
        content_type="application/json")
    assert created.status_code == 201, created.json()
    pk = created.json()["id"]
    assert created.json()["due_dates"] == ["07-01", "01-01"]
    refused = staff_client.post("/api/v1/improvement/sid-resolutions/", {
        "district": "sid-prueba", "number": "R-X", "adopted_on": "2025-01-10", "term_years": 2,
        "first_fiscal_year": 2026, "due_dates": ["07-01"], "prompt_payment_discount_pct": "2"},
        content_type="application/json")
    assert refused.status_code == 400 and "SID-1" in str(refused.json())
    charge = staff_client.post(f"/api/v1/improvement/sid-resolutions/{pk}/charges/",
                               {"parcel": "100-200-300-01", "annual_charge": "120.50"}, content_type="application/json")
    assert charge.status_code == 200
    receipt = staff_client.post(f"/api/v1/improvement/sid-resolutions/{pk}/crim-receipt/",
                                {"received_on": "2026-01-12"}, content_type="application/json")
    assert receipt.json()["notice_rounds"][0]["due_on"] == "2026-07-13"
    batch = staff_client.post("/api/v1/improvement/sid-batches/", {"resolution": pk, "received_on": "2026-03-02",
                                                                    "collected": "10000.10"},
                              content_type="application/json")
    assert batch.status_code == 201
    b = batch.json()
    assert (b["retained"], b["remitted"], b["remittance_due_on"]) == ("500.01", "9500.09", "2026-06-01")
    remit = staff_client.post(f"/api/v1/improvement/sid-batches/{b['id']}/remit/", {"remitted_on": "2026-06-02"},
                              content_type="application/json")
    assert remit.json()["remitted_late"] is True
    report = staff_client.get("/api/v1/improvement/sid-remittance-report/").json()
    assert report["late_count"] == 1 and report["batches"][0]["status"] == "REMITTED_LATE"
    charges = staff_client.get("/api/v1/improvement/charges/?district=sid-prueba&fiscal_year=2026").json()
    assert [(c["amount"], c["due_dates"]) for c in charges["charges"]] == [("120.50", ["2025-07-01", "2026-01-01"])]


def test_api_tid_life_cycle(staff_client, tid_district, association):
    petition = staff_client.post("/api/v1/improvement/tid-petitions/", {
        "district": "tid-prueba", "municipality": "San Juan", "petition_text": "Petición",
        "legislature_received_on": "2026-03-02"}, content_type="application/json")
    assert petition.status_code == 201
    pid = petition.json()["id"]
    assert petition.json()["ordinance_due_on"] == "2026-06-01"
    for factor in "abcde":
        staff_client.post(f"/api/v1/improvement/tid-petitions/{pid}/findings/",
                          {"factor": factor, "finding": "FAVORABLE"}, content_type="application/json")
    ordinance = staff_client.post("/api/v1/improvement/ordinances/", {
        "petition": pid, "number": "Ord. API", "name": "Distrito", "issued_on": "2026-05-29",
        "expected_amount": "3400.00", "term_years": 2, "first_fiscal_year": 2027, "formula": FORMULA,
        "association_authorized": True}, content_type="application/json")
    assert ordinance.status_code == 201, ordinance.json()
    oid = ordinance.json()["id"]
    base = f"/api/v1/improvement/ordinances/{oid}/"
    steps = [("mayor-receipt/", {"received_on": "2026-06-01"}),
             ("mayor-decision/", {"decision": "APPROVED", "decided_on": "2026-06-12"}),
             ("publication/", {"newspaper": "Primera Hora", "published_on": "2026-06-22"}),
             ("collector/", {"collector": "ASSOCIATION", "association": association.pk,
                             "copy_sent_to_crim_on": "2026-06-23"}),
             ("association-receipt/", {"received_on": "2026-06-24"})]
    for path, data in steps:
        response = staff_client.post(base + path, data, content_type="application/json")
        assert response.status_code == 200, (path, response.json())
    body = staff_client.get(base).json()
    assert (body["mayor_due_on"], body["publication_due_on"], body["published_on"]) == (
        "2026-07-01", "2026-06-22", "2026-06-22")
    assert body["notice_rounds"][0]["due_on"] == "2026-07-24"
    late = staff_client.post(base + "publication/", {"newspaper": "Otro", "published_on": "2026-06-23"},
                             content_type="application/json")
    assert late.status_code == 400
    assert Clock.objects.filter(rule__startswith="TID", status=Clock.Status.MET).count() == 3
