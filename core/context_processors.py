"""Navigation shown on every staff page, by role; the application's version in every page's footer."""
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _

from config.version import __version__
from core import roles

STAFF_NAV = [
    ("home", _("Inicio"), "home"),
    ("clocks", _("Plazos"), "core:clock_list"),
    ("calendar", _("Calendario"), "core:calendar"),
    ("flags", _("Asuntos"), "core:flag_list"),
    ("parcels", _("Parcelas"), "districts:parcel_list"),
    ("parties", _("Personas y entidades"), "districts:party_list"),
    ("districts", _("Distritos"), "districts:district_list"),
    ("offices", _("Oficinas"), "districts:office_list"),
    ("ledger", _("Cobros y pagos"), "assessments:ledger_home"),
    ("improvement", _("Distritos de mejoramiento"), "improvement:home"),
    ("improvement_billing", _("Facturación de mejoramiento"), "improvement_billing:index"),
    ("liens", _("Gravámenes"), "liens:queue"),
    ("franchises", _("Franquicias"), "franchises:list"),
    ("franchise_billing", _("Facturación de franquicias"), "franchise_billing:run"),
    ("import", _("Importar / exportar"), "imports:home"),
    ("rolls", _("Padrones"), "rolls:list"),
    ("aging", _("Morosidad"), "rolls:aging"),
    ("mailing", _("Avisos y envíos"), "notices:batch_list"),
    ("whatif", _("Simulación de padrones"), "whatif:page"),
    ("reports", _("Informes"), "reports:index"),
]


def navigation(request):
    user = getattr(request, "user", None)
    if not roles.is_staff_member(user):
        return {"is_staff_member": False}
    if hasattr(user, "is_verified") and hasattr(request, "session"):
        from core import otp

        if otp.needs_verification(request):  # signed in with the password only: no menu of pages it cannot reach
            return {"is_staff_member": False}
    items = []
    for key, label, url_name in STAFF_NAV:
        try:
            items.append({"key": key, "label": label, "url": reverse(url_name)})
        except NoReverseMatch:  # a page whose app is not installed here
            continue
    # The longest matching prefix wins, so /padrones/morosidad/ lights "Morosidad" and not "Padrones" too.
    path = getattr(request, "path", "")
    matches = [i for i in items if path == i["url"] or (i["key"] != "home" and path.startswith(i["url"]))]
    active = max(matches, key=lambda i: len(i["url"]))["key"] if matches else ""
    return {"is_staff_member": True, "nav_items": items, "nav_active": active, "can_write": roles.can_write(user),
            "is_admin": roles.has_role(user, roles.ADMINISTRATOR)}


def version(request):
    return {"app_version": __version__}
