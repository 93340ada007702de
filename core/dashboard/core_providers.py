"""Core's own dashboard items: the work-queue clocks (docs/rules/deadlines.md) and the open flags no app
gave a richer item for."""
from __future__ import annotations

from collections import defaultdict

from django.contrib.contenttypes.models import ContentType
from django.db.models import Q
from django.utils.translation import gettext as _

from core import roles
from core.dashboard.items import Item
from core.dashboard.registry import Context, display_name, district_lookup_for, register
from core.models import Clock, Flag


def clock_key(clock_id: int) -> str:
    return f"clock:{clock_id}"


def flag_key(flag_id: int) -> str:
    return f"flag:{flag_id}"


def _districts_of(rows) -> dict[tuple[int, int], tuple[int, str]]:
    """(content_type_id, object_id) → (district_id, name), through the apps' lookups."""
    by_type: dict[int, list[int]] = defaultdict(list)
    for row in rows:
        by_type[row.content_type_id].append(row.object_id)
    found = {}
    for ct_id, ids in by_type.items():
        lookup = district_lookup_for(ContentType.objects.get_for_id(ct_id).model_class())
        if lookup is None:
            continue
        for object_id, district in lookup(ids).items():
            found[(ct_id, object_id)] = district
    return found


@register("clocks", order=10)
def clocks(ctx: Context):
    """Clocks nothing was done on yet: overdue (MISSED, or OPEN before the nightly task ran) and
    those due up to `ctx.until`. A met clock leaves the dashboard."""
    rows = list(Clock.objects.filter(met_on__isnull=True)
                .filter(Q(status=Clock.Status.MISSED) | Q(status=Clock.Status.OPEN, due_date__lte=ctx.until))
                .select_related("responsible_user").order_by("due_date", "id"))
    districts = _districts_of(rows)
    for clock in rows:
        district_id, district_name = districts.get((clock.content_type_id, clock.object_id), (None, ""))
        yield Item(
            key=clock_key(clock.pk), kind="clock", kind_label=_("Plazo de ley"), rule=clock.rule,
            title=clock.label, detail=clock.record_label, due_date=clock.due_date, url=clock.record_url,
            district_id=district_id, district_name=district_name, office_id=clock.office_id,
            office_name=clock.office_name, assignee_id=clock.responsible_user_id,
            assignee_name=display_name(clock.responsible_user), severity=3 if clock.due_date < ctx.today else 2,
            roles=(roles.STAFF, roles.ADMINISTRATOR), extra={"clock_id": clock.pk, "start_date": clock.start_date})


def flag_item(flag: Flag, *, kind: str = "flag", kind_label: str = "", title: str = "", due_date=None,
              district: tuple[int | None, str] = (None, ""), office: tuple[int | None, str] = (None, ""),
              item_roles: tuple[str, ...] = (roles.STAFF, roles.ADMINISTRATOR), url: str = "") -> Item:
    """A flag as a dashboard item; apps pass what only they know (district, office, due date)."""
    return Item(
        key=flag_key(flag.pk), kind=kind, kind_label=kind_label or flag.get_kind_display(), rule=flag.rule,
        title=title or flag.get_kind_display(), detail=flag.record_label, due_date=due_date, url=url or flag.record_url,
        district_id=district[0], district_name=district[1], office_id=office[0], office_name=office[1],
        assignee_id=flag.assigned_to_id, assignee_name=display_name(flag.assigned_to), severity=int(flag.severity),
        roles=item_roles, extra={"flag_id": flag.pk, "opened_on": flag.opened_on, "description": flag.description})


@register("flags", order=100)
def flags(ctx: Context):
    """Every open flag; an app's provider that already gave the same flag wins (runs first)."""
    for flag in Flag.objects.filter(resolved_on__isnull=True).select_related("assigned_to"):
        yield flag_item(flag)
