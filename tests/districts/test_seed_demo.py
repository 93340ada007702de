"""`manage.py seed_demo`: the demo register and accounts, idempotent, never under production settings."""
from __future__ import annotations

import re
from decimal import Decimal
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db.models import Count, Sum
from django.test import override_settings

from core.models import AuditEntry
from core.text import fold
from districts.demo import ACCOUNTS, OFFICES, pool_sizes
from districts.models import District, Membership, Office, Ownership, Parcel, Party, WaterDelivery
from districts.rules import add_years
from districts.selectors import current_ownerships

MODELS = (Office, District, Party, Parcel, Ownership, Membership, WaterDelivery)


def run(*args: str) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def counts() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in (*MODELS, User, AuditEntry)}


@pytest.fixture
def no_env_password(monkeypatch):
    monkeypatch.delenv("DEMO_PASSWORD", raising=False)


@pytest.mark.django_db
def test_seeds_the_four_districts_and_the_register(no_env_password):
    output = run("--parcels", "60")

    assert Parcel.objects.count() == 60
    assert Office.objects.count() == len(OFFICES)
    assert dict(District.objects.values_list("code", "kind")) == {
        "riego-costa-sur": "IRRIGATION", "valle-lajas": "LAJAS", "dem-ponce-centro": "SID", "dmt-rincon": "TID"}
    assert sorted(District.objects.get(code="valle-lajas").municipalities.values_list("name", flat=True)) == [
        "Cabo Rojo", "Guánica", "Lajas", "San Germán"]
    persons, organizations = pool_sizes(60)
    assert Party.objects.count() == persons + organizations + 4  # + the owner, her co-owner, two public bodies
    assert Party.objects.filter(kind=Party.Kind.ORGANIZATION, representative__isnull=True).count() == 0
    # 60 parcels: 24 irrigation, 21 Lajas, 9 SID, 3 TID, 3 outside any district
    by_district = dict(Membership.objects.values_list("district__code").annotate(n=Count("id")))
    assert by_district == {"riego-costa-sur": 24, "valle-lajas": 21, "dem-ponce-centro": 9, "dmt-rincon": 3}
    assert "Datos de demostración creados" in output and "60 parcelas" in output


@pytest.mark.django_db
def test_seeded_records_are_valid_and_searchable(no_env_password):
    run("--parcels", "60")

    for model in MODELS:
        for obj in model.objects.all():
            obj.full_clean()
    for party in Party.objects.all():
        assert party.search_text == fold(" ".join([party.display_name, party.email, party.phone,
                                                  party.address_text()]))
    for parcel in Parcel.objects.all():
        assert parcel.search_text == fold(" ".join([parcel.cadastre, parcel.municipality.name, parcel.barrio,
                                                   parcel.location]))
    shares = current_ownerships().values("parcel").annotate(total=Sum("share_pct"))
    assert {row["total"] for row in shares} == {Decimal("100")}
    assert Parcel.objects.annotate(n=Count("ownerships")).filter(n=0).count() == 0


@pytest.mark.django_db
def test_irrigation_facts_and_water_records(no_env_password):
    run("--parcels", "200")

    irrigation = Membership.objects.filter(district__code="riego-costa-sur")
    for m in irrigation.exclude(free_period_end=None):
        assert m.free_period_end >= add_years(m.included_on, 1)
    assert irrigation.filter(free_period_end=None).exists() or irrigation.filter(first_water_on__isnull=False).exists()
    lajas = Membership.objects.filter(district__code="valle-lajas")
    assert lajas.filter(pumped_acres__gt=0).exists() and lajas.filter(credit_pct__gt=0).exists()
    assert lajas.exclude(twelve_months_on=None).exists()
    periods = set(WaterDelivery.objects.values_list("fiscal_year", "semester"))
    assert periods == {(2025, 1), (2025, 2), (2026, 1), (2026, 2)}
    assert WaterDelivery.objects.filter(af_per_acre__lt=2).exists()
    assert WaterDelivery.objects.filter(af_per_acre__gte=2).count() > WaterDelivery.objects.filter(
        af_per_acre__lt=2).count()
    assert Ownership.objects.filter(end_date__isnull=False).exists()  # some past sales


@pytest.mark.django_db
def test_second_run_changes_nothing_and_a_larger_run_only_adds(no_env_password):
    run("--parcels", "40")
    before = counts()
    stamps = dict(Parcel.objects.values_list("cadastre", "updated_at"))

    output = run("--parcels", "40")

    assert counts() == before
    assert dict(Parcel.objects.values_list("cadastre", "updated_at")) == stamps
    assert "no se cambió nada" in output and "Contraseña" not in output

    run("--parcels", "60")
    assert Parcel.objects.count() == 60
    assert {c: u for c, u in Parcel.objects.values_list("cadastre", "updated_at") if c in stamps} == stamps
    assert User.objects.count() == before["User"]


@pytest.mark.django_db
def test_demo_accounts_and_the_owner_linked_to_her_parcels(no_env_password, client):
    output = run("--parcels", "60")

    for username, role, *_names in ACCOUNTS:
        assert User.objects.get(username=username).groups.filter(name=role).exists()
    assert User.objects.get(username="admin").is_superuser
    password = re.search(r"\(admin, staff, cashier, approver, legal, auditor, owner\): (\S+)", output)[1]
    assert output.count(password) == 1
    assert client.post("/cuentas/login/", {"username": "cashier", "password": password}).status_code == 302

    owner = User.objects.get(username="owner")
    party = Party.objects.get(user=owner)
    assert party.display_name == "María de los Ángeles Peña Colón"
    mine = current_ownerships().filter(party=party).select_related("parcel")
    assert 2 <= mine.count() <= 3
    districts = {o.parcel.memberships.get().district.code: o for o in mine}
    irrigation = districts["riego-costa-sur"]
    assert irrigation.share_pct == Decimal("50")
    co_owners = current_ownerships().filter(parcel=irrigation.parcel).exclude(party=party)
    assert [o.party.display_name for o in co_owners] == ["José Ramón Rodríguez Núñez"]
    assert "valle-lajas" in districts


@pytest.mark.django_db
def test_password_from_demo_password(monkeypatch, client):
    monkeypatch.setenv("DEMO_PASSWORD", "Clave-Demo-2026")
    output = run("--parcels", "20")

    assert "DEMO_PASSWORD" in output and "Clave-Demo-2026" not in output
    assert client.post("/cuentas/login/", {"username": "owner", "password": "Clave-Demo-2026"}).status_code == 302
    assert client.post("/cuentas/login/", {"username": "admin", "password": "Clave-Demo-2026"}).status_code == 302


@pytest.mark.django_db
def test_existing_accounts_keep_their_password(monkeypatch, make_user):
    make_user("staff", "staff", password="Mi-Propia-Clave-1")
    monkeypatch.setenv("DEMO_PASSWORD", "Clave-Demo-2026")

    output = run("--parcels", "20")

    assert User.objects.get(username="staff").check_password("Mi-Propia-Clave-1")
    assert User.objects.get(username="approver").check_password("Clave-Demo-2026")
    assert "conservan su contraseña: staff." in output


@pytest.mark.django_db
@pytest.mark.parametrize("overrides", [
    {"DEMO_ACCOUNTS_ENABLED": False},
    {"DEMO_ACCOUNTS_ENABLED": True, "SETTINGS_MODULE": "config.settings.production"},
])
def test_refuses_under_production_settings(overrides, no_env_password):
    with override_settings(**overrides), pytest.raises(CommandError, match="producción"):
        run("--parcels", "20")
    assert Parcel.objects.count() == 0 and not User.objects.filter(username="admin").exists()


@pytest.mark.django_db
def test_too_few_parcels_is_refused(no_env_password):
    with pytest.raises(CommandError, match="al menos 20"):
        run("--parcels", "5")
