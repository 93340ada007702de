"""seed_liens' half-paid charge: its lien secures only the half still owed (LIEN-4; SID-4, the
special improvement districts law: "sólo garantizará el pago de los cargos por beneficios")."""
from __future__ import annotations

from decimal import Decimal as D
from io import StringIO

from django.core.management import call_command

from liens import selectors
from liens.models import Lien
from liens.outstanding import secured_amount


def test_seed_has_one_half_paid_lien(postgres_only, seeded, staff_client):
    lien = Lien.objects.get(origin_type="assessments.receivable", origin_label__contains="demo LIEN-4")
    assert (lien.amount, secured_amount(lien), lien.status) == (D("600.00"), D("300.00"), Lien.Status.ACTIVE)
    call_command("seed_liens", stdout=StringIO())   # idempotent: nothing paid twice
    assert secured_amount(lien) == D("300.00")
    assert selectors.parcel_ranking(lien.parcel).total == D("300.00")
    body = staff_client.get(f"/api/v1/parcels/{lien.parcel_id}/liens/").json()
    assert [(x["amount"], x["outstanding"]) for x in body["liens"]] == [("600.00", "300.00")]
