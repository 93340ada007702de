"""LIEN-1: the register — idempotent on origin, satisfy, release, reinstate, other encumbrances."""
from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from core.models import AuditEntry
from liens.models import Lien
from liens.services import lien_by_origin, lien_register, lien_register_bulk, lien_reinstate, lien_release, lien_satisfy
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def parcel():
    return factories.parcel()


def register(parcel, user, **kw):
    args = {"parcel": parcel, "kind": "IRRIGATION", "amount": Decimal("310.55"), "constituted_on": date(2025, 7, 1),
            "actor": user, "origin_type": "assessments.receivable", "origin_id": "41",
            "origin_label": "Padrón FY2026"}
    args.update(kw)
    return lien_register(**args)


def test_register_is_idempotent_on_origin(parcel, staff_user):
    a = register(parcel, staff_user)
    b = register(parcel, staff_user, amount=Decimal("1.00"))
    assert a.pk == b.pk and Lien.objects.count() == 1
    assert b.amount == Decimal("310.55") and b.status == "ACTIVE"
    assert lien_by_origin("assessments.receivable", "41") == a
    assert AuditEntry.objects.filter(action="lien.register").count() == 1


def test_other_encumbrances_without_origin(parcel, staff_user):
    m = lien_register(parcel=parcel, kind="MORTGAGE", amount=Decimal("50000.00"), constituted_on=date(2010, 1, 5),
                      actor=staff_user, mortgage_terms={"term_years": 20, "fixed_annual_installments": True,
                                                        "rate_pct": "6", "purpose": "IMPROVEMENTS",
                                                        "principal_per_cuerda": "90"}, presented_seq=3)
    r = lien_register(parcel=parcel, kind="REFACCIONARIO", amount=Decimal("8000.00"), constituted_on=date(2010, 1, 5),
                      actor=staff_user, district_cooperative=True)
    assert Lien.objects.count() == 2 and m.mortgage_terms["term_years"] == 20 and r.district_cooperative


def test_bad_input_is_refused(parcel, staff_user):
    with pytest.raises(ValidationError):
        register(parcel, staff_user, kind="BOGUS")
    with pytest.raises(ValidationError):
        register(parcel, staff_user, amount=Decimal("-1"))
    with pytest.raises(ValidationError):
        register(parcel, staff_user, origin_type="")
    assert not Lien.objects.exists()


def test_status_life_cycle(parcel, staff_user):
    lien = register(parcel, staff_user)
    lien = lien_satisfy(lien=lien, on=date(2025, 9, 1), actor=staff_user)
    assert (lien.status, lien.status_on) == ("SATISFIED", date(2025, 9, 1))
    assert lien_satisfy(lien=lien, on=date(2025, 9, 2), actor=staff_user).status_on == date(2025, 9, 1)
    lien = lien_reinstate(lien=lien, on=date(2025, 9, 10), reason="Cheque devuelto", actor=staff_user)
    assert lien.status == "ACTIVE" and lien.status_reason == "Cheque devuelto"
    with pytest.raises(ValidationError):
        lien_release(lien=lien, on=date(2025, 9, 11), reason=" ", actor=staff_user)
    lien = lien_release(lien=lien, on=date(2025, 9, 11), reason="Anulado por resolución", actor=staff_user)
    assert lien.status == "RELEASED"
    with pytest.raises(ValidationError):
        lien_satisfy(lien=lien, on=date(2025, 9, 12), actor=staff_user)
    assert AuditEntry.objects.filter(action__startswith="lien.").count() == 4


def test_bulk_register_skips_existing_origins(parcel, staff_user):
    register(parcel, staff_user, origin_id="1")
    rows = [{"parcel_id": parcel.pk, "kind": "LAJAS", "amount": Decimal("10.00"), "constituted_on": date(2025, 7, 1),
             "origin_type": "assessments.receivable", "origin_id": str(i)} for i in range(1, 6)]
    assert lien_register_bulk(rows=rows, actor=staff_user) == 4
    assert lien_register_bulk(rows=rows, actor=staff_user) == 0
    assert Lien.objects.count() == 5
