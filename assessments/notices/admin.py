"""Read-only admin for notices and mailing batches: they change only through the services (staff pages)."""
from django.contrib import admin

from assessments.notices.models import MailingBatch, Notice, NoticeAddressee
from core.admin_mixins import ReadOnlyAdmin, ReadOnlyTabularInline, register_read_only


class AddresseeInline(ReadOnlyTabularInline):
    model = NoticeAddressee
    fields = ("party", "activation_used_at")
    readonly_fields = fields


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


register_read_only(NoticeAddressee)
