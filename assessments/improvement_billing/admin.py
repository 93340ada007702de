"""Read-only admin of improvement billing: every write goes through the services."""
from django.contrib import admin

from assessments.improvement_billing.models import BillingRun, CollectionFeed, ImprovementCharge
from core.admin_mixins import ReadOnlyAdmin


@admin.register(BillingRun)
class BillingRunAdmin(ReadOnlyAdmin):
    list_display = ["district", "fiscal_year", "status", "reason", "charges_count", "charges_total", "last_run_at"]
    list_filter = ["program", "status", "fiscal_year"]


@admin.register(ImprovementCharge)
class ImprovementChargeAdmin(ReadOnlyAdmin):
    list_display = ["run", "parcel", "program", "collector", "receivable", "created_at"]
    list_filter = ["program", "collector", "fiscal_year"]
    search_fields = ["parcel__cadastre", "receivable__payment_reference"]
    list_select_related = ["run", "run__district", "parcel", "receivable"]


@admin.register(CollectionFeed)
class CollectionFeedAdmin(ReadOnlyAdmin):
    list_display = ["entry", "charge", "amount", "sid_batch", "tid_entry", "fed_at"]
