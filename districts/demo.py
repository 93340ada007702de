"""Demo data: four districts with their offices, parties, parcels, ownerships, memberships, water.

Deterministic: every record comes from `random.Random(f"{seed}:{what}:{index}")`, so parcel 17
is the same parcel whatever `--parcels` says, and a run only adds what is missing (natural keys:
office name, district code, party `ref`, parcel cadastre, account user name). A second run with
the same arguments changes nothing. Bulk inserts keep 2,000 parcels to a few seconds; the
`search_text` the models' `save()` would set is computed here the same way. Bulk inserts write no
change-history rows: the demo's history starts with the first edit (the audit log has one
"demo.seed" entry per run that created something).

Addresses are real places (urbanizaciones, barrios, ZIP codes of the municipality); people and
organizations are invented; phone numbers use the fictional 555-01xx range and e-mail addresses
the reserved example.com domain, so the demo can never reach a real person.
"""
from __future__ import annotations

import os
import random
import secrets
import time
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group, User
from django.db import transaction

from core.audit import audit
from core.text import fold
from districts.models import District, Membership, Municipality, Office, Ownership, Parcel, Party, WaterDelivery
from districts.rules import add_years

DEFAULT_SEED = 1952
DEFAULT_PARCELS = 2000
MIN_PARCELS = 20
BATCH = 1000

# ----------------------------------------------------------------------------- reference data


@dataclass(frozen=True)
class Place:
    zips: tuple[str, ...]
    barrios: tuple[str, ...]
    urbanizations: tuple[str, ...]
    roads: tuple[str, ...]
    cadastre_map: int


PLACES: dict[str, Place] = {
    "Juana Díaz": Place(("00795",), ("Amuelas", "Callabo", "Capitanejo", "Cayabo", "Collores", "Emajagual",
                                     "Guayabal", "Jacaguas", "Lomas", "Río Cañas Abajo", "Sabana Llana", "Tijeras"),
                        ("Villa El Encanto", "Las Flores", "Jardines de Santo Domingo", "Hacienda La Matilde"),
                        ("Carr. 1", "Carr. 149", "Carr. 510", "Carr. 535", "Carr. 14"), 371),
    "Santa Isabel": Place(("00757",), ("Boca Velázquez", "Descalabrado", "Felicia 1", "Felicia 2", "Jauca 1",
                                       "Jauca 2", "Playa"),
                          ("Jardines de Santa Isabel", "Santa Elena", "Paso Seco", "Valle Costero"),
                          ("Carr. 1", "Carr. 153", "Carr. 538", "Carr. 545"), 441),
    "Salinas": Place(("00751",), ("Aguirre", "Lapa", "Palmas", "Quebrada Yeguas", "Río Jueyes", "Sabana Llana"),
                     ("La Arboleda", "Las Margaritas", "Villa Cofresí", "Monte Soria"),
                     ("Carr. 1", "Carr. 3", "Carr. 52", "Carr. 701", "Carr. 712"), 431),
    "Guayama": Place(("00784", "00785"), ("Algarrobo", "Carite", "Carmen", "Guamaní", "Jobos", "Machete",
                                           "Palmas", "Pozo Hondo"),
                     ("Costa Azul", "Vives", "Jardines de Guamaní", "Villa Rosa", "Hacienda Guamaní"),
                     ("Carr. 3", "Carr. 15", "Carr. 54", "Carr. 748"), 451),
    "Lajas": Place(("00667",), ("Candelaria", "Costa", "Lajas Arriba", "Llanos", "Palmarejo", "París", "Plata",
                                "Sabana Yeguas", "Santa Rosa"),
                   ("El Valle", "Villa Los Santos", "Monte Verde", "Estancias de Lajas"),
                   ("Carr. 116", "Carr. 117", "Carr. 303", "Carr. 306", "Carr. 101"), 346),
    "Cabo Rojo": Place(("00623",), ("Bajura", "Boquerón", "Guanajibo", "Llanos Costa", "Llanos Tuna", "Miradero",
                                    "Monte Grande", "Pedernales", "Puerto Real"),
                       ("Monte Río", "Joyuda Gardens", "Villa del Mar", "Estancias de Cabo Rojo"),
                       ("Carr. 100", "Carr. 101", "Carr. 102", "Carr. 103", "Carr. 307"), 293),
    "San Germán": Place(("00683",), ("Ancones", "Caín Alto", "Caín Bajo", "Cotuí", "Guamá", "Hoconuco Alto",
                                     "Maresúa", "Minillas", "Rosario Alto", "Sabana Eneas", "Tuna"),
                        ("Santa María", "El Retiro", "Villa Universitaria", "Colinas de San Germán"),
                        ("Carr. 2", "Carr. 101", "Carr. 102", "Carr. 318", "Carr. 360"), 350),
    "Guánica": Place(("00653",), ("Arena", "Caño", "Carenero", "Ciénaga", "Montalva", "Susúa Baja"),
                     ("Esperanza", "Los Robles", "Villa Caribe"),
                     ("Carr. 116", "Carr. 333", "Carr. 334", "Carr. 2"), 364),
    "Ponce": Place(("00716", "00717", "00728", "00730", "00731"), ("Primero", "Segundo", "Tercero", "Cuarto",
                                                                  "Quinto", "Sexto"),
                   ("Villa del Carmen", "Los Caobos", "Glenview Gardens", "Jardines del Caribe", "La Rambla",
                    "Alta Vista", "Constancia"),
                   ("Calle Isabel", "Calle Cristina", "Calle Marina", "Calle Reina", "Calle Mayor", "Calle Atocha",
                    "Calle Comercio", "Calle Victoria", "Calle Castillo", "Calle Salud", "Calle Concordia",
                    "Calle Méndez Vigo", "Calle Luna", "Calle Sol", "Calle Vives", "Calle Unión"), 318),
    "Rincón": Place(("00677",), ("Atalaya", "Barrero", "Calvache", "Cruces", "Ensenada", "Jagüey", "Puntas",
                                 "Río Grande"),
                    ("Villa Cofresí", "Sea Beach", "Estancias de Rincón"),
                    ("Carr. 413", "Carr. 115", "Carr. 429", "Calle Cambija", "Calle Nueva"), 120),
    "San Juan": Place(("00907", "00918", "00920", "00924", "00926", "00927"), ("Hato Rey", "Santurce",
                                                                                "Río Piedras", "Caimito"),
                      ("Villa Nevárez", "Caparra Heights", "Río Piedras Heights", "El Señorial", "Country Club",
                       "Baldrich"),
                      ("Calle Loíza", "Ave. Ponce de León", "Calle Wilson", "Calle Tapia"), 40),
    "Bayamón": Place(("00956", "00959", "00961"), ("Buena Vista", "Cerro Gordo", "Juan Sánchez"),
                     ("Sierra Bayamón", "Royal Town", "Santa Juanita", "Río Hondo"),
                     ("Calle Degetau", "Carr. 167", "Carr. 2"), 70),
    "Caguas": Place(("00725", "00727"), ("Bairoa", "Cañaboncito", "San Antonio"),
                    ("Villa del Rey", "Bonneville Heights", "Turabo Gardens"),
                    ("Calle Ruiz Belvis", "Carr. 172", "Carr. 1"), 230),
    "Mayagüez": Place(("00680", "00682"), ("Miradero", "Sabalos", "Guanajibo"),
                      ("Colinas del Oeste", "Villa Sultanita", "Mayagüez Terrace"),
                      ("Calle Méndez Vigo", "Carr. 2", "Calle Post"), 250),
    "Coamo": Place(("00769",), ("Los Llanos", "Pedro García", "Santa Catalina"),
                   ("Las Palmas", "Jardines de Coamo"), ("Carr. 14", "Carr. 150", "Carr. 153"), 380),
}
METRO = ("San Juan", "Bayamón", "Caguas", "Mayagüez")

MALE = ("José Ramón", "Juan Carlos", "Wilfredo", "Héctor Luis", "Ángel Luis", "Efraín", "Rubén", "Víctor Manuel",
        "Ismael", "Edwin", "Ramón", "Luis Alberto", "Jorge", "Carlos Rubén", "Francisco Javier", "Félix",
        "Benjamín", "Rafael", "Pedro Juan", "Eduardo", "Ernesto", "Germán", "Sixto", "Teodoro", "Agustín", "Nelson",
        "Orlando", "Julio César", "Gilberto", "Miguel Ángel")
FEMALE = ("María de los Ángeles", "Luz Minerva", "Carmen Iris", "Ana Lydia", "Nilda", "Migdalia", "Zoraida",
          "Gladys", "Noemí", "Marisol", "Yolanda", "Nélida", "Sonia", "Lourdes", "Iris Nereida", "Awilda", "Maritza",
          "Ángela", "Juana", "Josefina", "Luz Celenia", "Ada Iris", "Rosa María", "Milagros", "Myrna",
          "María del Carmen", "Sol Ángel", "Brenda Liz", "Wanda Ivette", "Aida Luz")
SURNAMES = ("Rodríguez", "Rivera", "Santiago", "Ortiz", "Torres", "Colón", "Vázquez", "Pérez", "González", "López",
            "Martínez", "Díaz", "Hernández", "Morales", "Cruz", "Ramos", "Reyes", "Figueroa", "Negrón", "Maldonado",
            "Matos", "Meléndez", "Rosado", "Ruiz", "Burgos", "Cintrón", "Alicea", "Padilla", "Quiñones", "Nieves",
            "Núñez", "Peña", "Acevedo", "Irizarry", "Pagán", "Vélez", "Lugo", "Sepúlveda", "Toro", "Ayala", "Vargas",
            "Albino", "Mercado", "Caraballo", "Zayas", "Soto", "Feliciano", "Montalvo", "Quiles", "Camacho", "Ocasio",
            "Báez", "Laboy", "Echevarría", "Bermúdez", "Collazo", "Muñiz", "Avilés", "Guzmán", "Santos", "Olivieri",
            "Pietri", "Mattei", "Bonilla", "Cartagena")
SAINTS = ("Santa Rita", "San Antonio", "La Esperanza", "Santa Elena", "San José", "La Concepción", "Las Mercedes",
          "Santa Inés", "San Blas", "La Providencia")
ESTATES = ("Los Almácigos", "El Tamarindo", "La Ceiba", "Los Flamboyanes", "El Guayabal", "Las Palmas",
           "Bello Horizonte", "El Coquí", "Las Garzas", "El Caracol", "Los Úcares")
CROPS = ("Plátano", "Hortalizas", "Mango", "Pimientos", "Papaya", "Caña", "Guineo")
AG_ORGS = ("Hacienda {saint}, Inc.", "Finca {estate}, LLC", "Agropecuaria {estate}, Corp.", "Sucesión {s1} {s2}",
           "Productores de {crop} del Sur, Inc.", "Agroindustrias {estate}, LLC")
BIZ_ORGS = ("Inversiones {estate}, Corp.", "Parador {estate}, Inc.", "Desarrollos {saint}, LLC",
            "Inmobiliaria {s1} & {s2}, LLC", "Farmacia {saint}, Inc.", "Hospedería {estate}, LLC")
TITLES = {"M": ("Presidente", "Administrador", "Agente residente", "Tesorero"),
          "F": ("Presidenta", "Administradora", "Agente residente", "Secretaria")}

OFFICES = [
    {"name": "Departamento de Hacienda — Negociado de Recaudaciones", "kind": Office.Kind.TREASURY,
     "address_street": "Paseo Covadonga", "address_number": "10",
     "address_municipality": "San Juan", "address_zip": "00901", "phone": "787-555-0110",
     "email": "recaudaciones@example.com", "issues": False, "collects": True},
    {"name": "Servicio de Riego de la Costa Sur", "kind": Office.Kind.IRRIGATION,
     "address_barrio": "Amuelas", "address_street": "Carr. 149 Km 2.1", "address_municipality": "Juana Díaz",
     "address_zip": "00795", "phone": "787-555-0120", "email": "riego.costasur@example.com"},
    {"name": "Autoridad de Tierras — Sistema de Riego del Valle de Lajas", "kind": Office.Kind.LAJAS,
     "address_barrio": "Palmarejo", "address_street": "Carr. 116 Km 2.0", "address_municipality": "Lajas",
     "address_zip": "00667", "phone": "787-555-0130", "email": "riego.lajas@example.com"},
    {"name": "Centro de Recaudación de Ingresos Municipales (CRIM)", "kind": Office.Kind.CRIM,
     "address_po_box": "195387", "address_municipality": "San Juan", "address_zip": "00919-5387",
     "phone": "787-555-0140", "email": "servicio@crim.example.com"},
    {"name": "Municipio Autónomo de Ponce", "kind": Office.Kind.MUNICIPALITY, "address_po_box": "331709",
     "address_municipality": "Ponce", "address_zip": "00733-1709", "phone": "787-555-0150",
     "email": "finanzas@ponce.example.com", "issues": True, "collects": False},
    {"name": "Municipio de Rincón", "kind": Office.Kind.MUNICIPALITY, "address_po_box": "533",
     "address_municipality": "Rincón", "address_zip": "00677", "phone": "787-555-0160",
     "email": "alcaldia@rincon.example.com", "collects": False},
    {"name": "Asociación del Distrito de Mejoramiento Turístico de Rincón", "kind": Office.Kind.ASSOCIATION,
     "address_street": "Calle Cambija", "address_number": "14", "address_municipality": "Rincón",
     "address_zip": "00677", "phone": "787-555-0170", "email": "cobros@dmt-rincon.example.com", "issues": False},
    {"name": "Departamento de Recursos Naturales y Ambientales (DRNA)", "kind": Office.Kind.DRNA,
     "address_sector": "El Cinco", "address_barrio": "Monacillo", "address_street": "Carr. 8838 Km 6.3",
     "address_municipality": "San Juan", "address_zip": "00926", "phone": "787-555-0180",
     "email": "franquicias@drna.example.com"},
]

IRR, LAJ, SID, TID = District.Kind.IRRIGATION, District.Kind.LAJAS, District.Kind.SID, District.Kind.TID
DISTRICTS = [
    {"code": "riego-costa-sur", "kind": IRR, "name": "Distrito de Riego de la Costa Sur", "region": "Costa Sur",
     "municipalities": ("Juana Díaz", "Santa Isabel", "Salinas", "Guayama"),
     "office": "Servicio de Riego de la Costa Sur",
     "collecting_office": "Departamento de Hacienda — Negociado de Recaudaciones"},
    {"code": "valle-lajas", "kind": LAJ, "name": "Distrito de Riego del Valle de Lajas", "region": "Suroeste",
     "municipalities": ("Lajas", "Cabo Rojo", "San Germán", "Guánica"),
     "office": "Autoridad de Tierras — Sistema de Riego del Valle de Lajas",
     "collecting_office": "Departamento de Hacienda — Negociado de Recaudaciones"},
    {"code": "dem-ponce-centro", "kind": SID, "region": "Ponce Centro", "municipalities": ("Ponce",),
     "name": "Distrito Especial de Mejoramiento del Centro Histórico de Ponce",
     "office": "Centro de Recaudación de Ingresos Municipales (CRIM)",
     "collecting_office": "Centro de Recaudación de Ingresos Municipales (CRIM)"},
    {"code": "dmt-rincon", "kind": TID, "name": "Distrito de Mejoramiento Turístico de Rincón",
     "region": "Costa de Rincón", "municipalities": ("Rincón",), "office": "Municipio de Rincón",
     "collecting_office": "Asociación del Distrito de Mejoramiento Turístico de Rincón"},
]
# Which district parcel i belongs to: i % 20 → 40 % irrigation, 35 % Lajas, 15 % SID, 5 % TID, 5 % none.
PATTERN = (IRR, LAJ, IRR, LAJ, SID, IRR, LAJ, IRR, TID, LAJ, IRR, SID, LAJ, IRR, LAJ, IRR, SID, LAJ, IRR, None)
OUTSIDE = ("Coamo", "San Juan", "Caguas", "Mayagüez")
SID_INCLUDED_ON = date(2019, 7, 1)
TID_INCLUDED_ON = date(2022, 1, 15)
WATER_PERIODS = ((2025, 1), (2025, 2), (2026, 1), (2026, 2))

# Parcels of the demo owner: the first irrigation (co-owned), Lajas and SID parcels.
OWNER_PARCELS = {0: ("50", date(2012, 5, 14), "Escritura núm. 112 (2012)"),
                 1: ("100", date(2018, 9, 3), "Escritura núm. 57 (2018)"),
                 4: ("100", date(2021, 2, 19), "Escritura núm. 23 (2021)")}
OWNER_MEMBERSHIPS = {  # liable, with water on record, so the owner's portal has something to show
    0: lambda acres: {"included_on": date(1998, 3, 2), "free_period_end": date(1999, 7, 1), "gravity_acres": acres},
    1: lambda acres: {"included_on": date(1987, 5, 4), "first_water_on": date(1987, 8, 1),
                      "twelve_months_on": date(1988, 8, 1), "gravity_acres": _q(acres * Decimal("0.6"), FOUR),
                      "pumped_acres": acres - _q(acres * Decimal("0.6"), FOUR), "credit_pct": Decimal("25")},
}
OWNER_REF, SPOUSE_REF, PUBLIC_REF, BUILDINGS_REF = "P-D0001", "P-D0002", "E-AT", "E-AEP"

ACCOUNTS = [  # username, role, first name, last name
    ("admin", "administrator", "Administración", "del sistema"),
    ("staff", "staff", "Carmen Iris", "Ortiz Santiago"),
    ("cashier", "cashier", "Wilfredo", "Matos Cintrón"),
    ("approver", "approver", "Ángel Luis", "Burgos Rivera"),
    ("legal", "legal_reviewer", "Nilda", "Acevedo Pagán"),
    ("auditor", "auditor", "Héctor", "Quiñones Lugo"),
    ("owner", "owner", "María de los Ángeles", "Peña Colón"),
]

FOUR = Decimal("0.0001")
CENT = Decimal("0.01")


def _q(value: float | Decimal, places: Decimal = CENT) -> Decimal:
    return Decimal(str(value)).quantize(places, rounding=ROUND_HALF_UP)


def _day_between(rng: random.Random, start: date, end: date) -> date:
    return start + timedelta(days=rng.randint(0, max(0, (end - start).days)))


# ----------------------------------------------------------------------------- generation (no database)


@dataclass
class PartySpec:
    ref: str
    kind: str = Party.Kind.PERSON
    given_names: str = ""
    first_surname: str = ""
    second_surname: str = ""
    organization_name: str = ""
    gender: str = ""
    representative_ref: str = ""
    representative_title: str = ""
    email: str = ""
    phone: str = ""
    address: dict = field(default_factory=dict)


@dataclass
class ParcelSpec:
    index: int
    cadastre: str
    municipality: str
    district: str | None
    barrio: str
    location: str
    area_value: Decimal
    area_unit: str
    assessed_value: Decimal
    use_class: str
    frontage_m: Decimal
    is_public_land: bool
    owners: list[tuple[str, Decimal, date, date | None, str]] = field(default_factory=list)  # ref, %, from, to, deed
    membership: dict | None = None
    water: list[tuple[int, int, Decimal, bool]] = field(default_factory=list)


def _address(rng: random.Random, municipality: str) -> dict:
    place = PLACES[municipality]
    out = {"address_municipality": municipality, "address_zip": rng.choice(place.zips)}
    form = rng.random()
    roads = [r for r in place.roads if r.startswith("Carr.")]
    if form < 0.55 or (form < 0.85 and not roads):
        out.update(address_urbanization=rng.choice(place.urbanizations),
                   address_street=f"Calle {rng.choice(ESTATES + SAINTS)}", address_number=str(rng.randint(1, 2400)))
    elif form < 0.85:
        road = rng.choice(roads)
        out.update(address_barrio=rng.choice(place.barrios),
                   address_sector=rng.choice(("La Loma", "El Cerro", "Los Pinos", "La Playita", "El Tanque", "")),
                   address_street=f"{road} Km {rng.randint(0, 30)}.{rng.randint(0, 9)}")
    else:
        out["address_po_box"] = str(rng.randint(100, 9999))
    return out


def _home_municipality(rng: random.Random) -> str:
    if rng.random() < 0.2:
        return rng.choice(METRO)
    return rng.choice([m for d in DISTRICTS for m in d["municipalities"]])


def person_spec(seed: int, index: int) -> PartySpec:
    rng = random.Random(f"{seed}:person:{index}")
    gender = rng.choice("MF")
    given = rng.choice(MALE if gender == "M" else FEMALE)
    first = rng.choice(SURNAMES)
    second = rng.choice([s for s in SURNAMES if s != first])
    spec = PartySpec(ref=f"P-{index + 1:05d}", given_names=given, first_surname=first, second_surname=second,
                     gender=gender, address=_address(rng, _home_municipality(rng)))
    if rng.random() < 0.45:
        user = f"{fold(given.split()[0])}.{fold(first)}".replace(" ", "")
        spec.email = f"{user}{rng.randint(1, 99)}@example.com"
    if rng.random() < 0.8:
        spec.phone = f"{rng.choice(('787', '939'))}-555-01{rng.randint(0, 99):02d}"
    return spec


def organization_specs(seed: int, count: int, persons: int) -> list[PartySpec]:
    specs, names = [], set()
    for k in range(count):
        rng = random.Random(f"{seed}:organization:{k}")
        templates = AG_ORGS if k % 3 else BIZ_ORGS
        for _attempt in range(20):
            s1 = rng.choice(SURNAMES)
            name = rng.choice(templates).format(saint=rng.choice(SAINTS), estate=rng.choice(ESTATES),
                                                crop=rng.choice(CROPS), s1=s1,
                                                s2=rng.choice([s for s in SURNAMES if s != s1]))
            if name not in names:
                break
        else:
            name = f"{name} ({k + 1})"
        names.add(name)
        rep = rng.randrange(persons)
        rep_gender = person_spec(seed, rep).gender
        title = "Albacea" if name.startswith("Sucesión") else rng.choice(TITLES[rep_gender])
        home = rng.choice([m for d in DISTRICTS for m in d["municipalities"]])
        specs.append(PartySpec(
            ref=f"E-{k + 1:04d}", kind=Party.Kind.ORGANIZATION, organization_name=name,
            representative_ref=f"P-{rep + 1:05d}", representative_title=title,
            email=f"{fold(name.split(',')[0]).replace(' ', '.').replace('&', 'y')}@example.com"[:60],
            phone=f"787-555-01{rng.randint(0, 99):02d}", address=_address(rng, home)))
    return specs


def fixed_party_specs(seed: int) -> list[PartySpec]:
    def director(index: int) -> str:
        return "Director Ejecutivo" if person_spec(seed, index).gender == "M" else "Directora Ejecutiva"

    return [
        PartySpec(ref=OWNER_REF, given_names="María de los Ángeles", first_surname="Peña", second_surname="Colón",
                  gender="F", email="mdla.pena@example.com", phone="787-555-0199",
                  address={"address_municipality": "Juana Díaz", "address_urbanization": "Villa El Encanto",
                           "address_street": "Calle Flamboyán", "address_number": "G-12", "address_zip": "00795"}),
        PartySpec(ref=SPOUSE_REF, given_names="José Ramón", first_surname="Rodríguez", second_surname="Núñez",
                  gender="M", phone="787-555-0198",
                  address={"address_municipality": "Juana Díaz", "address_urbanization": "Villa El Encanto",
                           "address_street": "Calle Flamboyán", "address_number": "G-12", "address_zip": "00795"}),
        PartySpec(ref=PUBLIC_REF, kind=Party.Kind.ORGANIZATION, organization_name="Autoridad de Tierras de Puerto Rico",
                  representative_ref=f"P-{1:05d}", representative_title=director(0),
                  phone="787-555-0190", email="info@tierras.example.com",
                  address={"address_municipality": "San Juan", "address_po_box": "9745", "address_zip": "00908"}),
        PartySpec(ref=BUILDINGS_REF, kind=Party.Kind.ORGANIZATION, organization_name="Autoridad de Edificios Públicos",
                  representative_ref=f"P-{2:05d}", representative_title=director(1),
                  phone="787-555-0191", email="info@aep.example.com",
                  address={"address_municipality": "San Juan", "address_po_box": "41029", "address_zip": "00940"}),
    ]


def _parcel_body(rng: random.Random, kind: str | None, municipality: str) -> dict:
    """Area, use and value by where the parcel is: farms in the irrigation districts, lots in towns."""
    if kind in (IRR, LAJ) or (kind is None and municipality != "San Juan" and rng.random() < 0.5):
        if rng.random() < 0.9:
            cuerdas = min(400.0, max(0.5, rng.lognormvariate(2.6, 0.9)))
            use = Parcel.UseClass.AGRICULTURAL if rng.random() < 0.93 else Parcel.UseClass.VACANT
            return {"area_value": _q(cuerdas), "area_unit": Parcel.AreaUnit.CUERDAS, "use_class": use,
                    "assessed_value": _q(cuerdas * rng.uniform(900, 3600)),
                    "frontage_m": _q(rng.uniform(15, 250)) if rng.random() < 0.4 else Decimal("0")}
        m2 = rng.uniform(450, 1500)
        return {"area_value": _q(m2), "area_unit": Parcel.AreaUnit.M2, "use_class": Parcel.UseClass.RESIDENTIAL,
                "assessed_value": _q(rng.uniform(18000, 65000)), "frontage_m": _q(rng.uniform(12, 30))}
    if kind == TID:
        use = rng.choices((Parcel.UseClass.HOTEL, Parcel.UseClass.COMMERCIAL, Parcel.UseClass.RESIDENTIAL,
                           Parcel.UseClass.VACANT), weights=(15, 35, 45, 5))[0]
        m2 = rng.uniform(4000, 40000) if use == Parcel.UseClass.HOTEL else rng.uniform(350, 2500)
    else:
        use = rng.choices((Parcel.UseClass.COMMERCIAL, Parcel.UseClass.RESIDENTIAL, Parcel.UseClass.VACANT,
                           Parcel.UseClass.GOVERNMENT), weights=(55, 35, 5, 5))[0]
        m2 = rng.uniform(150, 2500)
    per_m2 = {Parcel.UseClass.HOTEL: 180, Parcel.UseClass.COMMERCIAL: 140, Parcel.UseClass.RESIDENTIAL: 90}
    return {"area_value": _q(m2), "area_unit": Parcel.AreaUnit.M2, "use_class": use,
            "assessed_value": _q(m2 * per_m2.get(use, 40) * rng.uniform(0.7, 1.3)),
            "frontage_m": _q(rng.uniform(6, 60 if use == Parcel.UseClass.HOTEL else 35))}


def _shares(rng: random.Random, count: int) -> list[Decimal]:
    if count == 1:
        return [Decimal("100")]
    if count == 2:
        return [Decimal(s) for s in rng.choice((("50", "50"), ("60", "40"), ("75", "25")))]
    return [Decimal(s) for s in rng.choice((("33.3333", "33.3333", "33.3334"), ("50", "25", "25")))]


def _deed(rng: random.Random, on: date) -> str:
    if rng.random() < 0.15:
        return f"Declaratoria de herederos ({on.year})"
    return f"Escritura núm. {rng.randint(1, 450)} ({on.year})"


def _owners(rng: random.Random, body: dict, persons: int, organizations: int) -> list:
    use = body["use_class"]
    org_share = 0.5 if use in (Parcel.UseClass.HOTEL, Parcel.UseClass.COMMERCIAL) else 0.08
    co_owners = rng.choices((1, 2, 3), weights=(88, 9, 3))[0]
    if organizations and rng.random() < org_share:
        current = [f"E-{rng.randrange(organizations) + 1:04d}"]
    else:
        current = [f"P-{n + 1:05d}" for n in rng.sample(range(persons), co_owners)]
    start = _day_between(rng, date(1972, 1, 1), date(2023, 12, 31))
    deed = _deed(rng, start)
    owners = [(ref, share, start, None, deed) for ref, share in zip(current, _shares(rng, len(current)), strict=True)]
    if rng.random() < 0.12 and start.year > 1976:  # a past sale: the seller held it before
        seller = f"P-{rng.randrange(persons) + 1:05d}"
        if seller not in current:
            bought = _day_between(rng, date(1960, 1, 1), start - timedelta(days=365))
            owners.insert(0, (seller, Decimal("100"), bought, start, _deed(rng, bought)))
    return owners


def _membership(rng: random.Random, kind: str, acres: Decimal) -> dict:
    if kind == SID:
        return {"included_on": SID_INCLUDED_ON}
    if kind == TID:
        return {"included_on": TID_INCLUDED_ON}
    if kind == IRR:
        included = _day_between(rng, date(1985, 1, 1), date(2024, 6, 30))
        status = Membership.Status.PROVISIONAL if included.year >= 2020 and rng.random() < 0.5 \
            else Membership.Status.PERMANENT
        facts = {"included_on": included, "status": status, "gravity_acres": acres}
        if included >= date(2023, 7, 1) and rng.random() < 0.4:
            return facts  # no twelve months of water yet: free period end unknown (IRR-4)
        end = add_years(included, 1) + timedelta(days=rng.randint(0, 540))
        facts["free_period_end"] = end
        if rng.random() < 0.15:  # water was interrupted: the twelve months started earlier
            facts["first_water_on"] = _day_between(rng, included, add_years(end, -1))
        return facts
    included = _day_between(rng, date(1958, 1, 1), date(2024, 6, 30))
    split = rng.random()
    if split < 0.6:
        gravity = acres
    elif split < 0.85:
        gravity = _q(acres * Decimal(str(rng.uniform(0.3, 0.8))), FOUR)
    else:
        gravity = Decimal("0")
    facts = {"included_on": included, "gravity_acres": gravity, "pumped_acres": acres - gravity,
             "status": Membership.Status.PROVISIONAL if included.year >= 2022 and rng.random() < 0.5
             else Membership.Status.PERMANENT}
    if not (included >= date(2023, 7, 1) and rng.random() < 0.5):
        twelve = add_years(included, 1) + timedelta(days=rng.randint(0, 400))
        facts["twelve_months_on"] = twelve
        facts["first_water_on"] = max(included, add_years(twelve, -1))
    if rng.random() < 0.1:
        facts["credit_pct"] = Decimal(rng.choice(("10", "15", "20", "25", "33.3333", "50")))
    return facts


def _water(rng: random.Random, facts: dict) -> list[tuple[int, int, Decimal, bool]]:
    """FY2025 and FY2026 records for a parcel that receives water, from the semester water began."""
    if "free_period_end" in facts:
        first = facts.get("first_water_on") or add_years(facts["free_period_end"], -1)
    elif "twelve_months_on" in facts:
        first = facts["first_water_on"]
    else:
        return []
    dry = rng.random() < 0.1
    records = []
    for fy, semester in WATER_PERIODS:
        ends = date(fy - 1, 12, 31) if semester == 1 else date(fy, 6, 30)
        if first > ends:
            continue
        low = dry or rng.random() < 0.07
        amount = rng.uniform(0.3, 1.95) if low else rng.uniform(2.0, 4.8)
        records.append((fy, semester, _q(amount, Decimal("0.001")), rng.random() < 0.05))
    return records


def parcel_spec(seed: int, index: int, persons: int, organizations: int) -> ParcelSpec:
    rng = random.Random(f"{seed}:parcel:{index}")
    kind = PATTERN[index % len(PATTERN)]
    district = next((d for d in DISTRICTS if d["kind"] == kind), None)
    municipality = rng.choice(district["municipalities"] if district else OUTSIDE)
    place = PLACES[municipality]
    body = _parcel_body(rng, kind, municipality)
    farm = body["area_unit"] == Parcel.AreaUnit.CUERDAS
    road = rng.choice([r for r in place.roads if r.startswith("Carr.") or not farm] or place.roads)
    if road.startswith("Carr."):
        location = f"{road} Km {rng.randint(0, 30)}.{rng.randint(0, 9)}"
    else:
        location = f"{road} {rng.randint(1, 250)}"
    public = index not in OWNER_PARCELS and (
        (kind in (IRR, LAJ) and rng.random() < 0.03) or body["use_class"] == Parcel.UseClass.GOVERNMENT)
    spec = ParcelSpec(
        index=index, municipality=municipality, district=district["code"] if district else None,
        cadastre=f"{place.cadastre_map:03d}-{index % 97 + 1:03d}-{index // 97 + 100:03d}-{rng.randrange(100):02d}",
        barrio=rng.choice(place.barrios), location=location, is_public_land=public, **body)
    if index in OWNER_PARCELS:
        share, start, deed = OWNER_PARCELS[index]
        spec.owners = [(OWNER_REF, Decimal(share), start, None, deed)]
        if share != "100":
            spec.owners.append((SPOUSE_REF, Decimal("100") - Decimal(share), start, None, deed))
        if spec.use_class not in (Parcel.UseClass.AGRICULTURAL, Parcel.UseClass.COMMERCIAL):
            spec.use_class = Parcel.UseClass.AGRICULTURAL if kind in (IRR, LAJ) else Parcel.UseClass.COMMERCIAL
    elif public and spec.use_class == Parcel.UseClass.GOVERNMENT:
        spec.owners = [(BUILDINGS_REF, Decimal("100"), _day_between(rng, date(1958, 1, 1), date(1990, 12, 31)), None,
                        "Certificación de dominio público")]
    elif public:
        spec.owners = [(PUBLIC_REF, Decimal("100"), _day_between(rng, date(1941, 1, 1), date(1975, 12, 31)), None,
                        "Ley de Tierras de Puerto Rico")]
    else:
        spec.owners = _owners(rng, body, persons, organizations)
    if district:
        acres = Parcel(area_value=spec.area_value, area_unit=spec.area_unit).area_acres
        spec.membership = OWNER_MEMBERSHIPS[index](acres) if index in OWNER_MEMBERSHIPS else \
            _membership(rng, kind, acres)
        if kind in (IRR, LAJ):
            spec.water = _water(rng, spec.membership)
    return spec


def pool_sizes(parcels: int) -> tuple[int, int]:
    """(persons, organizations) for a demo of `parcels` parcels."""
    return max(30, parcels * 3 // 4), max(6, parcels // 40)


# ----------------------------------------------------------------------------- writing


@dataclass
class SeedResult:
    created: dict[str, int]
    accounts_created: list[str]
    accounts_existing: list[str]
    password: str | None  # set on the accounts created now (None when none was created)
    password_from_env: bool  # DEMO_PASSWORD, rather than generated for this run
    seconds: float = 0.0


class DemoRefused(Exception):
    pass


def _party(spec: PartySpec, municipalities: dict[str, Municipality]) -> Party:
    address = dict(spec.address)
    address["address_municipality"] = municipalities[address["address_municipality"]]
    party = Party(ref=spec.ref, kind=spec.kind, given_names=spec.given_names, first_surname=spec.first_surname,
                  second_surname=spec.second_surname, organization_name=spec.organization_name,
                  representative_title=spec.representative_title, email=spec.email, phone=spec.phone, **address)
    # What Party.save() stores, computed the same way (bulk_create does not call save()).
    party.search_text = fold(" ".join([party.display_name, party.email, party.phone, party.address_text()]))
    return party


def _seed_register(seed: int, parcels: int, created: dict[str, int]) -> None:
    municipalities = {m.name: m for m in Municipality.objects.all()}
    offices = {}
    for data in OFFICES:
        data = dict(data)
        name = data.pop("name")
        data["address_municipality"] = municipalities[data["address_municipality"]]
        offices[name], new = Office.objects.get_or_create(name=name, defaults=data)
        created["offices"] += new
    districts = {}
    for data in DISTRICTS:
        district, new = District.objects.get_or_create(code=data["code"], defaults={
            "kind": data["kind"], "name": data["name"], "region": data["region"],
            "office": offices[data["office"]], "collecting_office": offices[data["collecting_office"]]})
        if new:
            district.municipalities.set([municipalities[m] for m in data["municipalities"]])
        districts[district.code] = district
        created["districts"] += new

    persons, organizations = pool_sizes(parcels)
    fixed = fixed_party_specs(seed)
    person_specs = [person_spec(seed, j) for j in range(persons)] + [s for s in fixed if s.kind == Party.Kind.PERSON]
    org_specs = organization_specs(seed, organizations, persons) + [s for s in fixed
                                                                    if s.kind == Party.Kind.ORGANIZATION]
    existing_refs = set(Party.objects.filter(ref__in=[s.ref for s in person_specs + org_specs])
                        .values_list("ref", flat=True))
    new_people = [_party(s, municipalities) for s in person_specs if s.ref not in existing_refs]
    Party.objects.bulk_create(new_people, batch_size=BATCH)
    reps = dict(Party.objects.filter(ref__in={s.representative_ref for s in org_specs}).values_list("ref", "pk"))
    new_orgs = []
    for s in org_specs:
        if s.ref not in existing_refs:
            org = _party(s, municipalities)
            org.representative_id = reps[s.representative_ref]
            new_orgs.append(org)
    Party.objects.bulk_create(new_orgs, batch_size=BATCH)
    created["parties"] += len(new_people) + len(new_orgs)

    specs = [parcel_spec(seed, i, persons, organizations) for i in range(parcels)]
    existing_cadastres = set(Parcel.objects.filter(cadastre__in=[s.cadastre for s in specs])
                             .values_list("cadastre", flat=True))
    specs = [s for s in specs if s.cadastre not in existing_cadastres]
    if not specs:
        return
    new_parcels = []
    for s in specs:
        parcel = Parcel(cadastre=s.cadastre, municipality=municipalities[s.municipality], barrio=s.barrio,
                        location=s.location, area_value=s.area_value, area_unit=s.area_unit,
                        assessed_value=s.assessed_value, use_class=s.use_class, frontage_m=s.frontage_m,
                        is_public_land=s.is_public_land)
        # What Parcel.save() stores, computed the same way.
        parcel.search_text = fold(" ".join([parcel.cadastre, parcel.municipality.name, parcel.barrio,
                                            parcel.location]))
        new_parcels.append(parcel)
    Parcel.objects.bulk_create(new_parcels, batch_size=BATCH)
    parcel_ids = dict(Parcel.objects.filter(cadastre__in=[s.cadastre for s in specs]).values_list("cadastre", "pk"))
    party_ids = dict(Party.objects.filter(ref__in={o[0] for s in specs for o in s.owners}).values_list("ref", "pk"))

    ownerships, memberships, deliveries = [], [], []
    for s in specs:
        parcel_id = parcel_ids[s.cadastre]
        for ref, share, start, end, deed in s.owners:
            ownerships.append(Ownership(parcel_id=parcel_id, party_id=party_ids[ref], share_pct=share,
                                        start_date=start, end_date=end, deed=deed))
        if s.membership is not None:
            memberships.append(Membership(district=districts[s.district], parcel_id=parcel_id, **s.membership))
        for fy, semester, amount, offered in s.water:
            deliveries.append(WaterDelivery(parcel_id=parcel_id, fiscal_year=fy, semester=semester,
                                            af_per_acre=amount, offered_only=offered))
    for objs, model in ((ownerships, Ownership), (memberships, Membership), (deliveries, WaterDelivery)):
        model.objects.bulk_create(objs, batch_size=BATCH)
    created["parcels"] += len(new_parcels)
    created["ownerships"] += len(ownerships)
    created["memberships"] += len(memberships)
    created["water_deliveries"] += len(deliveries)


def _seed_accounts(env_password: str | None) -> tuple[list[str], list[str], str | None]:
    existing = set(User.objects.filter(username__in=[a[0] for a in ACCOUNTS]).values_list("username", flat=True))
    missing = [a for a in ACCOUNTS if a[0] not in existing]
    password = (env_password or secrets.token_urlsafe(12)) if missing else None
    hashed = make_password(password) if missing else None  # one slow hash for all the new accounts
    for username, _role, first, last in missing:
        User.objects.create(username=username, password=hashed, first_name=first, last_name=last,
                            email=f"{username}@example.com", is_superuser=username == "admin",
                            is_staff=username == "admin")
    for username, role, _first, _last in ACCOUNTS:  # roles and the owner's party, also for older accounts
        user = User.objects.get(username=username)
        group = Group.objects.get(name=role)
        if not user.groups.filter(pk=group.pk).exists():
            user.groups.add(group)
    owner = User.objects.get(username="owner")
    party = Party.objects.get(ref=OWNER_REF)
    if party.user_id is None and not Party.objects.filter(user=owner).exists():
        party.user = owner
        party.save(update_fields=["user"])
    return [a[0] for a in missing], sorted(existing, key=[a[0] for a in ACCOUNTS].index), password


def seed_demo(*, parcels: int = DEFAULT_PARCELS, seed: int = DEFAULT_SEED, password: str | None = None) -> SeedResult:
    """Create whatever part of the demo is missing; all of it in one transaction."""
    if parcels < MIN_PARCELS:
        raise DemoRefused(f"--parcels debe ser al menos {MIN_PARCELS}.")
    started = time.monotonic()
    if password is None:
        password = os.environ.get("DEMO_PASSWORD") or None
    created = dict.fromkeys(("offices", "districts", "parties", "parcels", "ownerships", "memberships",
                             "water_deliveries"), 0)
    with transaction.atomic():
        _seed_register(seed, parcels, created)
        new_accounts, old_accounts, used_password = _seed_accounts(password)
        if any(created.values()) or new_accounts:
            audit(actor=None, action="demo.seed", summary=f"seed_demo --parcels {parcels}",
                  data={**created, "accounts": new_accounts, "seed": seed})
    return SeedResult(created=created, accounts_created=new_accounts, accounts_existing=old_accounts,
                      password=used_password, password_from_env=bool(password), seconds=time.monotonic() - started)
