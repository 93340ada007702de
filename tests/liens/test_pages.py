"""Staff pages and API of liens: ladder, record form, distribution, IRR-12 seizure check,
certificate PDF, legal-review queue; and who may reach them."""
from __future__ import annotations

import io
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from assessments.compute import run
from core.models import AuditEntry, Document, Flag
from liens import selectors, services
from liens.models import Lien, LienRuling
from tests import factories
from tests.liens.conftest import ids_of

pytestmark = pytest.mark.django_db


# --- Ladder and record form ------------------------------------------------------------------

def test_ladder_pages(seeded, staff_client):
    clean = staff_client.get(reverse("liens:ladder", args=[seeded["lien1"].pk]))
    assert clean.status_code == 200
    html = clean.content.decode()
    for text in ("Escalera de rango", "IRR-10", "TID-6", "TAX", "DATE", "No cualifica bajo IRR-11",
                 "tipo de interés mayor que el máximo", "Ordenado"):
        assert text in html
    conflict = staff_client.get(reverse("liens:ladder", args=[seeded["lien2"].pk])).content.decode()
    assert "Rango bloqueado" in conflict and "SID-4" in conflict and "En revisión legal" in conflict
    cycle = staff_client.get(reverse("liens:ladder", args=[seeded["lien4"].pk])).content.decode()
    assert "Ciclo de rangos" in cycle
    past = staff_client.get(reverse("liens:ladder", args=[seeded["lien2"].pk]) + "?on=2026-06-30").content.decode()
    assert "Rango bloqueado" not in past and "30/06/2026" in past


def test_record_a_mortgage_through_the_page(seeded, staff_client, staff_user):
    parcel = seeded["lien1"]
    url = reverse("liens:record", args=[parcel.pk])
    missing = staff_client.post(url, {"kind": "MORTGAGE", "amount": "1000.00", "constituted_on": "2026-08-01"})
    assert missing.status_code == 200 and "Requerido para clasificar la hipoteca" in missing.content.decode()
    assert Lien.objects.filter(parcel=parcel).count() == 5
    response = staff_client.post(url, {
        "kind": "MORTGAGE", "amount": "1000.00", "constituted_on": "2026-08-01", "origin_label": "Banco X",
        "term_years": "20", "fixed_annual_installments": "on", "rate_pct": "6", "purpose": "SUPPLIES",
        "irrigation_benefit": "on"})
    assert response.status_code == 302
    lien = Lien.objects.get(parcel=parcel, origin_label="Banco X")
    assert lien.mortgage_terms == {"term_years": 20, "fixed_annual_installments": True, "rate_pct": "6",
                                   "purpose": "SUPPLIES", "principal_per_cuerda": "80.00",
                                   "irrigation_benefit": True}
    assert lien.created_by == staff_user
    assert selectors.parcel_ranking(parcel).row(str(lien.pk)).qualifies


def test_status_change_through_the_page(seeded, staff_client):
    parcel = seeded["lien2"]
    sid = ids_of(parcel)["SID-7"]
    response = staff_client.post(reverse("liens:status", args=[sid]),
                                 {"status": "RELEASED", "on": "2026-11-02", "reason": "Anulado"})
    assert response.status_code == 302
    assert Lien.objects.get(pk=sid).status == "RELEASED"
    assert not Flag.objects.filter(kind=Flag.Kind.LIEN_CONFLICT, object_id=parcel.pk, resolved_on__isnull=True).exists()


def test_auditor_reads_but_cannot_write(seeded, client, auditor_user):
    client.force_login(auditor_user)
    parcel = seeded["lien1"]
    assert client.get(reverse("liens:ladder", args=[parcel.pk])).status_code == 200
    assert client.post(reverse("liens:record", args=[parcel.pk]), {"kind": "OTHER"}).status_code == 403
    assert client.post(reverse("liens:seizure", args=[parcel.pk]), {}).status_code == 403
    assert client.post(reverse("liens:certificate", args=[parcel.pk]), {}).status_code == 403


# --- Distribution -----------------------------------------------------------------------------

def test_distribution_page(seeded, staff_client):
    url = reverse("liens:distribution", args=[seeded["lien1"].pk])
    html = staff_client.get(url, {"proceeds": "95000.00"}).content.decode()
    assert "$23,000.00" in html and "$17,000.00" in html and "data-print" in html and "<style" not in html
    # The print layout is app.css's, for this page's body class (the CSP allows no inline style).
    assert 'class="page-liens page-distribution"' in html
    assert "@page distribution" in (Path(settings.BASE_DIR) / "static/css/app.css").read_text(encoding="utf-8")
    blocked = staff_client.get(reverse("liens:distribution", args=[seeded["lien2"].pk]),
                               {"proceeds": "95000.00"}).content.decode()
    assert "No se produce distribución" in blocked and "Rango bloqueado" in blocked and "$23,000.00" not in blocked


# --- IRR-12 -----------------------------------------------------------------------------------

@pytest.fixture
def irr_parcel(db):
    parcel = factories.parcel(cadastre="371-045-123-08")
    factories.member(factories.district(), parcel)
    return parcel


def test_seizure_limit_boundary(irr_parcel, staff_user):
    exact = services.lien_seizure_check(parcel=irr_parcel, amount_owed=Decimal("1234.56"),
                                        proposed_value=Decimal("2469.12"), actor=staff_user, note="Parte sur")
    assert exact.check.allowed and exact.check.max_seizable_value == Decimal("2469.12")
    assert not Flag.objects.filter(kind=Flag.Kind.SEIZURE_LIMIT).exists()
    over = services.lien_seizure_check(parcel=irr_parcel, amount_owed=Decimal("1234.56"),
                                       proposed_value=Decimal("2469.13"), actor=staff_user)
    assert not over.check.allowed and over.check.excess == Decimal("0.01")
    flag = Flag.objects.get(kind=Flag.Kind.SEIZURE_LIMIT)
    assert flag.rule == "IRR-12" and flag.object_id == irr_parcel.pk and flag.resolved_on is None
    services.lien_seizure_check(parcel=irr_parcel, amount_owed=Decimal("1234.56"), proposed_value=Decimal("9999.00"),
                                actor=staff_user)
    assert Flag.objects.filter(kind=Flag.Kind.SEIZURE_LIMIT).count() == 1
    # A proposal within the limit resolves it.
    services.lien_seizure_check(parcel=irr_parcel, amount_owed=Decimal("1234.56"), proposed_value=Decimal("2000.00"),
                                actor=staff_user)
    flag.refresh_from_db()
    assert flag.resolved_on is not None
    assert AuditEntry.objects.filter(action="lien.seizure_check").count() == 4


def test_seizure_figures_deduct_every_lien(irr_parcel, staff_user):
    services.lien_record(parcel=irr_parcel, kind="PROPERTY_TAX", amount=Decimal("500.00"),
                         constituted_on=date(2026, 1, 1), actor=staff_user)
    services.lien_record(parcel=irr_parcel, kind="OTHER", amount=Decimal("3000.00"), constituted_on=date(2020, 1, 1),
                         actor=staff_user)
    figures = services.lien_seizure_check(parcel=irr_parcel, amount_owed=Decimal("4000.00"),
                                          proposed_value=Decimal("8000.00"), actor=staff_user)
    assert (figures.tax_value, figures.liens_total, figures.net_value) == (
        Decimal("18500.00"), Decimal("3500.00"), Decimal("15000.00"))
    assert not figures.whole_property_seizable  # 15,000 > 2 × 4,000


def test_irr12_batch_figures_match_the_single_parcel_reading(irr_parcel, staff_user, django_assert_num_queries):
    """IRR-12 in one place: the collections pages' batch (net_tax_values + irr12_figures) gives the
    figures the seizure check gives, in two queries however many parcels."""
    services.lien_record(parcel=irr_parcel, kind="OTHER", amount=Decimal("3000.00"), constituted_on=date(2020, 1, 1),
                         actor=staff_user)
    other = factories.parcel(cadastre="371-045-999-01")
    with django_assert_num_queries(2):
        nets = selectors.net_tax_values([irr_parcel.pk, other.pk, None])
    assert nets[irr_parcel.pk] == selectors.net_tax_value(irr_parcel)
    assert nets[other.pk] == selectors.net_tax_value(other)
    tax, liens_total, net = nets[irr_parcel.pk]
    batch = selectors.irr12_figures(tax, liens_total, Decimal("4000.00"))
    single = selectors.seizure_figures(irr_parcel, Decimal("4000.00"), max(net, Decimal("0")))
    assert batch == single and batch.proposed_value == max(net, Decimal("0"))
    assert (batch.amount_owed, batch.max_seizable_value) == (Decimal("4000.00"), Decimal("8000.00"))


def test_seizure_page(irr_parcel, staff_client):
    url = reverse("liens:seizure", args=[irr_parcel.pk])
    assert staff_client.get(url, {"amount_owed": "100.00"}).status_code == 200
    ok = staff_client.post(url, {"amount_owed": "100.00", "proposed_value": "200.00", "note": ""}).content.decode()
    assert "Dentro del límite" in ok and "$200.00" in ok
    over = staff_client.post(url, {"amount_owed": "100.00", "proposed_value": "200.01"}).content.decode()
    assert "Excede el límite" in over and "$0.01" in over
    assert Flag.objects.filter(kind=Flag.Kind.SEIZURE_LIMIT, resolved_on__isnull=True).count() == 1


def test_seizure_refused_outside_a_bonded_irrigation_district(seeded, staff_client):
    response = staff_client.post(reverse("liens:seizure", args=[seeded["lien1"].pk]),
                                 {"amount_owed": "100.00", "proposed_value": "50.00"})
    assert response.status_code == 200 and "IRR-12 aplica a parcelas de un distrito de riego" in \
        response.content.decode()
    assert not AuditEntry.objects.filter(action="lien.seizure_check").exists()


# --- Certificate ------------------------------------------------------------------------------

def test_certificate_pdf_has_cadastre_code_and_liens(seeded, staff_client, staff_user):
    parcel = seeded["lien1"]
    owner = factories.person()
    factories.own(parcel, owner)
    response = staff_client.post(reverse("liens:certificate", args=[parcel.pk]),
                                 {"on": timezone.localdate().isoformat(), "language": "es"})
    assert response.status_code == 302
    document = Document.objects.get(kind=Document.Kind.LIEN_CERTIFICATE)
    assert response.url == reverse("core:document_pdf", args=[document.pk])
    assert document.related == parcel and document.created_by == staff_user
    assert list(document.owners.values_list("party_id", flat=True)) == [owner.pk]
    with document.file.open("rb") as fh:
        text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(fh.read())).pages)
    flat = " ".join(text.split())
    assert parcel.cadastre in flat and document.verification_code in flat
    assert "Certificación de gravámenes" in flat and owner.display_name in flat
    for amount in ("$60,000.00", "$2,400.00", "$600.00", "$9,000.00", "$40,000.00", "$112,000.00"):
        assert amount in flat
    assert "IRR-10" in flat and "TID-6" in flat
    # The page lists it and the staff download works.
    assert document.verification_code in staff_client.get(
        reverse("liens:certificate", args=[parcel.pk])).content.decode()
    assert staff_client.get(response.url).status_code == 200


def test_certificate_as_of_a_past_date_and_pending_ranking(seeded, staff_user):
    parcel = seeded["lien2"]
    before = selectors.certificate_context(parcel, date(2016, 1, 1))
    assert [e["lien"].origin_id.split("/")[1] for e in before["entries"]] == ["MORT-1", "SID-7", "TID-3"]
    assert [e["rank"] for e in before["entries"]] == [1, 2, 3]
    now = selectors.certificate_context(parcel, timezone.localdate())
    assert now["ranking"].blocked and all(e["rank"] is None for e in now["entries"])
    with pytest.raises(ValidationError):  # a future date is refused
        services.lien_certificate_issue(parcel=parcel, on=date(2999, 1, 1), actor=staff_user)


# --- Queue ------------------------------------------------------------------------------------

def test_legal_review_queue(seeded, staff_client, legal_client):
    html = staff_client.get(reverse("liens:queue")).content.decode()
    assert seeded["lien2"].cadastre in html and seeded["lien4"].cadastre in html
    assert seeded["lien1"].cadastre not in html
    assert reverse("liens:ruling_create", args=[seeded["lien2"].pk]) in legal_client.get(
        reverse("liens:queue")).content.decode()
    found = staff_client.get(reverse("liens:queue"), {"q": seeded["lien1"].cadastre})
    assert found.status_code == 302 and found.url == reverse("liens:ladder", args=[seeded["lien1"].pk])


def test_parcel_page_links_to_the_ladder(seeded, staff_client):
    html = staff_client.get(reverse("districts:parcel_detail", args=[seeded["lien1"].pk])).content.decode()
    assert reverse("liens:ladder", args=[seeded["lien1"].pk]) in html and "Gravámenes" in html


# --- API --------------------------------------------------------------------------------------

def test_api_returns_the_contract_shape_and_the_liens(seeded, client, auditor_user):
    client.force_login(auditor_user)
    parcel = seeded["lien1"]
    body = client.get(reverse("api:parcel-liens", args=[parcel.pk]), {"proceeds": "95000.00"}).json()
    ids = ids_of(parcel)
    assert body["ranks"] == [[ids[i]] for i in ("TAX-2026", "IRR-FY27", "MORT-1", "TID-3", "MORT-2")]
    assert body["conflicts"] == [] and body["calculation"] == "lien-ranking"
    assert {(d["higher"], d["lower"], d["rule"]) for d in body["decisions"]} >= {
        (ids["IRR-FY27"], ids["MORT-1"], "IRR-10")}
    assert body["remaining"] == "0.00"
    assert {p["id"]: p["unpaid"] for p in body["distribution"]}[ids["MORT-2"]] == "17000.00"
    assert [lien["id"] for lien in body["liens"]] == [lien["id"] for lien in body["distribution"]]
    assert body["parcel"] == {"id": parcel.pk, "cadastre": parcel.cadastre}
    # The same as the calculation over the same liens.
    pr = selectors.parcel_ranking(parcel)
    expected = run("lien-ranking", selectors.ranking_input(pr, Decimal("95000.00")))
    for key in ("ranks", "conflicts", "decisions", "ties", "distribution", "remaining", "mortgages"):
        assert body[key] == expected[key]
    blocked = client.get(reverse("api:parcel-liens", args=[seeded["lien2"].pk])).json()
    assert blocked["ranks"] is None and blocked["conflicts"][0]["rules"] == ["SID-4", "IRR-10"]
    assert client.get(reverse("api:parcel-liens", args=[parcel.pk]), {"on": "2999-01-01"}).status_code == 400
    assert client.get(reverse("api:parcel-liens", args=[parcel.pk]), {"proceeds": "-1"}).status_code == 400


# --- Access -----------------------------------------------------------------------------------

def _liens_urls(seeded, legal_user):
    parcel = seeded["lien2"]
    ids = ids_of(parcel)
    ruling = services.lien_ruling_record(parcel=parcel, higher=Lien.objects.get(pk=ids["IRR-FY27"]),
                                         lower=Lien.objects.get(pk=ids["SID-7"]), reference="R-1", actor=legal_user)
    return [reverse("liens:queue")] + [reverse(f"liens:{name}", args=[parcel.pk]) for name in (
        "ladder", "record", "ruling_create", "distribution", "seizure", "certificate")] + [
        reverse("liens:status", args=[ids["TID-3"]]), reverse("liens:ruling_revoke", args=[ruling.pk])]


def test_anonymous_and_owner_are_refused_on_every_liens_url(seeded, client, owner_user, legal_user):
    urls = _liens_urls(seeded, legal_user)
    state = (Lien.objects.filter(status="ACTIVE").count(), LienRuling.objects.count(), Document.objects.count())
    for url in urls:
        for method in (client.get, client.post):
            response = method(url)
            assert response.status_code == 302 and response.url.startswith(reverse("login")), url
    client.force_login(owner_user)
    for url in urls:
        for method in (client.get, client.post):
            response = method(url)
            assert response.status_code == 302 and response.url == reverse("portal:home"), url
    api = [reverse("api:parcel-liens", args=[seeded["lien1"].pk]),
           reverse("api:parcel-lien-rulings", args=[seeded["lien1"].pk])]
    for url in api:
        assert client.get(url).status_code == 403
        assert client.post(url, {}, content_type="application/json").status_code == 403
    client.logout()
    for url in api:
        assert client.get(url).status_code in (401, 403)
        assert client.post(url, {}, content_type="application/json").status_code in (401, 403)
    assert state == (Lien.objects.filter(status="ACTIVE").count(), LienRuling.objects.count(),
                     Document.objects.count())
