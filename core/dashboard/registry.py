"""Who contributes dashboard items, and the one read that gathers them.

An app contributes with a `dashboard.py` module (found by `autodiscover`, like admin.py):

    from core.dashboard.registry import register

    @register("rolls")
    def rolls_waiting(ctx):            # ctx: Context(today, until)
        yield Item(...)

Core sits below the apps (docs/architecture.md): the apps import this registry, never the reverse.
Apps also tell core which district a record belongs to (`register_district_lookup`), so the
work-queue clocks core lists can be filtered by district, and which offices a user works at
(`register_user_offices`), so an office's unassigned items go to its own staff.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from threading import Lock

from django.utils.module_loading import autodiscover_modules

from core.dashboard.items import HORIZON_DAYS, Item

Provider = Callable[["Context"], Iterable[Item]]
DistrictLookup = Callable[[list[int]], dict[int, tuple[int, str]]]
UserOffices = Callable[[object], Iterable[int]]
OfficeRoles = Callable[[], dict[int, set[str]]]


@dataclass(frozen=True)
class Context:
    today: date
    until: date          # providers may leave out items due after this day (overdue ones always count)


_providers: dict[str, tuple[int, Provider]] = {}
_district_lookups: dict[type, DistrictLookup] = {}
_user_offices: dict[str, UserOffices] = {}
_office_roles: dict[str, OfficeRoles] = {}
_discovered = False
_lock = Lock()


def register(name: str, *, order: int = 50) -> Callable[[Provider], Provider]:
    """Register a provider. Lower `order` runs first; when two give the same key, the first wins
    (an app's richer item beats core's generic one for the same flag)."""
    def decorate(fn: Provider) -> Provider:
        _providers[name] = (order, fn)
        return fn
    return decorate


def register_district_lookup(model: type) -> Callable[[DistrictLookup], DistrictLookup]:
    """`fn(ids) -> {id: (district_id, district_name)}` for records of `model` (a clock's target)."""
    def decorate(fn: DistrictLookup) -> DistrictLookup:
        _district_lookups[model] = fn
        return fn
    return decorate


def district_lookup_for(model: type | None) -> DistrictLookup | None:
    return _district_lookups.get(model) if model is not None else None


def register_user_offices(fn: UserOffices) -> UserOffices:
    """`fn(user) -> office ids` the user works at (the districts app keeps them)."""
    _user_offices[f"{fn.__module__}.{fn.__qualname__}"] = fn
    return fn


def user_office_ids(user) -> frozenset[int]:
    """The offices `user` works at; empty when none (or nobody registered a lookup). Cached on
    the user object for the request, like the roles."""
    if user is None or not getattr(user, "pk", None):
        return frozenset()
    cached = getattr(user, "_office_ids_cache", None)
    if cached is None:
        autodiscover()
        cached = frozenset(pk for fn in _user_offices.values() for pk in fn(user))
        user._office_ids_cache = cached
    return cached


def register_office_roles(fn: OfficeRoles) -> OfficeRoles:
    """`fn() -> {office id: roles its active staff hold}` (the districts app keeps who works where)."""
    _office_roles[f"{fn.__module__}.{fn.__qualname__}"] = fn
    return fn


def office_staff_roles(user) -> dict[int, frozenset[str]]:
    """The roles held by each office's active staff, read once per `user` object (the request or
    the digest run that asks), like `user_office_ids`."""
    cached = getattr(user, "_office_roles_cache", None)
    if cached is None:
        autodiscover()
        merged: dict[int, set[str]] = {}
        for fn in _office_roles.values():
            for office_id, names in fn().items():
                merged.setdefault(office_id, set()).update(names)
        cached = {office_id: frozenset(names) for office_id, names in merged.items()}
        if user is not None:
            user._office_roles_cache = cached
    return cached


def autodiscover() -> None:
    global _discovered
    if _discovered:
        return
    with _lock:
        if not _discovered:
            import core.dashboard.core_providers  # noqa: F401  (core's own: clocks, unclaimed flags)

            autodiscover_modules("dashboard")
            _discovered = True


def providers() -> list[str]:
    autodiscover()
    return [name for name, _ in sorted(_providers.items(), key=lambda kv: (kv[1][0], kv[0]))]


def collect(*, today: date, until: date | None = None, district: int | None = None, kind: str = "",
            office: int | None = None) -> list[Item]:
    """Every pending item from every provider (overdue, and due up to `until`, default 30 days
    ahead; undated standing matters too), with assignees, optionally filtered."""
    from core.models import Assignment

    autodiscover()
    ctx = Context(today=today, until=until or today + timedelta(days=HORIZON_DAYS))
    seen: dict[str, Item] = {}
    for name in providers():
        for item in _providers[name][1](ctx):
            seen.setdefault(item.key, item)
    items = list(seen.values())
    unassigned = [i.key for i in items if i.assignee_id is None]
    if unassigned:
        names = {a.item_key: a for a in Assignment.objects.filter(item_key__in=unassigned).select_related("user")}
        items = [i.with_assignee(names[i.key].user_id, display_name(names[i.key].user)) if i.key in names else i
                 for i in items]
    if district:
        items = [i for i in items if i.district_id == district]
    if office:
        items = [i for i in items if i.office_id == office]
    if kind:
        items = [i for i in items if i.kind == kind]
    return items


def display_name(user) -> str:
    return (user.get_full_name() or user.username) if user else ""
