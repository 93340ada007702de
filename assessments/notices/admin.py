"""Read-only admin for notices and mailing batches: they change only through the services (staff pages)."""
from django.contrib import admin

from assessments.notices.models import MailingBatch, Notice, NoticeAddressee


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class AddresseeInline(admin.TabularInline):
    model = NoticeAddressee
    fields = ("party", "activation_used_at")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Notice)
class NoticeAdmin(ReadOnlyAdmin):
    list_display = ("number", "revision", "issued_on", "program", "method", "status", "source_type", "sort_key")
    list_filter = ("status", "program", "method", "year")
    search_fields = ("number", "receivable__payment_reference", "sort_key")
    raw_id_fields = ("receivable", "replaces", "document", "batch")
    inlines = [AddresseeInline]


@admin.register(MailingBatch)
class MailingBatchAdmin(ReadOnlyAdmin):
    list_display = ("id", "source_label", "method", "notice_count", "page_count", "created_at")
    list_filter = ("method",)
    search_fields = ("source_type", "source_label")
