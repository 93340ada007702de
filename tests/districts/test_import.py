"""Import / export of the land register: dry run, all-or-nothing apply, round trips, access."""
from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook, load_workbook

from core.models import AuditEntry
from districts.imports.exporters import export_csv, export_xlsx
from districts.imports.service import (
    ImportHashMismatch,
    ImportInvalid,
    RowError,
    content_hash,
    import_apply,
    import_preview,
)
from districts.models import Municipality, Ownership, Parcel, Party, WaterDelivery
from tests import factories

PARCELS_CSV = (
    "cadastre,municipality,barrio,location,area_value,area_unit,assessed_value,use_class\n"
    "371-045-123-07,Juana Díaz,Amuelas,Carr. 149 km 3.2,12.5,CUERDAS,18500.00,AGRICULTURAL\n"
    "371-045-124-01,juana diaz,Callabo,Carr. 149 km 4.0,3.25,cuerdas,9100,Agrícola\n"
)


def upload(text: str | bytes, name: str = "parcelas.csv") -> SimpleUploadedFile:
    content = text.encode("utf-8") if isinstance(text, str) else text
    return SimpleUploadedFile(name, content, content_type="text/csv")


def xlsx(rows: list[list]) -> bytes:
    wb = Workbook()
    ws = wb.active
    for row in rows:
        ws.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


@pytest.fixture
def writer(staff_user):
    return staff_user


# ----------------------------------------------------------------------------- service


@pytest.mark.django_db
def test_valid_csv_preview_writes_nothing_and_apply_creates(writer):
    report = import_preview("parcels", upload(PARCELS_CSV))

    assert report.is_valid
    assert [r.row for r in report.created] == [2, 3]
    assert report.updated == report.rejected == []
    assert Parcel.objects.count() == 0

    import_apply("parcels", upload(PARCELS_CSV), actor=writer, expected_hash=report.sha256)

    first, second = Parcel.objects.order_by("cadastre")
    assert first.municipality.name == "Juana Díaz" and first.area_value == Decimal("12.5000")
    assert second.municipality.name == "Juana Díaz"  # matched without accents or case
    assert second.area_unit == Parcel.AreaUnit.CUERDAS and second.use_class == Parcel.UseClass.AGRICULTURAL
    assert second.search_text == "371-045-124-01 juana diaz callabo carr. 149 km 4.0"
    actions = list(AuditEntry.objects.values_list("action", flat=True))
    assert actions.count("import.parcel.create") == 2
    assert actions.count("import.parcel.file") == 1


@pytest.mark.django_db
def test_one_bad_row_rejects_the_whole_file_and_names_row_column_value(writer):
    text = PARCELS_CSV + (
        "371-045-125-02,Juana Díaz,Amuelas,,doce,CUERDAS,100,AGRICULTURAL\n"
        "12-3,Juana Díaz,Amuelas,,1,CUERDAS,100,AGRICULTURAL\n"
        "371-045-126-02,Atlantis,Amuelas,,1,CUERDAS,100,AGRICULTURAL\n"
    )
    report = import_preview("parcels", upload(text))

    assert not report.is_valid
    assert len(report.created) == 2 and [r.row for r in report.rejected] == [4, 5, 6]
    errors = {(e.row, e.column, e.value): e.message for e in report.errors}
    assert errors[(4, "area_value", "doce")].startswith("No es un número")
    assert errors[(5, "cadastre", "12-3")] == "Número de catastro inválido: use el formato 000-000-000-00."
    assert errors[(6, "municipality", "Atlantis")] == "No es un municipio de Puerto Rico."
    assert isinstance(report.errors[0], RowError) and tuple(report.errors[0])[:3] == (4, "area_value", "doce")

    with pytest.raises(ImportInvalid) as refused:
        import_apply("parcels", upload(text), actor=writer, expected_hash=report.sha256)
    assert refused.value.report.rejected
    assert Parcel.objects.count() == 0
    assert not AuditEntry.objects.filter(action__startswith="import.").exists()


@pytest.mark.django_db
def test_missing_key_column_and_empty_file_are_file_errors():
    report = import_preview("parcels", upload("municipality,area_value\nPonce,1\n"))
    assert not report.is_valid
    assert report.errors == [RowError(1, "cadastre", "", "Falta la columna, que identifica cada fila.")]

    report = import_preview("parcels", upload("cadastre,municipality\n"))
    assert not report.is_valid and "no tiene filas" in report.errors[0].message


@pytest.mark.django_db
def test_required_column_missing_only_blocks_creates():
    factories.parcel("371-045-123-07")
    text = "cadastre,assessed_value\n371-045-123-07,20000\n371-045-999-01,1000\n"
    report = import_preview("parcels", upload(text))
    assert [r.row for r in report.updated] == [2]
    assert report.updated[0].changes == [("assessed_value", "18500.00", "20000")]
    assert {(e.row, e.column) for e in report.errors} == {(3, "municipality"), (3, "area_value")}


@pytest.mark.django_db
def test_duplicate_key_in_file_is_rejected():
    text = PARCELS_CSV + "371-045-123-07,Ponce,,,1,CUERDAS,1,AGRICULTURAL\n"
    report = import_preview("parcels", upload(text))
    assert [(e.row, e.column, e.value) for e in report.errors] == [(4, "cadastre", "371-045-123-07")]
    assert "fila 2" in report.errors[0].message


@pytest.mark.django_db
def test_xlsx_import_with_spanish_headers_numbers_and_dates(writer):
    content = xlsx([
        ["Referencia", "Tipo", "Nombres", "Primer apellido", "Segundo apellido", "Razón social",
         "Representante", "Cargo", "Municipio", "Urbanización", "Calle", "Número", "Código postal"],
        ["P-1", "Persona", "María de los Ángeles", "Peña", "Colón", None, None, None, "Lajas", "El Valle",
         "Calle Flamboyán", 12, 667],
        [],  # a blank row is skipped, numbering goes on
        ["E-1", "ORGANIZATION", None, None, None, "Hacienda Santa Rita, Inc.", "P-1", "Presidenta", "Guánica",
         None, "Carr. 116", "Km 3.4", "00653"],
    ])
    report = import_preview("parties", upload(content, "personas.xlsx"))
    assert report.file_format == "xlsx"
    assert report.is_valid, report.errors
    assert [r.row for r in report.created] == [2, 4]

    import_apply("parties", upload(content, "personas.xlsx"), actor=writer, expected_hash=report.sha256)
    maria = Party.objects.get(ref="P-1")
    assert maria.display_name == "María de los Ángeles Peña Colón"
    assert maria.address_zip == "00667" and maria.address_number == "12"
    assert maria.address_lines == ["Urb. El Valle", "12 Calle Flamboyán", "Lajas PR 00667"]
    hacienda = Party.objects.get(ref="E-1")
    assert hacienda.kind == Party.Kind.ORGANIZATION and hacienda.representative == maria
    assert "pena colon" in maria.search_text


@pytest.mark.django_db
def test_representative_created_later_in_the_same_file(writer):
    text = ("ref,kind,organization_name,given_names,first_surname,representative_ref\n"
            "E-9,ORGANIZATION,Agroindustrias del Sur LLC,,,P-9\n"
            "P-9,PERSON,,Héctor Luis,Quiñones,\n"
            "E-10,ORGANIZATION,Sucesión Rivera Ortiz,,,P-404\n")
    report = import_preview("parties", upload(text))
    assert [(e.row, e.column, e.value) for e in report.errors] == [(4, "representative_ref", "P-404")]

    text = "\n".join(text.splitlines()[:3]) + "\n"
    report = import_preview("parties", upload(text))
    assert report.is_valid
    import_apply("parties", upload(text), actor=writer, expected_hash=report.sha256)
    assert Party.objects.get(ref="E-9").representative == Party.objects.get(ref="P-9")


@pytest.mark.django_db
def test_reimport_updates_instead_of_duplicating(writer):
    first = import_preview("parcels", upload(PARCELS_CSV))
    import_apply("parcels", upload(PARCELS_CSV), actor=writer, expected_hash=first.sha256)

    changed = PARCELS_CSV.replace("18500.00", "19750.50")
    report = import_preview("parcels", upload(changed))
    assert report.created == [] and [r.row for r in report.unchanged] == [3]
    assert [(r.row, r.changes) for r in report.updated] == [(2, [("assessed_value", "18500.00", "19750.50")])]

    import_apply("parcels", upload(changed), actor=writer, expected_hash=report.sha256)
    assert Parcel.objects.count() == 2
    assert Parcel.objects.get(cadastre="371-045-123-07").assessed_value == Decimal("19750.50")
    assert AuditEntry.objects.filter(action="import.parcel.update").count() == 1


@pytest.mark.django_db
def test_ownership_membership_and_water_rules(writer):
    parcel = factories.parcel("371-045-123-07")
    factories.person(ref="P-1")
    factories.person(given="Luz Minerva", first="Ortiz", second="Vélez", ref="P-2")
    factories.district()

    owners = ("cadastre,party_ref,share_pct,start_date,end_date\n"
              "371-045-123-07,P-1,60,2010-03-01,\n"
              "371-045-123-07,P-2,50,01/03/2010,\n")
    report = import_preview("ownerships", upload(owners))
    assert {(e.row, e.column, e.value) for e in report.errors} == {(2, "share_pct", "60"), (3, "share_pct", "50")}
    assert "110 %" in report.errors[0].message

    owners = owners.replace(",60,", ",50,")
    report = import_preview("ownerships", upload(owners))
    assert report.is_valid
    import_apply("ownerships", upload(owners), actor=writer, expected_hash=report.sha256)
    assert Ownership.objects.get(party__ref="P-2").start_date == date(2010, 3, 1)

    members = ("district,cadastre,included_on,free_period_end,gravity_acres\n"
               "riego-sur,371-045-123-07,2000-01-01,2000-06-30,12.1402\n")
    report = import_preview("memberships", upload(members))
    assert [(e.row, e.column, e.value) for e in report.errors] == [(2, "free_period_end", "2000-06-30")]
    assert report.errors[0].message.startswith("IRR-4")

    water = "cadastre,fiscal_year,semester,af_per_acre\n371-045-123-07,FY2026,S1,1.5\n371-045-123-07,2026,2,-1\n"
    report = import_preview("water", upload(water))
    assert [(e.row, e.column) for e in report.errors] == [(3, "af_per_acre")]
    water = water.replace(",-1\n", ",2.25\n")
    report = import_preview("water", upload(water))
    assert report.is_valid
    import_apply("water", upload(water), actor=writer, expected_hash=report.sha256)
    assert [(w.period, w.af_per_acre) for w in WaterDelivery.objects.filter(parcel=parcel)] == [
        ("FY2026-S1", Decimal("1.500")), ("FY2026-S2", Decimal("2.250"))]


def _sample_register():
    lajas = Municipality.objects.get(name="Lajas")
    no_ref = factories.person(given="José Ramón", first="Rodríguez", second="Núñez")  # exported as "#<id>"
    maria = factories.person(given="María de los Ángeles", first="Peña", second="Colón", ref="P-7",
                             email="maria@example.com", phone="787-555-0101")
    Party.objects.create(kind=Party.Kind.ORGANIZATION, organization_name="=Hacienda Santa Rita, Inc.", ref="E-1",
                         representative=maria, representative_title="Presidenta", address_municipality=lajas,
                         address_po_box="560", address_zip="00667")
    parcel = factories.parcel("371-045-123-07")
    factories.parcel("346-010-002-03", municipality="Lajas", cuerdas="40.125", is_public_land=True)
    factories.own(parcel, no_ref, share="50")
    factories.own(parcel, maria, share="50")
    Ownership.objects.create(parcel=parcel, party=maria, share_pct=Decimal("100"), start_date=date(1990, 1, 1),
                             end_date=date(2010, 3, 1), deed="Escritura núm. 45")
    factories.member(factories.district(), parcel, first_water_on=date(2000, 5, 10), credit_pct=Decimal("12.5"))
    WaterDelivery.objects.create(parcel=parcel, fiscal_year=2026, semester=1, af_per_acre=Decimal("1.875"),
                                 offered_only=True)


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
@pytest.mark.parametrize("kind", ["parties", "parcels", "ownerships", "memberships", "water"])
def test_export_reimports_cleanly(kind, fmt):
    _sample_register()
    content = export_csv(kind) if fmt == "csv" else export_xlsx(kind)

    report = import_preview(kind, upload(content, f"{kind}.{fmt}"))

    assert report.is_valid, report.errors
    assert report.created == report.updated == [] and report.unchanged
    assert report.warnings == []


@pytest.mark.django_db
def test_export_round_trip_carries_edits(writer):
    _sample_register()
    text = export_csv("parties").decode("utf-8-sig")
    assert text.splitlines()[0].startswith("ref,kind,given_names")
    assert ",'=Hacienda Santa Rita, Inc.," not in text and "\"'=Hacienda Santa Rita, Inc.\"" in text  # no formula
    edited = text.replace("maria@example.com", "mdla.pena@example.com")
    report = import_preview("parties", upload(edited))
    assert [c for r in report.updated for c in r.changes] == [("email", "maria@example.com", "mdla.pena@example.com")]
    import_apply("parties", upload(edited), actor=writer, expected_hash=report.sha256)
    assert Party.objects.get(ref="P-7").email == "mdla.pena@example.com"
    assert Party.objects.get(ref="E-1").organization_name == "=Hacienda Santa Rita, Inc."
    assert Party.objects.count() == 3

    sheet = load_workbook(io.BytesIO(export_xlsx("memberships")), read_only=True).worksheets[0]
    header, row = list(sheet.iter_rows(values_only=True))[:2]
    assert header[:3] == ("district", "cadastre", "included_on") and row[0] == "riego-sur"


@pytest.mark.django_db
def test_apply_refuses_a_file_other_than_the_previewed_one(writer):
    report = import_preview("parcels", upload(PARCELS_CSV))
    other = PARCELS_CSV.replace("18500.00", "1.00")
    with pytest.raises(ImportHashMismatch):
        import_apply("parcels", upload(other), actor=writer, expected_hash=report.sha256)
    assert Parcel.objects.count() == 0


# ----------------------------------------------------------------------------- pages


@pytest.mark.django_db
def test_preview_then_confirm_through_the_pages(staff_client):
    url = reverse("imports:home")
    response = staff_client.post(url, {"kind": "parcels", "file": upload(PARCELS_CSV)})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Se crearían" in page and "Confirmar e importar" in page and "371-045-124-01" in page
    assert Parcel.objects.count() == 0

    response = staff_client.post(reverse("imports:confirm"),
                                 {"kind": "parcels", "sha256": content_hash(PARCELS_CSV.encode())})
    assert response.status_code == 302 and response.url == url
    assert Parcel.objects.count() == 2
    assert "2 creados" in staff_client.get(url).content.decode()


@pytest.mark.django_db
def test_page_lists_errors_with_row_column_value(staff_client):
    text = PARCELS_CSV + "371-045-125-02,Juana Díaz,Amuelas,,doce,CUERDAS,100,AGRICULTURAL\n"
    page = staff_client.post(reverse("imports:home"), {"kind": "parcels", "file": upload(text)}).content.decode()
    assert "No se guardará nada" in page and "Confirmar e importar" not in page
    assert "<td class=\"num\">4</td><td><code>area_value</code></td><td>«doce»</td>" in page


@pytest.mark.django_db
def test_confirm_refuses_a_different_file_than_previewed(staff_client):
    staff_client.post(reverse("imports:home"), {"kind": "parcels", "file": upload(PARCELS_CSV)})
    other = PARCELS_CSV.replace("Amuelas", "Capitanejo")

    response = staff_client.post(reverse("imports:confirm"), {
        "kind": "parcels", "sha256": content_hash(PARCELS_CSV.encode()), "file": upload(other)})
    assert response.status_code == 409
    assert "no es el que se revisó" in response.content.decode()

    response = staff_client.post(reverse("imports:confirm"), {
        "kind": "parcels", "sha256": content_hash(other.encode()), "file": upload(other)})
    assert response.status_code == 409  # never previewed
    assert Parcel.objects.count() == 0


@pytest.mark.django_db
def test_export_download(staff_client):
    factories.parcel()
    response = staff_client.get(reverse("imports:export"), {"kind": "parcels", "format": "csv"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert 'filename="parcelas-' in response["Content-Disposition"]
    assert "371-045-123-07,Juana Díaz" in response.content.decode("utf-8-sig")
    response = staff_client.get(reverse("imports:export"), {"kind": "water", "format": "xlsx", "template": "1"})
    assert response.status_code == 200 and response.content.startswith(b"PK")
    assert staff_client.get(reverse("imports:export"), {"kind": "nada", "format": "csv"}).status_code == 404


@pytest.mark.django_db
def test_auditor_exports_but_cannot_import(client, auditor_user):
    client.force_login(auditor_user)
    page = client.get(reverse("imports:home"))
    assert page.status_code == 200 and "Revisar sin guardar" not in page.content.decode()
    assert client.get(reverse("imports:export"), {"kind": "parties", "format": "xlsx"}).status_code == 200

    assert client.post(reverse("imports:home"), {"kind": "parcels", "file": upload(PARCELS_CSV)}).status_code == 403
    response = client.post(reverse("imports:confirm"), {"kind": "parcels", "sha256": "0" * 64,
                                                        "file": upload(PARCELS_CSV)})
    assert response.status_code == 403
    assert Parcel.objects.count() == 0


@pytest.mark.django_db
def test_owner_and_anonymous_are_refused(client, owner_user):
    for method, name, data in [("get", "imports:home", {}), ("post", "imports:home", {"kind": "parcels"}),
                               ("post", "imports:confirm", {"kind": "parcels"}),
                               ("get", "imports:export", {"kind": "parties", "format": "csv"})]:
        response = getattr(client, method)(reverse(name), data)
        assert response.status_code == 302 and response.url.startswith(reverse("login")), name
    client.force_login(owner_user)
    for method, name, data in [("get", "imports:home", {}), ("post", "imports:home", {"kind": "parcels"}),
                               ("post", "imports:confirm", {"kind": "parcels"}),
                               ("get", "imports:export", {"kind": "parties", "format": "csv"})]:
        response = getattr(client, method)(reverse(name), data)
        assert response.status_code == 302 and response.url == reverse("portal:home"), name


@pytest.mark.django_db
def test_an_error_only_the_final_validation_finds_still_undoes_the_whole_file(writer, monkeypatch):
    from districts.imports import service

    factories.parcel("371-045-123-07")
    factories.person(ref="P-1")
    factories.person(given="Luz Minerva", first="Ortiz", second="Vélez", ref="P-2")
    text = ("cadastre,party_ref,share_pct,start_date,end_date\n"
            "371-045-123-07,P-1,50,2010-03-01,\n"
            "371-045-123-07,P-2,50,2010-03-01,2009-01-01\n")
    report = import_preview("ownerships", upload(text))
    assert [(e.row, e.column, e.value) for e in report.errors] == [(3, "end_date", "2009-01-01")]

    monkeypatch.setattr(service, "_validate", lambda spec, instance: None)  # a rule the preview does not know
    report = import_preview("ownerships", upload(text))
    assert report.is_valid
    with pytest.raises(ImportInvalid) as refused:
        import_apply("ownerships", upload(text), actor=writer, expected_hash=report.sha256)
    assert {(e.row, e.column) for e in refused.value.report.errors} >= {(3, "end_date")}
    assert Ownership.objects.count() == 0
