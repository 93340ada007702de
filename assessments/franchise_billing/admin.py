"""Read-only admin of franchise billing: every write goes through the services (the pages, the API,
the tasks)."""
from django.contrib import admin

from assessments.franchise_billing.models import AaaTransfer, FranchiseCharge, InvoiceRun, ReadingImport
from core.admin_mixins import ReadOnlyAdmin


@admin.register(FranchiseCharge)
class FranchiseChargeAdmin(ReadOnlyAdmin):
    list_display = ["franchise", "kind", "cause", "fiscal_year", "period_start", "period_end", "amount", "month",
                    "tariff_class", "receivable", "created_at"]
    list_filter = ["kind", "fiscal_year", "tariff_class"]
    search_fields = ["franchise__number", "receivable__payment_reference"]
    list_select_related = ["franchise", "receivable"]


@admin.register(InvoiceRun)
class InvoiceRunAdmin(ReadOnlyAdmin):
    list_display = ["fiscal_year", "run_at", "trigger", "run_by", "created_count", "created_total"]
    list_filter = ["fiscal_year", "trigger"]


@admin.register(ReadingImport)
class ReadingImportAdmin(ReadOnlyAdmin):
    list_display = ["filename", "uploaded_at", "uploaded_by", "billed_on"]


@admin.register(AaaTransfer)
class AaaTransferAdmin(ReadOnlyAdmin):
    list_display = ["period_label", "collected", "transferred", "retained", "transferred_on", "recorded_by"]
    list_filter = ["period_kind"]
