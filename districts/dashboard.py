"""Districts' dashboard items: TID-1 publications made after the week the statute gives, waiting
for a legal reviewer (and visible to staff, who recorded them)."""
from django.contrib.contenttypes.models import ContentType
from django.utils.translation import gettext as _

from core import roles
from core.dashboard.core_providers import flag_item
from core.dashboard.registry import Context, register
from core.models import Flag
from districts.improvement.models import TidOrdinance


@register("districts")
def late_publications(ctx: Context):
    ordinance_type = ContentType.objects.get_for_model(TidOrdinance)
    flags = list(Flag.objects.filter(resolved_on__isnull=True, kind=Flag.Kind.LATE_PUBLICATION,
                                     content_type=ordinance_type).select_related("assigned_to"))
    ordinances = (TidOrdinance.objects.select_related("petition__district")
                  .in_bulk([f.object_id for f in flags]))
    for flag in flags:
        ordinance = ordinances.get(flag.object_id)
        if ordinance is None:
            continue
        district = ordinance.petition.district
        yield flag_item(flag, kind="improvement", kind_label=_("Publicación tardía"),
                        title=_("Revisar la publicación tardía de la ordenanza %(o)s (TID-1)") % {"o": ordinance},
                        district=(district.pk, district.name) if district else (None, ""),
                        item_roles=(roles.LEGAL_REVIEWER, roles.STAFF))
