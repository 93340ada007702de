"""Demo franchises: every source, use and tariff class, several exemptions, meter readings.

Idempotent: parties, parcels and franchises are found by their natural keys (reference,
cadastre, number) and left alone when they exist; readings are upserted by month. Dates are
relative to the day of the first run: one GROUND_INDUSTRIAL franchise has 13 months of zeros
(FRA-10 fires) and one franchise expires within 90 days with no renewal filed (FRA-7 fires).
"""
from __future__ import annotations

from datetime import date

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from core.daycount import add_days, add_months
from districts.models import Municipality, Office, Parcel, Party
from franchises import services
from franchises.models import Application, Exemption, Franchise, HolderType, MeterReading

PERSON, ORG = Party.Kind.PERSON, Party.Kind.ORGANIZATION

PARTIES = {
    # ref: (kind, names or organization, municipality, representative ref, representative title)
    "FRA-DEMO-01": (PERSON, ("María del Carmen", "Peña", "Colón"), "Ponce", None, ""),
    "FRA-DEMO-02": (PERSON, ("Luis Alberto", "Rivera", "Ortiz"), "Manatí", None, ""),
    "FRA-DEMO-03": (ORG, "Embotelladora Cristal del Norte, Inc.", "Manatí", "FRA-DEMO-02", "Presidente"),
    "FRA-DEMO-04": (ORG, "Hotel Playa Dorada, LLC", "Guánica", None, ""),
    "FRA-DEMO-05": (ORG, "Salinas Marine Aquaculture Corp.", "Salinas", None, ""),
    "FRA-DEMO-06": (ORG, "Colegio San Ignacio de Loyola", "Coamo", None, ""),
    "FRA-DEMO-07": (ORG, "Municipio Autónomo de Ponce", "Ponce", None, ""),
    "FRA-DEMO-08": (ORG, "Club Recreativo Los Almendros", "Santa Isabel", None, ""),
    "FRA-DEMO-09": (ORG, "Destilería Boricua, Inc.", "Barceloneta", None, ""),
    "FRA-DEMO-10": (PERSON, ("José Ramón", "Rodríguez", "Núñez"), "Juana Díaz", None, ""),
    "FRA-DEMO-11": (ORG, "Autoridad de Acueductos y Alcantarillados", "Arecibo", None, ""),
    "FRA-DEMO-12": (ORG, "Autoridad de Energía Eléctrica", "Guayama", None, ""),
    "FRA-DEMO-13": (ORG, "Comunidad de Bienes Hacienda La Esperanza", "Manatí", None, ""),
    "FRA-DEMO-14": (ORG, "Cooperativa Agroindustrial del Sur", "Santa Isabel", None, ""),
    "FRA-DEMO-15": (ORG, "Fundación Bosque Seco de Guánica", "Guánica", None, ""),
    "FRA-DEMO-16": (PERSON, ("Ana Lucía", "Torres", "Vélez"), "Vega Baja", None, ""),
}

PARCELS = {
    # cadastre: (municipality, barrio, location, cuerdas)
    "371-900-000-01": ("Manatí", "Tierras Nuevas", "Carr. 2 km 48.1", "6.5"),
    "371-900-000-02": ("Guánica", "Ensenada", "Carr. 333 km 2.4", "14.0"),
    "371-900-000-03": ("Salinas", "Aguirre", "Carr. 3 km 154.7", "22.3"),
    "371-900-000-04": ("Ponce", "Machuelo Abajo", "Calle Luna 18", "0.75"),
    "371-900-000-05": ("Juana Díaz", "Amuelas", "Carr. 149 km 3.2", "38.0"),
    "371-900-000-06": ("Barceloneta", "Florida Afuera", "Carr. 140 km 64.0", "9.1"),
}

# number, holder ref, holder type, parcel, owner ref, source, use, gallons, years since issue, term years,
# exemption, basis, resolution, acquired right
FRANCHISES = [
    ("DRNA-FE-2019-0042", "FRA-DEMO-03", HolderType.COMPANY, "371-900-000-01", "FRA-DEMO-16", "GROUNDWATER",
     "INDUSTRIAL_COMMERCIAL", 36_000_000, 6, 10, "", "", "", False),
    ("DRNA-FE-2020-0007", "FRA-DEMO-04", HolderType.COMPANY, "371-900-000-02", None, "ARTESIAN",
     "RECREATION_BUSINESS", 12_000_000, 5, 10, "", "", "", False),
    ("DRNA-FE-2021-0113", "FRA-DEMO-05", HolderType.COMPANY, "371-900-000-03", None, "BRACKISH",
     "INDUSTRIAL_COMMERCIAL", 250_000_000, 4, 10, "", "", "", False),
    ("DRNA-FE-2017-0150", "FRA-DEMO-01", HolderType.PERSON, "371-900-000-04", None, "SURFACE", "DOMESTIC",
     750_000, None, None, "", "", "", False),  # expires within 90 days, no renewal filed (FRA-7)
    ("DRNA-FE-2018-0021", "FRA-DEMO-06", HolderType.COMPANY, None, None, "GROUNDWATER", "INSTITUTIONAL",
     4_500_000, 7, 10, "", "", "", False),
    ("DRNA-FE-2016-0088", "FRA-DEMO-07", HolderType.OTHER_BODY, None, None, "SURFACE", "GOVERNMENTAL",
     80_000_000, 8, 10, "", "", "", False),
    ("DRNA-FE-2022-0031", "FRA-DEMO-08", HolderType.OTHER_BODY, None, None, "SURFACE", "RECREATIONAL",
     2_250_000, 3, 5, "", "", "", False),
    ("DRNA-FE-2019-0077", "FRA-DEMO-09", HolderType.COMPANY, "371-900-000-06", None, "SURFACE",
     "INDUSTRIAL_COMMERCIAL", 18_500_000, 6, 10, "", "", "", False),
    ("DRNA-FE-2020-0054", "FRA-DEMO-07", HolderType.OTHER_BODY, None, None, "ARTESIAN", "GOVERNMENTAL",
     9_000_000, 5, 10, "", "", "", False),
    ("DRNA-FE-2015-0102", "FRA-DEMO-10", HolderType.PERSON, "371-900-000-05", None, "SURFACE",
     "INDUSTRIAL_COMMERCIAL", 15_000_000, 9, 10, Exemption.AGRICULTURAL,
     "Riego de 38 cuerdas de plátano y hortalizas (sec. 8.13 d).", "", False),
    ("DRNA-FE-2018-0200", "FRA-DEMO-11", HolderType.OTHER_BODY, None, None, "SURFACE", "GOVERNMENTAL",
     900_000_000, 7, 10, Exemption.AAA, "Toma de la planta de filtros de Arecibo (sec. 8.13 d).", "", False),
    ("DRNA-FE-2016-0300", "FRA-DEMO-12", HolderType.OTHER_BODY, None, None, "SURFACE", "INDUSTRIAL_COMMERCIAL",
     1_200_000_000, 8, 10, Exemption.PREPA, "Enfriamiento de la central de Aguirre (sec. 8.13 d).", "", False),
    ("DRNA-FE-2014-0005", "FRA-DEMO-13", HolderType.OTHER_BODY, None, None, "GROUNDWATER", "DOMESTIC",
     1_500_000, 9, 10, Exemption.ACQUIRED_RIGHT,
     "Caudal reconocido bajo la Ley de Aguas anterior; certificación de derecho adquirido de 1979.", "", True),
    ("DRNA-FE-2023-0019", "FRA-DEMO-14", HolderType.OTHER_BODY, None, None, "SURFACE", "INDUSTRIAL_COMMERCIAL",
     6_000_000, 2, 10, Exemption.AGROINDUSTRIAL, "Lavado y procesamiento de productos agrícolas.", "", False),
    ("DRNA-FE-2022-0090", "FRA-DEMO-15", HolderType.OTHER_BODY, None, None, "GROUNDWATER", "INSTITUTIONAL",
     800_000, 3, 10, Exemption.SECTION_2_12, "Investigación y conservación del bosque seco.",
     "Resolución DRNA-R-2022-045", False),
]


class Command(BaseCommand):
    help = "Create demo water-extraction franchises (idempotent)."

    @transaction.atomic
    def handle(self, *args, **options):
        today = timezone.localdate()
        office = self._office()
        parties = {ref: self._party(ref, spec) for ref, spec in PARTIES.items()}
        parcels = {cad: self._parcel(cad, spec) for cad, spec in PARCELS.items()}
        created = 0
        for row in FRANCHISES:
            number = row[0]
            if Franchise.objects.filter(number=number).exists():
                continue
            created += 1
            self._franchise(row, today, office, parties, parcels)
        self._readings(today)
        self._applications(today, parties)
        created += self._renewed(today, office, parties)
        result = services.franchise_flags_record(today=today)
        self.stdout.write(self.style.SUCCESS(
            f"seed_franchises: {created} new franchises, {Franchise.objects.count()} in the registry; "
            f"flags {result}"))

    def _office(self) -> Office:
        office = Office.objects.filter(kind=Office.Kind.DRNA).order_by("pk").first()
        if office:
            return office
        return Office.objects.create(
            name="Departamento de Recursos Naturales y Ambientales — Franquicias de Agua", kind=Office.Kind.DRNA,
            phone="787-999-2200", address_street="Carr. 8838 km 6.3, Sector El Cinco",
            address_municipality=Municipality.objects.filter(name="San Juan").first(), address_zip="00926")

    def _municipality(self, name: str) -> Municipality:
        return Municipality.objects.filter(name=name).first() or Municipality.objects.order_by("name").first()

    def _party(self, ref: str, spec) -> Party:
        found = Party.objects.filter(ref=ref).first()
        if found:
            return found
        kind, names, town, rep_ref, rep_title = spec
        party = Party(kind=kind, ref=ref, address_municipality=self._municipality(town))
        if kind == PERSON:
            party.given_names, party.first_surname, party.second_surname = names
        else:
            party.organization_name = names
        if rep_ref:
            party.representative = Party.objects.get(ref=rep_ref)
            party.representative_title = rep_title
        party.save()
        return party

    def _parcel(self, cadastre: str, spec) -> Parcel:
        town, barrio, location, cuerdas = spec
        parcel, _ = Parcel.objects.get_or_create(cadastre=cadastre, defaults={
            "municipality": self._municipality(town), "barrio": barrio, "location": location,
            "area_value": cuerdas, "area_unit": Parcel.AreaUnit.CUERDAS, "use_class": Parcel.UseClass.COMMERCIAL})
        return parcel

    def _franchise(self, row, today: date, office, parties, parcels) -> Franchise:
        (number, holder, holder_type, parcel, owner, source, use, gallons, years_ago, term, exemption, basis,
         resolution, acquired) = row
        if years_ago is None:  # FRA-7 demo: expires in 60 days, issued 8 years before
            expiry = add_days(today, 60)
            issue = add_months(expiry, -96)
        else:
            issue = add_months(today, -12 * years_ago)
            expiry = add_months(issue, 12 * term)
        f = Franchise(number=number, holder=parties[holder], holder_type=holder_type,
                      property_parcel=parcels.get(parcel), property_owner=parties.get(owner), source=source, use=use,
                      authorized_gallons=gallons, issue_date=issue, expiry_date=expiry,
                      payment_plan=Franchise.PaymentPlan.SEMIANNUAL if gallons > 10_000_000 else
                      Franchise.PaymentPlan.ANNUAL,
                      exemption=exemption, exemption_basis=basis, exemption_resolution=resolution,
                      acquired_right=acquired, office=office,
                      special_conditions="Instalar y mantener contador calibrado; informe anual de uso."
                      if source in ("GROUNDWATER", "ARTESIAN") else "")
        return services.franchise_save(actor=None, instance=f, action="franchise.seed")

    def _readings(self, today: date) -> None:
        this_month = today.replace(day=1)
        metered = Franchise.objects.get(number="DRNA-FE-2019-0042")
        pattern = [2_650_000, 2_810_000, 3_020_000, 2_940_000, 3_180_000, 3_350_000,
                   3_410_000, 3_120_000, 2_980_000, 2_760_000, 2_590_000, 2_700_000]
        for i in range(18, 0, -1):
            month = add_months(this_month, -i)
            if not MeterReading.objects.filter(franchise=metered, month=month).exists():
                services.meter_reading_record(actor=None, franchise=metered, month=month,
                                              gallons=pattern[month.month - 1], origin=MeterReading.Origin.AAA_FILE)
        idle = Franchise.objects.get(number="DRNA-FE-2020-0007")  # FRA-10: 13 months of zeros
        for i in range(18, 0, -1):
            month = add_months(this_month, -i)
            gallons = 640_000 + 10_000 * (i % 5) if i > 13 else 0
            if not MeterReading.objects.filter(franchise=idle, month=month).exists():
                services.meter_reading_record(actor=None, franchise=idle, month=month, gallons=gallons,
                                              origin=MeterReading.Origin.AAA_FILE)

    def _applications(self, today: date, parties) -> None:
        """One pending transfer, so the applications list has something to decide."""
        f = Franchise.objects.get(number="DRNA-FE-2019-0077")
        if f.applications.exists():
            return
        services.application_file(
            actor=None, franchise=f, kind=Application.Kind.TRANSFER, received_on=add_days(today, -10),
            recipient=parties["FRA-DEMO-03"], reasons="Venta de la destilería y sus instalaciones.",
            documents={"FRANCHISE_NUMBER": True, "HOLDER_NAME": True, "RECIPIENT_NAME": True,
                       "REASONS_EVIDENCE": True, "SIGNATURES_BOTH": True}, fee_paid=True)

    # FRA-3/FRA-7 demo: a franchise renewed as a new one (its 10 years were up) a month ago. Billing
    # bills the old one's last fiscal year up to its expiry and the new one from the day after.
    RENEWED = "DRNA-FE-2016-0140"

    def _renewed(self, today: date, office, parties) -> int:
        if Franchise.objects.filter(number=self.RENEWED).exists():
            return 0
        expiry = add_days(today, -30)
        old = services.franchise_save(actor=None, action="franchise.seed", instance=Franchise(
            number=self.RENEWED, holder=parties["FRA-DEMO-02"], holder_type=HolderType.PERSON, source="SURFACE",
            use="DOMESTIC", authorized_gallons=1_000_000, issue_date=add_days(add_months(expiry, -114), 1),
            expiry_date=expiry, payment_plan=Franchise.PaymentPlan.ANNUAL, office=office))
        app = services.application_file(
            actor=None, franchise=old, kind=Application.Kind.RENEWAL, received_on=add_days(expiry, -100),
            requested_expiry_date=add_days(add_months(add_days(expiry, 1), 120), -1),
            reasons="Uso doméstico continuo de la finca.", documents={"RENEWAL_APPLICATION": True}, fee_paid=True)
        new_number = f"DRNA-FE-{add_days(expiry, 1).year}-0141"
        services.application_decide(actor=None, application=app, decided_on=add_days(expiry, -40), grant=True,
                                    outstanding_debt=0, debt_source="seed", new_number=new_number)
        return 2
