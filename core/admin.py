from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from core.admin_mixins import ReadOnlyAdmin, ReadOnlyTabularInline, register_histories, register_read_only
from core.models import (
    ApiToken,
    Assignment,
    AuditEntry,
    Clock,
    DigestSent,
    Document,
    DocumentDownloadLog,
    DocumentOwner,
    Flag,
    Holiday,
    ParameterVersion,
    StaffCalendar,
)
from core.roles import can_write
from core.workqueue import clocks_mark_missed, flag_resolve

admin.site.site_header = _("Cargos sobre la tierra — Administración")
admin.site.site_title = _("Administración")


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """Read-only: the trail is written by services, never by hand."""

    list_display = ["at", "actor", "action", "summary"]
    list_filter = ["action"]
    search_fields = ["summary", "action", "target_id"]
    list_select_related = ["actor"]


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


class DocumentOwnerInline(ReadOnlyTabularInline):
    model = DocumentOwner
    readonly_fields = ["party_id"]


@admin.register(Document)
class DocumentAdmin(ReadOnlyAdmin):
    list_display = ["verification_code", "kind", "title", "office_name", "created_at", "page_count", "pdf_link"]
    list_filter = ["kind", "language"]
    search_fields = ["verification_code", "title", "sha256", "office_name"]
    date_hierarchy = "created_at"
    inlines = [DocumentOwnerInline]

    @admin.display(description=_("PDF"))
    def pdf_link(self, obj):
        return format_html('<a href="{}">{}</a>', reverse("core:document_pdf", args=[obj.pk]), _("Descargar"))


@admin.register(DocumentDownloadLog)
class DocumentDownloadLogAdmin(ReadOnlyAdmin):
    list_display = ["at", "document", "user", "ip"]
    search_fields = ["document__verification_code", "user__username", "ip"]
    list_select_related = ["document", "user"]
    date_hierarchy = "at"


@admin.register(Clock)
class ClockAdmin(ReadOnlyAdmin):
    """Clocks are opened, met and recomputed by services; the admin only reads and runs the daily check."""

    list_display = ["rule", "label", "record_label", "start_date", "due_date", "status", "met_on", "office_name",
                    "responsible_user"]
    list_filter = ["status", "rule", "moves_past_holidays"]
    search_fields = ["rule", "label", "record_label", "office_name", "notes"]
    list_select_related = ["responsible_user"]
    date_hierarchy = "due_date"
    actions = ["mark_missed_now"]

    @admin.action(description=_("Marcar como vencidos los plazos abiertos ya pasados (todos)"),
                  permissions=["view"])
    def mark_missed_now(self, request, queryset):
        if not can_write(request.user):
            raise PermissionDenied
        count = clocks_mark_missed()
        self.message_user(request, _("%(n)d plazo(s) marcados como vencidos.") % {"n": count}, messages.SUCCESS)


@admin.register(Flag)
class FlagAdmin(ReadOnlyAdmin):
    """Flags are raised by services; the admin reads them and resolves the selected ones."""

    list_display = ["kind", "severity", "record_label", "opened_on", "resolved_on", "assigned_to", "rule"]
    list_filter = ["kind", "severity", ("resolved_on", admin.EmptyFieldListFilter)]
    search_fields = ["record_label", "description", "rule"]
    list_select_related = ["assigned_to"]
    actions = ["resolve_selected"]

    @admin.action(description=_("Resolver los asuntos seleccionados"), permissions=["view"])
    def resolve_selected(self, request, queryset):
        if not can_write(request.user):
            raise PermissionDenied
        resolved = 0
        for flag in queryset.filter(resolved_on__isnull=True):
            flag_resolve(flag=flag, actor=request.user, resolution=_("Resuelto desde la administración."))
            resolved += 1
        self.message_user(request, _("%(n)d asunto(s) resueltos.") % {"n": resolved}, messages.SUCCESS)


@admin.register(StaffCalendar)
class StaffCalendarAdmin(ReadOnlyAdmin):
    """The feed token is the only secret of a private calendar URL: never shown here."""

    list_display = ["user", "created_at", "revoked_at"]
    exclude = ["token"]


@admin.register(Assignment)
class AssignmentAdmin(ReadOnlyAdmin):
    list_display = ["item_key", "user", "assigned_by", "at"]
    search_fields = ["item_key", "user__username"]


@admin.register(DigestSent)
class DigestSentAdmin(ReadOnlyAdmin):
    list_display = ["user", "date", "item_count", "sent_at"]


register_read_only(DocumentOwner)
register_histories("core")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Integrations' keys: made here (the key is shown once), revoked here, with their last use."""

    list_display = ["name", "user", "scope", "prefix", "created_at", "last_used_at", "last_used_ip", "expires_at",
                    "revoked_at"]
    list_filter = ["scope", ("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "prefix", "user__username"]
    readonly_fields = ["prefix", "created_at", "created_by", "last_used_at", "last_used_ip", "revoked_at"]
    fields = ["name", "user", "scope", "expires_at", *readonly_fields]
    actions = ["revoke"]

    def get_readonly_fields(self, request, obj=None):
        # A key's user and scope are what it was made for: a different need is a new key.
        return [*self.readonly_fields, "user", "scope"] if obj is not None else self.readonly_fields

    def save_model(self, request, obj, form, change):
        from core.api_tokens import token_create

        if change:
            return super().save_model(request, obj, form, change)
        token, key = token_create(user=obj.user, name=obj.name, scope=obj.scope, actor=request.user,
                                  expires_at=obj.expires_at)
        obj.pk = token.pk
        obj.prefix, obj.key_hash, obj.created_at = token.prefix, token.key_hash, token.created_at
        messages.warning(request, _("Copie ahora la clave de «%(name)s»; no se volverá a mostrar: %(key)s") % {
            "name": token.name, "key": key})

    def has_delete_permission(self, request, obj=None):
        return False  # revoked, never deleted: the audit trail names it

    @admin.action(description=_("Revocar los tokens seleccionados"))
    def revoke(self, request, queryset):
        from core.api_tokens import token_revoke

        for token in queryset:
            token_revoke(token=token, actor=request.user)
        messages.success(request, _("Tokens revocados: %(n)s.") % {"n": queryset.count()})
