"""Admin for the money core. Only funds are edited here; everything else is written by services
(the ledger is append-only) and shown read-only."""
from django.contrib import admin, messages
from django.core.exceptions import ValidationError

from assessments.ledger import services
from assessments.models import (
    Account,
    Adjustment,
    BankFile,
    BankFileLine,
    CashierBatch,
    Counter,
    Fund,
    Installment,
    LedgerEntry,
    Payment,
    Receivable,
)
from core.admin_mixins import ReadOnlyAdmin, ReadOnlyTabularInline, register_read_only


@admin.register(Fund)
class FundAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "lien_kind", "finances_public_infrastructure", "is_active"]
    search_fields = ["code", "name"]
    prepopulated_fields = {"code": ["name"]}

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "balance"]
    search_fields = ["parcel__cadastre", "party__search_text"]
    list_select_related = ["parcel", "party"]


class InstallmentInline(ReadOnlyTabularInline):
    model = Installment
    readonly_fields = ["seq", "due_date", "amount"]


@admin.register(Receivable)
class ReceivableAdmin(ReadOnlyAdmin):
    list_display = ["payment_reference", "description", "kind", "fund", "amount", "issued_on", "status"]
    list_filter = ["kind", "status", "fund", "surcharge_rule"]
    search_fields = ["payment_reference", "source_id", "description", "account__parcel__cadastre"]
    inlines = [InstallmentInline]


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ["effective_date", "account", "kind", "component", "amount", "payment", "memo", "posted_at"]
    list_filter = ["kind", "component"]
    search_fields = ["account__parcel__cadastre", "memo"]
    list_select_related = ["account", "account__parcel", "account__party", "payment"]
    date_hierarchy = "effective_date"


@admin.register(Payment)
class PaymentAdmin(ReadOnlyAdmin):
    list_display = ["receipt_number", "paid_on", "account", "method", "amount", "status", "source", "batch"]
    list_filter = ["method", "status", "source"]
    search_fields = ["receipt_number", "payer_name", "check_number", "reference"]


@admin.register(CashierBatch)
class CashierBatchAdmin(ReadOnlyAdmin):
    list_display = ["pk", "cashier", "business_date", "status", "closed_at"]
    list_filter = ["status"]


@admin.register(Adjustment)
class AdjustmentAdmin(ReadOnlyAdmin):
    list_display = ["kind", "account", "amount", "status", "requested_by", "decided_by", "created_at"]
    list_filter = ["kind", "status"]
    actions = ["approve"]

    @admin.action(description="Aprobar (otra persona que quien solicitó)")
    def approve(self, request, queryset):
        for adj in queryset:
            try:
                services.adjustment_approve(adjustment=adj, actor=request.user)
            except ValidationError as exc:
                messages.error(request, f"{adj}: {'; '.join(exc.messages)}")


class BankFileLineInline(ReadOnlyTabularInline):
    model = BankFileLine
    readonly_fields = ["line_no", "reference", "amount", "paid_on", "bank_ref", "status", "payment", "message"]


@admin.register(BankFile)
class BankFileAdmin(ReadOnlyAdmin):
    list_display = ["filename", "uploaded_at", "uploaded_by"]
    inlines = [BankFileLineInline]


# Shown on their parents' pages too; listed on their own so every ledger row can be found (read-only).
register_read_only(Installment, BankFileLine, Counter)
