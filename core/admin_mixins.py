"""Admin building blocks every app uses: read-only admins for rows that only services write.

The ledger, the audit trail, documents, notices, rolls and simple-history's history rows are
append-only: a correction is a new entry written by a service (with its audit row), never an
edit in the admin. Staff still need to *see* them here, so each app registers them with these.
"""
from __future__ import annotations

from django.apps import apps
from django.contrib import admin


class NoWritesMixin:
    """No add, change or delete for anyone (superusers too); the view permission still lists rows."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyAdmin(NoWritesMixin, admin.ModelAdmin):
    """Rows written by services only: staff read them here, never add, edit or delete them."""


class ReadOnlyTabularInline(NoWritesMixin, admin.TabularInline):
    """The child rows of a read-only parent (installments, file lines, addressees)."""

    extra = 0
    can_delete = False


class HistoryAdmin(ReadOnlyAdmin):
    """simple-history's rows: who changed a record, when and how (+ created, ~ changed, - deleted)."""

    list_display = ["__str__", "history_date", "history_type", "history_user"]
    list_filter = ["history_type"]
    date_hierarchy = "history_date"
    list_select_related = ["history_user"]


def _is_history_model(model) -> bool:
    # simple-history's generated models carry the model they record as `instance_type`.
    return hasattr(model, "instance_type") and model._meta.model_name.startswith("historical")


def register_read_only(*models, site: admin.AdminSite = admin.site) -> None:
    """Register each model not yet registered with a plain read-only admin."""
    for model in models:
        if not site.is_registered(model):
            site.register(model, ReadOnlyAdmin)


def register_histories(app_label: str, site: admin.AdminSite = admin.site) -> None:
    """Register the history rows of every model of `app_label` that keeps one (read-only)."""
    for model in apps.get_app_config(app_label).get_models():
        if _is_history_model(model) and not site.is_registered(model):
            site.register(model, HistoryAdmin)



def admin_number(value, field) -> str | None:
    """A number in an admin list or read-only form, the Puerto Rico way: $19,160.01 (not "19160,01").

    Money columns (14 digits, 2 places, the MONEY convention of the models) get the dollar sign;
    other decimals (acres, percentages) get the thousands commas and their own places.
    """
    from decimal import Decimal

    from django.db import models

    if not isinstance(field, models.DecimalField) or not isinstance(value, Decimal):
        return None
    from core.templatetags.fmt import num, usd

    if field.decimal_places == 2 and field.max_digits == 14:
        return usd(value)
    return num(value, field.decimal_places)


def install_admin_number_display() -> None:
    """Make the admin print decimals with admin_number. Django has no hook for this: its list and
    read-only views call `display_for_field`, imported by name in two modules, so all three names
    are wrapped once (idempotent)."""
    from django.contrib.admin import helpers, utils
    from django.contrib.admin.templatetags import admin_list

    original = utils.display_for_field
    if getattr(original, "pr_numbers", False):
        return

    def display_for_field(value, field, empty_value_display, *args, **kwargs):
        shown = admin_number(value, field)
        return shown if shown is not None else original(value, field, empty_value_display, *args, **kwargs)

    display_for_field.pr_numbers = True
    utils.display_for_field = helpers.display_for_field = admin_list.display_for_field = display_for_field
    # The admin's edit forms take amounts as the app's forms do ("1,234.56"; "500,00" refused with the reason).
    from django.contrib.admin import options
    from django.db import models

    from core.forms import AmountField

    options.FORMFIELD_FOR_DBFIELD_DEFAULTS.setdefault(models.DecimalField, {"form_class": AmountField})
    # Admins registered before core's ready() already copied those defaults: give them the field too.
    for model_admin in admin.site._registry.values():
        model_admin.formfield_overrides.setdefault(models.DecimalField, {"form_class": AmountField})


def name_history_models() -> None:
    """simple-history calls its rows "historical <name>" in English whatever the language; here they are
    "historial de <nombre>" with English through the catalogue. Only the runtime label changes
    (Meta's original attributes stay), so no migration follows."""
    from django.utils.text import format_lazy
    from django.utils.translation import gettext_lazy as _

    for model in apps.get_models():
        if _is_history_model(model):
            base = model.instance_type._meta
            model._meta.verbose_name = format_lazy(_("historial de {}"), base.verbose_name)
            model._meta.verbose_name_plural = format_lazy(_("historial de {}"), base.verbose_name_plural)


def name_third_party_models() -> None:
    """Axes and celery-results ship no Spanish: their admin sections said "Access attempts", "Task results".
    Runtime labels only (as for history rows), so no migration follows."""
    from django.utils.translation import gettext_lazy as _

    names = {
        "axes.AccessAttempt": (_("intento de acceso fallido"), _("intentos de acceso fallidos")),
        "axes.AccessFailureLog": (_("acceso fallido"), _("accesos fallidos")),
        "axes.AccessLog": (_("registro de acceso"), _("registros de acceso")),
        "django_celery_results.TaskResult": (_("resultado de tarea"), _("resultados de tareas")),
        "django_celery_results.GroupResult": (_("resultado de grupo de tareas"), _("resultados de grupos de tareas")),
    }
    sections = {"axes": _("Inicios de sesión bloqueados"), "django_celery_results": _("Resultados de tareas")}
    for label, (singular, plural) in names.items():
        try:
            model = apps.get_model(label)
        except LookupError:
            continue
        model._meta.verbose_name, model._meta.verbose_name_plural = singular, plural
    for app_label, name in sections.items():
        try:
            apps.get_app_config(app_label).verbose_name = name
        except LookupError:
            continue

