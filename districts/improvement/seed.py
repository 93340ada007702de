"""Demo data for the improvement districts (`manage.py seed_improvement`). Idempotent: every step
goes through a service that finds what is already there, so running it again changes nothing.

For the demo SID and TID districts (created with an office and a few member parcels when there
are none): a SID resolution with charges, CRIM's receipt and two collection batches (one remitted
on time, one late); a TID petition with the Legislature's five findings, an approved and published
ordinance with a formula, its association and a few account entries.
"""
from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from django.db import transaction

from core.money import round_half_up
from districts.improvement import services
from districts.improvement.models import SidResolution, TidAccountEntry, TidOrdinance, TidPetition
from districts.models import District, Membership, Municipality, Office, Ownership, Parcel, Party

TID_FORMULA = 'if(use_class == "HOTEL", 0.0015 * assessed_value, max(150, 0.25 * frontage_m))'

SID_PARCELS = [  # cadastre, use, cuerdas, assessed value, frontage, owner (given, first, second)
    ("080-012-345-01", "RESIDENTIAL", "0.2500", "145000.00", "18.00", ("Carmen Luisa", "Ortiz", "Vélez")),
    ("080-012-345-02", "COMMERCIAL", "0.6000", "420000.00", "35.50", ("Héctor", "Santiago", "Ríos")),
    ("080-012-345-03", "RESIDENTIAL", "0.3100", "160500.00", "21.00", ("Ana Sofía", "Meléndez", "Cruz")),
    ("080-012-345-04", "VACANT", "1.1000", "38000.00", "40.00", ("Luis Alberto", "Figueroa", "Díaz")),
]
TID_PARCELS = [
    ("081-004-120-11", "HOTEL", "2.4000", "18500000.00", "120.00", None),
    ("081-004-120-12", "HOTEL", "1.3500", "9750000.00", "85.00", None),
    ("081-004-120-13", "COMMERCIAL", "0.4000", "1250000.00", "32.00", ("Miguel Ángel", "Torres", "Lugo")),
    ("081-004-120-14", "RESIDENTIAL", "0.2000", "310000.00", "15.00", ("Gloria", "Rivera", "Santos")),
    ("081-004-120-15", "COMMERCIAL", "0.1500", "540000.00", "1000.00", ("Pedro Juan", "Colón", "Maldonado")),
]


def _office(name: str, kind: str, municipality: Municipality) -> Office:
    return Office.objects.get_or_create(name=name, defaults={
        "kind": kind, "phone": "787-555-0150", "address_municipality": municipality})[0]


def _district(kind: str, code: str, name: str, office: Office, collecting: Office,
              municipality: Municipality) -> District:
    district = District.objects.filter(kind=kind).order_by("id").first()
    if district is None:
        district = District.objects.create(kind=kind, code=code, name=name, office=office,
                                           collecting_office=collecting)
        district.municipalities.add(municipality)
    return district


def _members(district: District, rows, municipality: Municipality, barrio: str) -> list[Parcel]:
    """The district's member parcels; when it has fewer than three, the demo parcels are added."""
    existing = list(Parcel.objects.filter(memberships__district=district).order_by("cadastre"))
    if len(existing) >= 3:
        return existing
    for cadastre, use, cuerdas, value, frontage, owner in rows:
        parcel, created = Parcel.objects.get_or_create(cadastre=cadastre, defaults={
            "municipality": municipality, "barrio": barrio, "location": f"{barrio}, {municipality}",
            "area_value": Decimal(cuerdas), "area_unit": Parcel.AreaUnit.CUERDAS, "assessed_value": Decimal(value),
            "use_class": use, "frontage_m": Decimal(frontage)})
        if created and owner:
            given, first, second = owner
            party = Party.objects.create(kind=Party.Kind.PERSON, given_names=given, first_surname=first,
                                         second_surname=second, address_municipality=municipality)
            Ownership.objects.create(parcel=parcel, party=party, start_date=date(2015, 6, 1))
        Membership.objects.get_or_create(district=district, parcel=parcel, defaults={"included_on": date(2020, 1, 1)})
    return list(Parcel.objects.filter(memberships__district=district).order_by("cadastre"))


@transaction.atomic
def seed(actor=None) -> dict:
    san_juan = Municipality.objects.get(name="San Juan")
    crim = _office("Centro de Recaudación de Ingresos Municipales (CRIM)", Office.Kind.CRIM, san_juan)
    authority = _office("Autoridad para el Financiamiento de la Infraestructura (AFI)", Office.Kind.OTHER, san_juan)
    municipio = _office("Municipio de San Juan — Oficina de Desarrollo Turístico", Office.Kind.MUNICIPALITY, san_juan)
    sid_district = _district(District.Kind.SID, "sid-santurce", "Distrito Especial de Mejoramiento de Santurce",
                             authority, crim, san_juan)
    tid_district = _district(District.Kind.TID, "tid-condado", "Distrito de Mejoramiento Turístico de Condado",
                             municipio, municipio, san_juan)
    sid_parcels = _members(sid_district, SID_PARCELS, san_juan, "Santurce")
    tid_parcels = _members(tid_district, TID_PARCELS, san_juan, "Condado")
    return {"sid": _seed_sid(sid_district, sid_parcels, actor), "tid": _seed_tid(tid_district, tid_parcels, actor)}


def _seed_sid(district: District, parcels: list[Parcel], actor) -> SidResolution:
    resolution = SidResolution.objects.filter(district=district, number="AFI-2025-07").first()
    if resolution is None:
        resolution = services.sid_resolution_create(
            actor=actor, district=district, number="AFI-2025-07", adopted_on=date(2025, 3, 14), term_years=10,
            first_fiscal_year=2026, due_dates=["07-01", "01-01"], penalty_pct=Decimal("10"), penalty_grace_days=30,
            penalty_terms="Si no paga en la fecha de vencimiento, se añade una penalidad de 10 % tras 30 días de "
                          "gracia; el cargo es un gravamen legal tácito sobre la propiedad (SID-4) y puede "
                          "cobrarse por la vía de apremio.")
    lines = []
    for parcel in parcels:
        amount = round_half_up(Decimal("120") + parcel.assessed_value * Decimal("0.0015"))
        lines.append({"parcel": parcel, "annual_charge": amount})
    services.sid_charges_set(actor=actor, resolution=resolution, lines=lines)
    services.sid_crim_receipt_record(actor=actor, resolution=resolution, received_on=date(2025, 4, 1))
    first = resolution.notice_rounds.get(sequence=1)
    services.sid_notice_mailed(actor=actor, notice_round=first, mailed_on=first.due_on - timedelta(days=20))
    half = sum((line["annual_charge"] for line in lines), Decimal("0")) / 2
    on_time = services.sid_batch_record(actor=actor, resolution=resolution, received_on=date(2025, 8, 15),
                                        collected=round_half_up(half), reference="CRIM-2025-0815")
    services.sid_batch_remit(actor=actor, batch=on_time, remitted_on=on_time.remittance_due_on - timedelta(days=24))
    late = services.sid_batch_record(actor=actor, resolution=resolution, received_on=date(2026, 1, 20),
                                     collected=round_half_up(half * Decimal("0.9")), reference="CRIM-2026-0120")
    services.sid_batch_remit(actor=actor, batch=late, remitted_on=late.remittance_due_on + timedelta(days=14))
    return resolution


def _seed_tid(district: District, parcels: list[Parcel], actor) -> TidPetition:
    municipality = district.municipalities.first() or Municipality.objects.get(name="San Juan")
    received = date(2025, 2, 3)
    petition = TidPetition.objects.filter(district=district, legislature_received_on=received).first()
    if petition is None:
        petition = services.tid_petition_create(
            actor=actor, district=district, municipality=municipality, legislature_received_on=received,
            petition_text="El alcalde solicita a la Legislatura Municipal establecer el distrito de mejoramiento "
                          "turístico para financiar la iluminación, la seguridad y el mantenimiento del paseo "
                          "costero, mediante cargos por beneficio sobre las propiedades del área.")
    notes = {"a": "Verificado por la Secretaría de la Legislatura.", "b": "Conforme al Plan de Ordenación Territorial.",
             "c": "Área contigua de 14 manzanas.", "d": "Sin conflicto con los servicios existentes.",
             "e": "Apoyo de la Compañía de Turismo."}
    if petition.status == TidPetition.Status.RECEIVED:
        for factor, text in notes.items():
            services.tid_finding_record(actor=actor, petition=petition, factor=factor, finding="FAVORABLE", notes=text)
    ordinance = TidOrdinance.objects.filter(petition=petition).first()
    if ordinance is None:
        from districts.improvement.selectors import tid_formula_preview

        total = tid_formula_preview(district, TID_FORMULA).total
        ordinance = services.tid_ordinance_issue(
            actor=actor, petition=petition, number="Ord. 25, Serie 2024-2025", name=district.name,
            issued_on=date(2025, 4, 10), expected_amount=round_half_up(total, Decimal("100")), term_years=5,
            first_fiscal_year=2026, formula=TID_FORMULA, due_dates=["07-01", "01-01"], association_authorized=True)
    services.tid_mayor_receipt(actor=actor, ordinance=ordinance, received_on=date(2025, 4, 14))
    services.tid_mayor_decide(actor=actor, ordinance=ordinance, decision=TidOrdinance.Decision.APPROVED,
                              decided_on=date(2025, 5, 1))
    services.tid_publication_record(actor=actor, ordinance=ordinance, newspaper="El Nuevo Día",
                                    published_on=date(2025, 5, 6))
    association = Party.objects.filter(kind=Party.Kind.ORGANIZATION,
                                       organization_name="Asociación del Distrito Turístico de Condado, Inc.").first()
    if association is None:
        association = Party.objects.create(kind=Party.Kind.ORGANIZATION, address_municipality=municipality,
                                           organization_name="Asociación del Distrito Turístico de Condado, Inc.",
                                           email="cuenta@condado-dmt.example")
    services.tid_collector_set(actor=actor, ordinance=ordinance, collector=TidOrdinance.Collector.ASSOCIATION,
                               association=association, copy_sent_to_crim_on=date(2025, 5, 9))
    services.tid_association_receipt(actor=actor, ordinance=ordinance, received_on=date(2025, 5, 12))
    first = ordinance.notice_rounds.get(sequence=1)
    services.tid_notice_mailed(actor=actor, notice_round=first, mailed_on=date(2025, 6, 5))
    if not TidAccountEntry.objects.filter(ordinance=ordinance).exists():
        deposit = round_half_up(ordinance.expected_amount / 2)
        services.tid_account_entry_add(actor=actor, ordinance=ordinance, kind="DEPOSIT", entry_date=date(2025, 8, 1),
                                       amount=deposit, purpose="Recaudos del primer semestre FY2026")
        services.tid_account_entry_add(actor=actor, ordinance=ordinance, kind="EXPENSE", entry_date=date(2025, 8, 20),
                                       amount=round_half_up(deposit * Decimal("0.30")),
                                       purpose="Iluminación del paseo costero (fase 1)")
        services.tid_account_entry_add(actor=actor, ordinance=ordinance, kind="EXPENSE", entry_date=date(2025, 8, 31),
                                       amount=round_half_up(deposit * Decimal("0.03")), admin_expense=True,
                                       purpose="Contabilidad y manejo de la cuenta especial")
    return petition
