"""Demo lien sets on three parcels: a clean ladder, a conflict and a cycle (LIEN-2); and, through
the ledger (`seed_liens_ledger`), a half-paid charge whose lien secures only what is owed (LIEN-4).

They reproduce the inputs of the worked examples `lien-ranking.lien1`, `lien2` and `lien4`
(LIEN-2, docs/rules/liens.md): the same kinds, dates, amounts and mortgage terms. Parcels are the first three
members of a bonded irrigation district without any lien (so the IRR-12 page applies), or new
demo parcels when there are not enough. Idempotent: each demo lien has a natural key
(origin `liens.demo`, `<set>/<example id>`), and the parcel of a set is found through it.
"""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.core.management import call_command, get_commands
from django.core.management.base import BaseCommand
from django.db import transaction

from districts.models import District, Municipality, Parcel
from liens import services
from liens.models import Lien

ORIGIN = "liens.demo"

MORT_1 = ("MORT-1", "MORTGAGE", "1998-04-15", "60000.00",
          {"term_years": 20, "fixed_annual_installments": True, "rate_pct": "7.25", "purpose": "OTHER",
           "principal_per_cuerda": "5000.00"}, {})
TAX = ("TAX-2026", "PROPERTY_TAX", "2026-01-01", "2400.00", None, {})
IRR = ("IRR-FY27", "IRRIGATION", "2026-07-01", "600.00", None, {})
SID = ("SID-7", "SID", "2012-03-01", "15000.00", None, {})
TID = ("TID-3", "TID", "2015-09-01", "9000.00", None, {})
MORT_2 = ("MORT-2", "MORTGAGE", "2016-02-10", "40000.00",
          {"term_years": 30, "fixed_annual_installments": False, "rate_pct": "4.5", "purpose": "OTHER",
           "principal_per_cuerda": "9000.00"}, {})
REF = ("REF-1", "REFACCIONARIO", "2025-02-01", "7500.00", None, {"district_cooperative": True})

# set name -> (description, liens in the example's input order)
SETS = {
    "lien1": ("clean ladder", [MORT_1, TAX, IRR, TID, MORT_2]),
    "lien2": ("conflict: IRR lien after the SID law vs a SID lien", [MORT_1, TAX, IRR, SID, TID, MORT_2]),
    "lien4": ("cycle: district cooperative's crop credit > IRR > later TID > the credit",
              [MORT_1, TAX, IRR, REF, TID, MORT_2]),
}
DEMO_CADASTRES = {"lien1": "371-990-000-01", "lien2": "371-990-000-02", "lien4": "371-990-000-03",
                  "half": "371-990-000-04"}  # "half": the half-paid charge of `seed_liens_ledger`

LABELS = {"MORT-1": "Banco de Fomento Agrícola (demo)", "TAX-2026": "CRIM, contribución 2026 (demo)",
          "IRR-FY27": "Padrón de riego FY2027 (demo)", "SID-7": "Resolución SID núm. 7 (demo)",
          "TID-3": "Ordenanza TID núm. 3 (demo)", "MORT-2": "Cooperativa de Ahorro (demo)",
          "REF-1": "Cooperativa Agrícola del Distrito (demo)"}


def parcel_of_set(name: str) -> Parcel | None:
    lien = Lien.objects.filter(origin_type=ORIGIN, origin_id__startswith=f"{name}/").select_related("parcel").first()
    return lien.parcel if lien else None


def pick_parcel(name: str, taken: set[int]) -> tuple[Parcel, bool]:
    """An irrigation-district parcel with no liens, or a new demo parcel. Returns (parcel, created)."""
    candidates = (Parcel.objects.filter(memberships__district__kind=District.Kind.IRRIGATION, liens__isnull=True)
                  .exclude(pk__in=taken).order_by("cadastre"))
    found = candidates.first()
    if found is not None:
        return found, False
    return Parcel.objects.get_or_create(
        cadastre=DEMO_CADASTRES[name],
        defaults={"municipality": Municipality.objects.get(name="Juana Díaz"), "area_value": Decimal("12.5"),
                  "area_unit": Parcel.AreaUnit.CUERDAS, "assessed_value": Decimal("185000.00"),
                  "location": "Carr. 149 km 4.1", "barrio": "Amuelas"})


class Command(BaseCommand):
    help = "Demo liens: a clean set, a conflicting set and a circular set on three parcels (idempotent)."

    @transaction.atomic
    def handle(self, *args, **options):
        taken: set[int] = set()
        for name in SETS:
            parcel = parcel_of_set(name)
            if parcel is not None:
                taken.add(parcel.pk)
        for name, (description, liens) in SETS.items():
            parcel = parcel_of_set(name)
            created_parcel = False
            if parcel is None:
                parcel, created_parcel = pick_parcel(name, taken)
            taken.add(parcel.pk)
            new = 0
            for lien_id, kind, on, amount, terms, extra in liens:
                key = f"{name}/{lien_id}"
                existed = services.lien_by_origin(ORIGIN, key) is not None
                services.lien_register(parcel=parcel, kind=kind, amount=Decimal(amount),
                                       constituted_on=date.fromisoformat(on), actor=None, origin_type=ORIGIN,
                                       origin_id=key, origin_label=f"{lien_id} · {LABELS[lien_id]}",
                                       mortgage_terms=terms, **extra)
                new += not existed
            ranking = services.lien_rank(parcel=parcel, actor=None)
            state = "in conflict (flagged for legal review)" if ranking.blocked else f"{len(ranking.rungs)} ranks"
            self.stdout.write(f"{name} ({description}): parcel {parcel.cadastre}"
                              f"{' (created)' if created_parcel else ''}, {new} new lien(s), {state}")
        # LIEN-4's demo (a half-paid charge) needs the ledger, which sits above liens: its own command.
        if "seed_liens_ledger" in get_commands():
            call_command("seed_liens_ledger", stdout=self.stdout)
        self.stdout.write(self.style.SUCCESS("Demo liens ready."))
