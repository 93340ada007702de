"""Small builders for register records used across tests."""
from datetime import date
from decimal import Decimal

from districts.models import District, Membership, Municipality, Office, Ownership, Parcel, Party


def office(name="Servicio de Riego — Región Sur", kind=Office.Kind.IRRIGATION) -> Office:
    return Office.objects.get_or_create(name=name, defaults={"kind": kind, "phone": "787-555-0100"})[0]


def person(given="José Ramón", first="Rodríguez", second="Núñez", **extra) -> Party:
    return Party.objects.create(kind=Party.Kind.PERSON, given_names=given, first_surname=first,
                                second_surname=second, address_municipality=Municipality.objects.get(name="Ponce"),
                                address_urbanization="Villa del Carmen", address_street="Calle Salamanca",
                                address_number="2154", address_zip="00716", **extra)


def parcel(cadastre="371-045-123-07", municipality="Juana Díaz", cuerdas="12.5", **extra) -> Parcel:
    return Parcel.objects.create(cadastre=cadastre, municipality=Municipality.objects.get(name=municipality),
                                 area_value=Decimal(cuerdas), area_unit=Parcel.AreaUnit.CUERDAS,
                                 assessed_value=Decimal("18500.00"), location="Carr. 149 km 3.2",
                                 barrio="Amuelas", **extra)


def own(parcel_obj, party_obj, share="100", start=date(2010, 3, 1)) -> Ownership:
    return Ownership.objects.create(parcel=parcel_obj, party=party_obj, share_pct=Decimal(share), start_date=start)


def district(code="riego-sur", kind=District.Kind.IRRIGATION, name="Distrito de Riego de la Costa Sur") -> District:
    return District.objects.get_or_create(code=code, defaults={"kind": kind, "name": name, "office": office()})[0]


def member(district_obj, parcel_obj, **extra) -> Membership:
    defaults = {"included_on": date(2000, 1, 1), "gravity_acres": parcel_obj.area_acres,
                "free_period_end": date(2001, 5, 10)}
    defaults.update(extra)
    return Membership.objects.create(district=district_obj, parcel=parcel_obj, **defaults)
