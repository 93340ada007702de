"""Reads of the land register with search and the related rows pages need."""
from __future__ import annotations

from datetime import date

from django.db.models import Prefetch, Q, QuerySet

from core.text import fold
from districts.models import District, Membership, Office, Ownership, Parcel, Party
from districts.reference import normalize_cadastre


def _terms(query: str) -> list[str]:
    return fold(query).split()


def _parcel_terms(query: str) -> list[set[str]]:
    # Each word as typed, and a run of digits also as a cadastre with its dashes ("37100111134" finds
    # 371-001-111-34); the word as typed still finds a phone or a ZIP code.
    return [{fold(word), fold(normalize_cadastre(word))} for word in (query or "").split()]


def party_search(query: str = "") -> QuerySet[Party]:
    """Accent- and case-insensitive: every word must appear in the name, email, phone or address."""
    qs = Party.objects.select_related("address_municipality")
    for term in _terms(query):
        qs = qs.filter(search_text__contains=term)
    return qs


def current_ownerships(on: date | None = None):
    on = on or date.today()
    return Ownership.objects.filter(Q(end_date__isnull=True) | Q(end_date__gt=on), start_date__lte=on)


def parcel_search(query: str = "", *, district: District | None = None) -> QuerySet[Parcel]:
    """Search parcels by cadastre, location or any current owner's name (both surnames), accent-blind."""
    qs = Parcel.objects.select_related("municipality")
    for variants in _parcel_terms(query):
        hit = Q()
        for term in variants:
            owner_hit = current_ownerships().filter(party__search_text__contains=term).values("parcel_id")
            hit |= Q(search_text__contains=term) | Q(pk__in=owner_hit)
        qs = qs.filter(hit)
    if district is not None:
        qs = qs.filter(memberships__district=district)
    return qs.prefetch_related(
        Prefetch("ownerships", queryset=current_ownerships().select_related("party"), to_attr="current_owners"))


def parcel_detail(pk: int) -> Parcel:
    return (Parcel.objects.select_related("municipality")
            .prefetch_related(
                Prefetch("ownerships", queryset=Ownership.objects.select_related("party").order_by("-start_date")),
                Prefetch("memberships", queryset=Membership.objects.select_related("district")),
                "water_deliveries")
            .get(pk=pk))


def district_list() -> QuerySet[District]:
    from django.db.models import Count

    return District.objects.select_related("office").annotate(parcel_count=Count("memberships"))


def office_list() -> QuerySet[Office]:
    return Office.objects.select_related("address_municipality")
