"""Notice fixtures: billed irrigation and Lajas rolls whose parcels have owners of record, and
helpers to read a notice's PDF."""
from __future__ import annotations

import io
from datetime import date

import pytest

from tests import factories
from tests.improvement.conftest import resolution, sid_district  # noqa: F401  (fixtures)
from tests.rolls.conftest import (  # noqa: F401  (fixtures)
    irrigation_figures,
    irrigation_register,
    lajas_figures,
    lajas_register,
)

OWNERS = [("María de los Ángeles", "Peña", "Colón"), ("Luis Alberto", "Santiago", "Rivera"),
          ("Carmen Iris", "Torres", "Vélez"), ("Rafael", "Ortiz", "Lugo"), ("Ana Lucía", "Rosario", "Cruz"),
          ("Héctor", "Quiñones", "Pagán"), ("Nilda", "Acevedo", "Soto")]


def give_owners(district, *, co_owned_index: int = 0):
    """One owner per parcel of the district (the first parcel co-owned half and half)."""
    from districts.models import Parcel

    parcels = list(Parcel.objects.filter(memberships__district=district).order_by("cadastre"))
    for i, parcel in enumerate(parcels):
        given, first, second = OWNERS[i % len(OWNERS)]
        owner = factories.person(given=given, first=first, second=second)
        if i == co_owned_index:
            factories.own(parcel, owner, share="50")
            factories.own(parcel, factories.person(given="Pedro Juan", first="Peña", second="Colón"), share="50")
        else:
            factories.own(parcel, owner)
    return parcels


def bill(district_code: str, actor, *, on=date(2026, 7, 1)):
    from assessments.rolls import services

    roll = services.roll_generate(district_code=district_code, fiscal_year=2027, actor=actor).roll
    services.roll_certify(roll=roll, actor=actor)
    services.roll_finalize(roll=roll, actor=actor, on=on)
    return roll


@pytest.fixture
def irr_roll(irrigation_figures, staff_user):  # noqa: F811
    give_owners(irrigation_figures.district)
    return bill("riego-sur", staff_user)


@pytest.fixture
def laj_roll(lajas_figures, staff_user):  # noqa: F811
    give_owners(lajas_figures.district, co_owned_index=99)
    return bill("valle-lajas", staff_user)


def pdf_text(document) -> str:
    from pypdf import PdfReader

    with document.file.open("rb") as fh:
        reader = PdfReader(io.BytesIO(fh.read()))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())   # spaces normalized
