"""LIEN-2 rulings: only a legal reviewer records them; they change the ladder, are audited with
who decided, and clear the parcel's conflict flag when nothing else blocks the ranking."""
from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from core.models import AuditEntry, Flag
from liens import selectors, services
from liens.models import Lien, LienRuling
from tests.liens.conftest import example, ids_of

pytestmark = pytest.mark.django_db


def open_conflicts(parcel):
    return Flag.objects.filter(kind=Flag.Kind.LIEN_CONFLICT, object_id=parcel.pk, resolved_on__isnull=True)


def test_ruling_by_legal_reviewer_changes_the_ladder_and_clears_the_flag(seeded, legal_client, legal_user):
    parcel = seeded["lien2"]
    ids = ids_of(parcel)
    assert selectors.parcel_ranking(parcel).blocked and open_conflicts(parcel).count() == 1
    response = legal_client.post(reverse("liens:ruling_create", args=[parcel.pk]), {
        "higher": ids["IRR-FY27"], "lower": ids["SID-7"], "reference": "TSPR 2026-114",
        "note": "El gravamen de riego sirve los bonos de las obras."})
    assert response.status_code == 302 and response.url == reverse("liens:ladder", args=[parcel.pk])

    # The ladder is now the worked example lien3's.
    back = {v: k for k, v in ids.items()}
    pr = selectors.parcel_ranking(parcel)
    assert [[back[r.id] for r in rung.rows] for rung in pr.rungs] == example("lien3", "expected")["ranks"]
    ruled = next(d for d in pr.decisions if d.rule == "RULING")
    assert (back[ruled.higher.id], back[ruled.lower.id], ruled.ruling.reference) == ("IRR-FY27", "SID-7",
                                                                                      "TSPR 2026-114")
    # The flag raised once is resolved by the ruling, and stays resolved when re-ranked.
    flag = Flag.objects.get(kind=Flag.Kind.LIEN_CONFLICT, object_id=parcel.pk)
    assert flag.resolved_on is not None and "TSPR 2026-114" in flag.resolution
    services.lien_rank(parcel=parcel, actor=legal_user)
    assert Flag.objects.filter(kind=Flag.Kind.LIEN_CONFLICT, object_id=parcel.pk).count() == 1
    # The audit names who decided.
    entry = AuditEntry.objects.get(action="lien.ruling")
    assert entry.actor == legal_user and "Lidia Quiñones" in entry.summary
    assert entry.data["decided_by"] == "lidia.legal" and entry.data["reference"] == "TSPR 2026-114"
    ruling = LienRuling.objects.get()
    assert (ruling.decided_by, ruling.parcel) == (legal_user, parcel)
    # The ladder page shows it.
    page = legal_client.get(reverse("liens:ladder", args=[parcel.pk])).content.decode()
    assert "TSPR 2026-114" in page and "RULING" in page and "Ordenado" in page


def test_ruling_breaks_a_cycle(seeded, legal_user):
    parcel = seeded["lien4"]
    ids = ids_of(parcel)
    lien = {k: Lien.objects.get(pk=v) for k, v in ids.items()}
    services.lien_ruling_record(parcel=parcel, higher=lien["IRR-FY27"], lower=lien["REF-1"], reference="OL-2026-9",
                                actor=legal_user)
    back = {v: k for k, v in ids.items()}
    pr = selectors.parcel_ranking(parcel)
    assert [[back[r.id] for r in rung.rows] for rung in pr.rungs] == [
        ["TAX-2026"], ["IRR-FY27"], ["MORT-1"], ["TID-3"], ["MORT-2"], ["REF-1"]]
    assert not open_conflicts(parcel).exists()


def test_non_legal_staff_are_refused_everywhere(seeded, staff_user, staff_client):
    parcel = seeded["lien2"]
    ids = ids_of(parcel)
    higher, lower = Lien.objects.get(pk=ids["IRR-FY27"]), Lien.objects.get(pk=ids["SID-7"])
    with pytest.raises(PermissionDenied):
        services.lien_ruling_record(parcel=parcel, higher=higher, lower=lower, reference="X-1", actor=staff_user)
    url = reverse("liens:ruling_create", args=[parcel.pk])
    assert staff_client.get(url).status_code == 403
    assert staff_client.post(url, {"higher": higher.pk, "lower": lower.pk, "reference": "X-1"}).status_code == 403
    api = reverse("api:parcel-lien-rulings", args=[parcel.pk])
    assert staff_client.post(api, {"higher": higher.pk, "lower": lower.pk, "reference": "X-1"},
                             content_type="application/json").status_code == 403
    assert not LienRuling.objects.exists()
    assert not AuditEntry.objects.filter(action="lien.ruling").exists()
    assert open_conflicts(parcel).count() == 1
    # The ladder does not offer the form to them.
    page = staff_client.get(reverse("liens:ladder", args=[parcel.pk])).content.decode()
    assert "Registrar resolución</a>" not in page


def test_one_ruling_per_unordered_pair_and_liens_of_the_parcel(seeded, legal_user):
    parcel = seeded["lien2"]
    ids = ids_of(parcel)
    irr, sid = Lien.objects.get(pk=ids["IRR-FY27"]), Lien.objects.get(pk=ids["SID-7"])
    services.lien_ruling_record(parcel=parcel, higher=irr, lower=sid, reference="A-1", actor=legal_user)
    with pytest.raises(ValidationError) as exc:
        services.lien_ruling_record(parcel=parcel, higher=sid, lower=irr, reference="A-2", actor=legal_user)
    assert "A-1" in str(exc.value)
    other = Lien.objects.get(pk=ids_of(seeded["lien1"])["MORT-1"])
    with pytest.raises(ValidationError) as exc:
        services.lien_ruling_record(parcel=parcel, higher=irr, lower=other, reference="A-3", actor=legal_user)
    assert "lower" in exc.value.message_dict
    with pytest.raises(ValidationError):
        services.lien_ruling_record(parcel=parcel, higher=irr, lower=irr, reference="A-4", actor=legal_user)
    with pytest.raises(ValidationError):
        services.lien_ruling_record(parcel=parcel, higher=irr, lower=Lien.objects.get(pk=ids["TID-3"]),
                                    reference=" ", actor=legal_user)
    assert LienRuling.objects.count() == 1


def test_revoking_a_ruling_reopens_the_conflict(seeded, legal_user, legal_client):
    parcel = seeded["lien2"]
    ids = ids_of(parcel)
    ruling = services.lien_ruling_record(parcel=parcel, higher=Lien.objects.get(pk=ids["IRR-FY27"]),
                                         lower=Lien.objects.get(pk=ids["SID-7"]), reference="B-1",
                                         actor=legal_user)
    assert not open_conflicts(parcel).exists()
    response = legal_client.post(reverse("liens:ruling_revoke", args=[ruling.pk]), {"reason": "Sentencia revocada"})
    assert response.status_code == 302
    assert not LienRuling.objects.exists() and open_conflicts(parcel).count() == 1
    entry = AuditEntry.objects.get(action="lien.ruling_revoke")
    assert entry.actor == legal_user and entry.data["reference"] == "B-1"


def test_a_ruling_that_makes_a_cycle_keeps_the_parcel_flagged_naming_it(seeded, legal_user):
    # SID over IRR: but IRR > MORT-1 (IRR-10) and MORT-1 > SID (SID-4 c, older than the law): a cycle.
    parcel = seeded["lien2"]
    ids = ids_of(parcel)
    first = open_conflicts(parcel).get()
    services.lien_ruling_record(parcel=parcel, higher=Lien.objects.get(pk=ids["SID-7"]),
                                lower=Lien.objects.get(pk=ids["IRR-FY27"]), reference="B-2", actor=legal_user)
    first.refresh_from_db()
    assert first.resolved_on is not None
    now = open_conflicts(parcel).get()
    assert "Ciclo" in now.description and all(f"#{ids[i]} " in now.description for i in ("SID-7", "IRR-FY27",
                                                                                             "MORT-1"))
    assert selectors.parcel_ranking(parcel).blocked


def test_api_ruling_400_with_details_and_201(seeded, legal_client):
    parcel = seeded["lien2"]
    ids = ids_of(parcel)
    url = reverse("api:parcel-lien-rulings", args=[parcel.pk])
    bad = legal_client.post(url, {"higher": ids["IRR-FY27"], "lower": ids["IRR-FY27"], "reference": "C-1"},
                            content_type="application/json")
    assert bad.status_code == 400 and "lower" in bad.json()
    missing = legal_client.post(url, {"higher": ids["IRR-FY27"]}, content_type="application/json")
    assert missing.status_code == 400 and {"lower", "reference"} <= set(missing.json())
    foreign = legal_client.post(url, {"higher": ids["IRR-FY27"], "lower": ids_of(seeded["lien1"])["TAX-2026"],
                                      "reference": "C-2"}, content_type="application/json")
    assert foreign.status_code == 400 and "lower" in foreign.json()
    ok = legal_client.post(url, {"higher": ids["IRR-FY27"], "lower": ids["SID-7"], "reference": "C-3"},
                           content_type="application/json")
    assert ok.status_code == 201
    body = ok.json()
    assert body["ruling"]["reference"] == "C-3" and body["ruling"]["decided_by"] == "lidia.legal"
    assert body["ranking"]["conflicts"] == [] and len(body["ranking"]["ranks"]) == 6


def test_the_database_refuses_a_second_ruling_on_the_same_pair(seeded, legal_user):
    from django.db import IntegrityError, transaction
    from django.utils import timezone

    parcel = seeded["lien2"]
    ids = ids_of(parcel)
    irr, sid = Lien.objects.get(pk=ids["IRR-FY27"]), Lien.objects.get(pk=ids["SID-7"])
    LienRuling.objects.create(parcel=parcel, higher=irr, lower=sid, reference="D-1", decided_by=legal_user,
                              decided_at=timezone.now())
    with pytest.raises(IntegrityError), transaction.atomic():
        LienRuling.objects.create(parcel=parcel, higher=sid, lower=irr, reference="D-2", decided_by=legal_user,
                                  decided_at=timezone.now())
    with pytest.raises(IntegrityError), transaction.atomic():
        LienRuling.objects.create(parcel=parcel, higher=irr, lower=irr, reference="D-3", decided_by=legal_user,
                                  decided_at=timezone.now())
    assert LienRuling.objects.count() == 1
