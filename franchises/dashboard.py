"""Franchises' dashboard items: open flags on franchises (FRA-7 renewal not filed, FRA-8 arrears,
FRA-10 non-use), with the franchise's DRNA office and, for FRA-10, the prescription date."""
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse
from django.utils.translation import gettext as _

from core import roles
from core.dashboard.core_providers import flag_item
from core.dashboard.registry import Context, register
from core.dashboard.waiting import Waiting, register_waiting
from core.models import Flag
from franchises.models import Application, Franchise


@register("franchises")
def franchise_flags(ctx: Context):
    franchise_type = ContentType.objects.get_for_model(Franchise)
    flags = list(Flag.objects.filter(resolved_on__isnull=True, content_type=franchise_type)
                 .select_related("assigned_to"))
    franchises = Franchise.objects.select_related("office").in_bulk([f.object_id for f in flags])
    for flag in flags:
        franchise = franchises.get(flag.object_id)
        if franchise is None:
            continue
        due = franchise.prescription_on if flag.kind == Flag.Kind.NON_USE else None
        yield flag_item(flag, kind="franchise", kind_label=_("Franquicia señalada"),
                        title=f"{flag.get_kind_display()} — {franchise.number}", due_date=due,
                        office=(franchise.office_id, franchise.office.name), item_roles=(roles.STAFF,))


@register_waiting
def franchises_waiting_on_role(user):
    """Open franchise applications wait for the decision; flagged franchises for staff."""
    yield Waiting(key="franchise_application", action=roles.DECIDE, label=_("Solicitudes de franquicia por decidir"),
                  count=Application.objects.filter(status__in=Application.OPEN_STATUSES).count(),
                  url=reverse("franchises:application_list"), order=25)
    franchise_type = ContentType.objects.get_for_model(Franchise)
    yield Waiting(key="franchise_flag", action=roles.DRAFT, label=_("Franquicias señaladas"),
                  count=Flag.objects.filter(resolved_on__isnull=True, content_type=franchise_type).count(),
                  url=reverse("franchises:flags"), order=40)
