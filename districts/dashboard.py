"""Which district a record belongs to, so the dashboard can filter by district the work-queue
clocks opened on it (SID-2, SID-3, TID-1-*, TID-4 on improvement records; any clock on a district
or a parcel); which offices a staff member works at (StaffOffice); and the TID-1 publications made
after the week the statute gives, waiting for a legal reviewer."""
from django.contrib.contenttypes.models import ContentType
from django.utils.translation import gettext as _

from core import roles
from core.dashboard.core_providers import flag_item
from core.dashboard.registry import (
    Context,
    register,
    register_district_lookup,
    register_office_roles,
    register_user_offices,
)
from core.models import Flag
from districts.improvement.models import SidCollectionBatch, SidNoticeRound, TidNoticeRound, TidOrdinance, TidPetition
from districts.models import District, Membership, Parcel, StaffOffice


@register_user_offices
def staff_office_ids(user) -> set[int]:
    return set(StaffOffice.objects.filter(user_id=user.pk).values_list("office_id", flat=True))


@register_office_roles
def staffed_office_roles() -> dict[int, set[str]]:
    """Each office's active staff's roles (group names; the administrator stands in for all)."""
    out: dict[int, set[str]] = {}
    rows = StaffOffice.objects.filter(user__is_active=True).values_list("office_id", "user__groups__name",
                                                                         "user__is_superuser")
    for office_id, group, superuser in rows:
        names = out.setdefault(office_id, set())
        if group:
            names.add(group)
        if superuser:
            names.add(roles.ADMINISTRATOR)
    return out


def _lookup(model, path: str):
    def lookup(ids: list[int]) -> dict[int, tuple[int, str]]:
        rows = model.objects.filter(pk__in=ids).values_list("pk", f"{path}__id", f"{path}__name")
        return {pk: (district_id, name) for pk, district_id, name in rows}
    return lookup


register_district_lookup(SidNoticeRound)(_lookup(SidNoticeRound, "resolution__district"))
register_district_lookup(SidCollectionBatch)(_lookup(SidCollectionBatch, "resolution__district"))
register_district_lookup(TidPetition)(_lookup(TidPetition, "district"))
register_district_lookup(TidOrdinance)(_lookup(TidOrdinance, "petition__district"))
register_district_lookup(TidNoticeRound)(_lookup(TidNoticeRound, "ordinance__petition__district"))


@register_district_lookup(District)
def _districts(ids: list[int]) -> dict[int, tuple[int, str]]:
    return {pk: (pk, name) for pk, name in District.objects.filter(pk__in=ids).values_list("pk", "name")}


@register_district_lookup(Parcel)
def _parcels(ids: list[int]) -> dict[int, tuple[int, str]]:
    """A parcel in several districts is shown under the first it joined."""
    found: dict[int, tuple[int, str]] = {}
    for parcel_id, district_id, name in (Membership.objects.filter(parcel_id__in=ids)
                                         .order_by("parcel_id", "included_on", "id")
                                         .values_list("parcel_id", "district_id", "district__name")):
        found.setdefault(parcel_id, (district_id, name))
    return found


@register("districts")
def late_publications(ctx: Context):
    """TID-1: recorded late, never refused; a legal reviewer looks at it (staff see it too)."""
    ordinance_type = ContentType.objects.get_for_model(TidOrdinance)
    flags = list(Flag.objects.filter(resolved_on__isnull=True, kind=Flag.Kind.LATE_PUBLICATION,
                                     content_type=ordinance_type).select_related("assigned_to"))
    ordinances = TidOrdinance.objects.select_related("petition__district").in_bulk([f.object_id for f in flags])
    for flag in flags:
        ordinance = ordinances.get(flag.object_id)
        if ordinance is None:
            continue
        district = ordinance.petition.district
        yield flag_item(flag, kind="improvement", kind_label=_("Publicación tardía"),
                        title=_("Revisar la publicación tardía de la ordenanza %(o)s (TID-1)") % {"o": ordinance},
                        district=(district.pk, district.name), item_roles=(roles.LEGAL_REVIEWER, roles.STAFF))
