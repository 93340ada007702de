"""Fixtures for the lien pages and services: the three demo sets and a legal reviewer."""
from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"
SETS = ("lien1", "lien2", "lien4")


def example(name: str, part: str = "input") -> dict:
    return json.loads((EXAMPLES / f"lien-ranking.{name}.{part}.json").read_text())


@pytest.fixture
def seeded(db):
    """seed_liens' three parcels: {"lien1": parcel, "lien2": parcel, "lien4": parcel}."""
    from liens.management.commands.seed_liens import parcel_of_set

    call_command("seed_liens", stdout=StringIO())
    return {name: parcel_of_set(name) for name in SETS}


def ids_of(parcel) -> dict[str, str]:
    """Example id ("MORT-1") -> the seeded lien's engine id (its primary key as a string)."""
    from liens.models import Lien

    return {lien.origin_id.split("/", 1)[1]: str(lien.pk)
            for lien in Lien.objects.filter(parcel=parcel, origin_type="liens.demo")}


@pytest.fixture
def legal_user(make_user):
    return make_user("lidia.legal", "legal_reviewer", first_name="Lidia", last_name="Quiñones")


@pytest.fixture
def legal_client(client, legal_user):
    client.force_login(legal_user)
    return client
