"""Staff pages: search, the franchise page, filing and deciding through the forms."""
from datetime import date

import pytest
from django.urls import reverse

from franchises import services
from franchises.models import Application, Franchise, MeterReading

D = date.fromisoformat


@pytest.fixture
def registry(make_franchise, company):
    a = make_franchise(number="DRNA-FE-2019-0042", source="GROUNDWATER", use="INDUSTRIAL_COMMERCIAL")
    b = make_franchise(number="DRNA-FE-2021-0113", source="BRACKISH", use="INDUSTRIAL_COMMERCIAL", holder=company)
    c = make_franchise(number="DRNA-FE-2018-0200", source="SURFACE", use="GOVERNMENTAL", holder=company,
                       exemption="AAA", exemption_basis="Planta de filtros.")
    Franchise.objects.filter(pk=c.pk).update(status="SUSPENDED")
    for i, gallons in enumerate([2_650_000, 0, 3_020_000]):
        services.meter_reading_record(actor=None, franchise=a, month=date(2026, i + 1, 1), gallons=gallons)
    return a, b, c


def numbers(response):
    return [f.number for f in response.context["object_list"]]


def test_search_by_holder_without_accents_class_and_status(staff_client, registry):
    url = reverse("franchises:list")
    assert numbers(staff_client.get(url, {"q": "pena colon"})) == ["DRNA-FE-2019-0042"]
    assert numbers(staff_client.get(url, {"q": "PEÑA"})) == ["DRNA-FE-2019-0042"]
    assert numbers(staff_client.get(url, {"q": "cristal"})) == ["DRNA-FE-2018-0200", "DRNA-FE-2021-0113"]
    assert numbers(staff_client.get(url, {"q": "2021-0113"})) == ["DRNA-FE-2021-0113"]
    assert numbers(staff_client.get(url, {"tariff_class": "BRACKISH"})) == ["DRNA-FE-2021-0113"]
    assert numbers(staff_client.get(url, {"status": "SUSPENDED"})) == ["DRNA-FE-2018-0200"]
    body = staff_client.get(url).content.decode()
    # Words, not codes (issue #17): the tariff class and exemption by their names.
    assert "Agua dulce subterránea industrial/comercial (8.13 a)" in body
    assert "Exenta · Autoridad de Acueductos y Alcantarillados" in body and ">GROUND_INDUSTRIAL<" not in body


def test_franchise_page_shows_class_readings_chart_and_history(staff_client, registry):
    a = registry[0]
    response = staff_client.get(reverse("franchises:detail", args=[a.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Agua dulce subterránea industrial/comercial (8.13 a)" in body
    assert "derivada de la fuente y el uso (FRA-1)" in body and ">GROUND_INDUSTRIAL<" not in body
    assert body.count('<rect x=') == 3 and 'fill="#b42318"' in body  # three months, one with no extraction
    assert "3,020,000" in body
    assert "Historial de cambios" in body
    assert "FRA-7" in body  # its renewal clock in the work queue


def test_create_franchise_form_derives_the_class(client, make_user, drna, holder):
    client.force_login(make_user("writer", "staff"))
    response = client.post(reverse("franchises:create"), {
        "number": "DRNA-FE-2024-0001", "holder": holder.pk, "holder_type": "PERSON", "source": "ARTESIAN",
        "use": "GOVERNMENTAL", "authorized_gallons": "9000000", "issue_date": "2024-02-01",
        "expiry_date": "2034-02-01", "payment_plan": "ANNUAL", "office": drna.pk})
    f = Franchise.objects.get(number="DRNA-FE-2024-0001")
    assert response.status_code == 302 and response.url == f.get_absolute_url()
    assert f.tariff_class == "ARTESIAN"
    too_long = client.post(reverse("franchises:create"), {
        "number": "DRNA-FE-2024-0002", "holder": holder.pk, "holder_type": "PERSON", "source": "SURFACE",
        "use": "DOMESTIC", "authorized_gallons": "1", "issue_date": "2024-02-01", "expiry_date": "2034-02-02",
        "payment_plan": "ANNUAL", "office": drna.pk})
    assert too_long.status_code == 200 and "10 años" in too_long.content.decode()


def test_meter_reading_form_takes_a_month(staff_client, registry):
    a = registry[0]
    response = staff_client.post(reverse("franchises:reading_create", args=[a.pk]),
                                 {"month": "2026-04", "gallons": "1234", "origin": "ENTERED"})
    assert response.status_code == 302
    assert MeterReading.objects.get(franchise=a, month=D("2026-04-01")).gallons == 1234


def test_file_and_decide_a_transfer_through_the_forms(staff_client, approver_user, registry, recipient):
    a = registry[0]
    url = reverse("franchises:application_file", args=[a.pk]) + "?kind=TRANSFER"
    page = staff_client.get(url).content.decode()
    assert "Consentimiento escrito del dueño de la propiedad" in page and "$50.00" in page
    response = staff_client.post(url, {
        "kind": "TRANSFER", "received_on": "2026-10-27", "recipient": recipient.pk, "reasons": "Venta del negocio",
        "fee_paid": "on", "documents": ["FRANCHISE_NUMBER", "HOLDER_NAME", "RECIPIENT_NAME", "REASONS_EVIDENCE",
                                        "OWNER_CONSENT", "SIGNATURES_BOTH"]})
    app = Application.objects.get()
    assert response.status_code == 302 and response.url == app.get_absolute_url()
    assert app.decision_due == D("2026-11-27")
    detail = staff_client.get(app.get_absolute_url()).content.decode()
    assert "27/11/2026" in detail
    staff_client.force_login(approver_user)  # staff files; the approver decides (core.roles.DECIDE)
    response = staff_client.post(reverse("franchises:application_decide", args=[app.pk]), {
        "decided_on": "2026-11-10", "grant": "GRANT", "notified_on": "2026-11-12",
        "notification_method": "CERTIFIED_MAIL", "tracking_number": "9407 0001"})
    assert response.status_code == 302
    app.refresh_from_db()
    a.refresh_from_db()
    assert app.status == "GRANTED" and a.holder == recipient
    assert app.hearing_request_due == D("2026-12-14")  # Dec 12 is a Saturday


def test_decision_form_shows_the_service_refusal(approver_client, make_franchise):
    f = make_franchise(issue=D("2020-01-15"), expiry=D("2028-01-14"))
    app = services.application_file(actor=None, franchise=f, kind="RENEWAL", received_on=D("2027-10-01"),
                                    requested_expiry_date=D("2029-06-30"), documents={"RENEWAL_APPLICATION": True})
    url = reverse("franchises:application_decide", args=[app.pk])
    response = approver_client.post(url, {"decided_on": "2027-10-15", "grant": "GRANT"})
    assert response.status_code == 200 and "Verifique la deuda" in response.content.decode()
    response = approver_client.post(url, {"decided_on": "2027-10-15", "grant": "GRANT", "outstanding_debt": "40.00"})
    app.refresh_from_db()   # "Conceder" with a debt: refused on the form with the reason, nothing recorded
    assert response.status_code == 200 and "No se puede conceder" in response.content.decode()
    assert app.status == "RECEIVED"
    response = approver_client.post(url, {"decided_on": "2027-10-15", "grant": "DENY", "outstanding_debt": "40.00",
                                          "determination": "Deuda por uso de agua (FRA-7)."})
    app.refresh_from_db()
    assert response.status_code == 302 and app.status == "DENIED"


def test_hearing_request_form_reports_refusal_with_due_date(staff_client, make_franchise):
    f = make_franchise()
    p = services.proceeding_open(actor=None, franchise=f, cause="BREACH", opened_on=D("2026-03-02"))
    response = staff_client.post(reverse("franchises:proceeding_hearing", args=[p.pk]),
                                 {"requested_on": "2026-04-20", "notified_on": "2026-03-16"}, follow=True)
    assert "vencía el 15/04/2026" in response.content.decode()


def test_proceeding_form_and_page(staff_client, registry):
    a = registry[0]
    response = staff_client.post(reverse("franchises:proceeding_create", args=[a.pk]),
                                 {"cause": "NON_USE", "opened_on": "2026-03-02", "detail": "Sin uso",
                                  "cease_and_desist": "on"})
    p = a.proceedings.get()
    assert response.status_code == 302 and response.url == p.get_absolute_url()
    page = staff_client.get(p.get_absolute_url()).content.decode()
    assert "cese y desista" in page.lower()


def test_flags_page(staff_client, registry):
    assert staff_client.get(reverse("franchises:flags")).status_code == 200


def test_nav_has_franchises(staff_client):
    body = staff_client.get(reverse("home")).content.decode()
    assert reverse("franchises:list") in body and "Franquicias" in body
