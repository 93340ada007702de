"""Django admin for the improvement districts. Computed fields (due dates, retention, late flags,
decisions) are read-only: they are written by the services, never by hand."""
from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from districts.improvement.models import (
    SidCollectionBatch,
    SidNoticeRound,
    SidRefund,
    SidRefundLine,
    SidResolution,
    SidResolutionCharge,
    TidAccountEntry,
    TidAudit,
    TidFactorFinding,
    TidNoticeRound,
    TidOrdinance,
    TidPetition,
)


class SidChargeInline(admin.TabularInline):
    model = SidResolutionCharge
    extra = 0
    autocomplete_fields = ["parcel"]


class SidNoticeRoundInline(admin.TabularInline):
    model = SidNoticeRound
    extra = 0
    readonly_fields = ["sequence", "fiscal_year", "due_on", "moved_from"]


@admin.register(SidResolution)
class SidResolutionAdmin(SimpleHistoryAdmin):
    list_display = ["number", "district", "adopted_on", "term_years", "first_fiscal_year", "crim_received_on",
                    "project_status"]
    list_filter = ["project_status", "district"]
    search_fields = ["number", "district__name", "district__code"]
    list_select_related = ["district"]
    readonly_fields = ["crim_received_on", "project_status", "not_carried_out_on", "not_carried_out_reason"]
    inlines = [SidChargeInline, SidNoticeRoundInline]


@admin.register(SidResolutionCharge)
class SidResolutionChargeAdmin(SimpleHistoryAdmin):
    list_display = ["resolution", "parcel", "annual_charge"]
    search_fields = ["parcel__cadastre", "resolution__number"]
    list_select_related = ["resolution", "parcel"]
    autocomplete_fields = ["parcel"]


@admin.register(SidNoticeRound)
class SidNoticeRoundAdmin(admin.ModelAdmin):
    list_display = ["resolution", "sequence", "fiscal_year", "due_on", "mailed_on"]
    list_select_related = ["resolution"]
    readonly_fields = ["resolution", "sequence", "fiscal_year", "due_on", "moved_from"]


@admin.register(SidCollectionBatch)
class SidCollectionBatchAdmin(SimpleHistoryAdmin):
    list_display = ["resolution", "reference", "received_on", "collected", "retained", "remitted",
                    "remittance_due_on", "remitted_on", "remitted_late"]
    list_filter = ["remitted_late", "resolution__district"]
    search_fields = ["reference", "resolution__number"]
    list_select_related = ["resolution"]
    readonly_fields = ["retention_pct", "retained", "remitted", "parameters_label", "remittance_due_on",
                       "remittance_moved_from", "remitted_late"]

    def has_change_permission(self, request, obj=None):
        return False  # amounts and due dates come from the SID-3 service


class SidRefundLineInline(admin.TabularInline):
    model = SidRefundLine
    extra = 0
    can_delete = False
    readonly_fields = ["parcel", "party", "paid", "from_authority", "from_fund", "from_crim"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(SidRefund)
class SidRefundAdmin(admin.ModelAdmin):
    list_display = ["resolution", "decided_on", "total", "from_authority", "from_fund", "from_crim",
                    "crim_recovery_pending", "crim_recovered_on"]
    list_filter = ["crim_recovery_pending"]
    readonly_fields = ["resolution", "decided_on", "total", "from_authority", "from_fund", "from_crim",
                       "crim_recovery_pending", "crim_recovered_on"]
    inlines = [SidRefundLineInline]

    def has_add_permission(self, request):
        return False


@admin.register(SidRefundLine)
class SidRefundLineAdmin(admin.ModelAdmin):
    list_display = ["refund", "parcel", "party", "paid", "from_authority", "from_fund", "from_crim"]
    list_select_related = ["refund", "parcel", "party"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # what each owner was refunded (SID-5) stays on record


class TidFindingInline(admin.TabularInline):
    model = TidFactorFinding
    extra = 0


@admin.register(TidPetition)
class TidPetitionAdmin(SimpleHistoryAdmin):
    list_display = ["district", "municipality", "legislature_received_on", "ordinance_due_on", "status"]
    list_filter = ["status", "municipality"]
    search_fields = ["district__name", "petition_text"]
    list_select_related = ["district", "municipality"]
    readonly_fields = ["ordinance_due_on", "ordinance_due_moved_from", "status", "denied_on"]
    inlines = [TidFindingInline]


@admin.register(TidFactorFinding)
class TidFactorFindingAdmin(admin.ModelAdmin):
    list_display = ["petition", "factor", "finding"]
    list_filter = ["factor", "finding"]
    list_select_related = ["petition"]


class TidNoticeRoundInline(admin.TabularInline):
    model = TidNoticeRound
    extra = 0
    readonly_fields = ["sequence", "fiscal_year", "due_on", "moved_from"]


@admin.register(TidOrdinance)
class TidOrdinanceAdmin(SimpleHistoryAdmin):
    list_display = ["number", "name", "issued_on", "expected_amount", "mayor_decision", "decided_on", "published_on",
                    "collector", "association"]
    list_filter = ["mayor_decision", "collector"]
    search_fields = ["number", "name", "formula"]
    list_select_related = ["association", "petition"]
    readonly_fields = ["issued_late", "mayor_due_on", "mayor_decision", "decided_on", "decided_late",
                       "publication_due_on", "newspaper", "published_on", "collector", "copy_sent_to_crim_on",
                       "association", "association_received_on"]
    inlines = [TidNoticeRoundInline]


@admin.register(TidNoticeRound)
class TidNoticeRoundAdmin(admin.ModelAdmin):
    list_display = ["ordinance", "sequence", "fiscal_year", "due_on", "mailed_on"]
    list_select_related = ["ordinance"]
    readonly_fields = ["ordinance", "sequence", "fiscal_year", "due_on", "moved_from"]


@admin.register(TidAccountEntry)
class TidAccountEntryAdmin(SimpleHistoryAdmin):
    list_display = ["ordinance", "entry_date", "kind", "amount", "admin_expense", "purpose"]
    list_filter = ["kind", "admin_expense"]
    search_fields = ["purpose", "ordinance__number"]
    list_select_related = ["ordinance"]

    def has_add_permission(self, request):
        return False  # the TID-5 cap is enforced by the service: add entries on the TID page

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # the association's account is append-only: a correction is a new entry


@admin.register(TidAudit)
class TidAuditAdmin(admin.ModelAdmin):
    list_display = ["ordinance", "fiscal_year", "cpa_name", "received_on"]
    list_select_related = ["ordinance"]
