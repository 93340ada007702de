"""Liens' dashboard items: LIEN-2 conflicts waiting for a legal ruling (the legal-review queue),
with the parcel's district and its office."""
from django.urls import reverse
from django.utils.translation import gettext as _

from core import roles
from core.dashboard.core_providers import flag_item
from core.dashboard.registry import Context, register
from core.dashboard.waiting import Waiting, register_waiting
from districts.models import Membership
from liens.selectors import conflict_flags


@register("liens")
def lien_conflicts(ctx: Context):
    flags = list(conflict_flags(state="open"))
    districts = {}
    for m in (Membership.objects.filter(parcel_id__in=[f.object_id for f in flags])
              .select_related("district__office").order_by("parcel_id", "id")):
        districts.setdefault(m.parcel_id, m.district)
    for flag in flags:
        district = districts.get(flag.object_id)
        yield flag_item(flag, kind="lien", kind_label=_("Conflicto de gravámenes"),
                         title=_("Resolver conflicto de gravámenes (LIEN-2)"),
                         district=(district.pk, district.name) if district else (None, ""),
                         office=(district.office_id, district.office.name) if district else (None, ""),
                         item_roles=(roles.LEGAL_REVIEWER,), url=reverse("liens:ladder", args=[flag.object_id]))


@register_waiting
def liens_waiting_on_role(user):
    yield Waiting(key="lien_conflict", action=roles.RULE, label=_("Conflictos de gravámenes por resolver"),
                  count=conflict_flags(state="open").count(), url=reverse("liens:queue"), rule="LIEN-2", order=15)
