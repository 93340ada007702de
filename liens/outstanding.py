"""LIEN-4: what each lien secures on a date, derived from the books of the charge it secures.

`liens` sits below `assessments` and never imports it: the app that keeps a charge's books
registers, for its `origin_type`, a function giving the principal still open of many charges on a
date (`register_source`; the ledger does it in `AssessmentsConfig.ready`). Nothing is stored: the
figure is recomputed from the ledger for the date asked, so a payment, an adjustment, a write-off
or a returned check posted with an earlier effective date moves it on every page at once.
The arithmetic is the pure `liens.rules.secured_amount`.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import date
from decimal import Decimal

from django.utils import timezone

from liens import rules

# origin_type -> f(origin ids, on) -> {origin id: principal open on `on`}
Source = Callable[[list[str], date], dict[str, Decimal]]
_SOURCES: dict[str, Source] = {}


def register_source(origin_type: str, source: Source) -> None:
    _SOURCES[origin_type] = source


def secured_amounts(liens: Iterable, on: date | None = None) -> dict[int, Decimal]:
    """{lien pk: what it secures on `on` (today when None)} for liens of any parcels, one query per origin type."""
    on = on or timezone.localdate()
    liens = list(liens)
    wanted: dict[str, list[str]] = defaultdict(list)
    for lien in liens:
        if lien.origin_id and lien.origin_type in _SOURCES:
            wanted[lien.origin_type].append(lien.origin_id)
    open_by_origin: dict[tuple[str, str], Decimal] = {}
    for origin_type, ids in wanted.items():
        for origin_id, value in _SOURCES[origin_type](ids, on).items():
            open_by_origin[(origin_type, str(origin_id))] = value
    out = {}
    for lien in liens:
        if lien.origin_id and lien.origin_type in _SOURCES:
            open_principal = open_by_origin.get((lien.origin_type, lien.origin_id), Decimal("0.00"))
        else:
            open_principal = None
        out[lien.pk] = rules.secured_amount(lien.amount, open_principal)
    return out


def has_source(lien) -> bool:
    """Whether what the lien secures comes from the books of a charge (else: the amount constituted)."""
    return bool(lien.origin_id) and lien.origin_type in _SOURCES


def secured_amount(lien, on: date | None = None) -> Decimal:
    return secured_amounts([lien], on)[lien.pk]
