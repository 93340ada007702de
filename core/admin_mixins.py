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

