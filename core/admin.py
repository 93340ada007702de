from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from core.models import AuditEntry, Holiday, ParameterVersion

admin.site.site_header = "Cargos sobre la tierra — Administración"
admin.site.site_title = "Administración"


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """Read-only: the trail is written by services, never by hand."""

    list_display = ["at", "actor", "action", "summary"]
    list_filter = ["action"]
    search_fields = ["summary", "action", "target_id"]
    list_select_related = ["actor"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Holiday)
class HolidayAdmin(SimpleHistoryAdmin):
    list_display = ["date", "name", "is_working_day"]
    list_filter = ["is_working_day"]
    search_fields = ["name"]


@admin.register(ParameterVersion)
class ParameterVersionAdmin(SimpleHistoryAdmin):
    list_display = ["family", "version", "effective_from", "citation"]
    list_filter = ["family"]
    search_fields = ["family", "version", "citation"]

    def save_model(self, request, obj, form, change):
        if not obj.created_by_id:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)
