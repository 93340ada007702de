"""Django admin for the franchise registry. Saves and actions go through the services."""
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from core.admin_mixins import register_histories
from franchises import services
from franchises.models import Application, Franchise, Hearing, MeterReading, Proceeding, UsageReport


class MeterReadingInline(admin.TabularInline):
    """Read-only here: readings are recorded through the service (lecturas page or the reading admin)."""

    model = MeterReading
    extra = 0
    fields = ["month", "gallons", "origin", "entered_by"]
    readonly_fields = fields
    ordering = ["-month"]
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Franchise)
class FranchiseAdmin(SimpleHistoryAdmin):
    list_display = ["number", "holder", "source", "use", "tariff_class", "exemption", "expiry_date", "status"]
    list_filter = ["tariff_class", "status", "source", "use", "exemption", "payment_plan"]
    search_fields = ["number", "holder__search_text"]
    list_select_related = ["holder"]
    raw_id_fields = ["holder", "property_owner", "property_parcel", "predecessor"]
    readonly_fields = ["tariff_class", "renewal_deadline", "last_use_on", "prescription_on"]
    inlines = [MeterReadingInline]
    actions = ["record_flags_today"]

    def save_model(self, request, obj, form, change):
        services.franchise_save(actor=request.user, instance=obj, action="franchise.admin")

    @admin.action(description=_("Revisar alertas FRA-7 y FRA-10 hoy (todas las franquicias)"))
    def record_flags_today(self, request, queryset):
        result = services.franchise_flags_record(today=timezone.localdate(), actor=request.user)
        self.message_user(request, _("Alertas: %(raised)s nuevas, %(resolved)s resueltas, %(open)s abiertas.") % result,
                          messages.SUCCESS)


@admin.register(MeterReading)
class MeterReadingAdmin(SimpleHistoryAdmin):
    list_display = ["franchise", "month", "gallons", "origin"]
    list_filter = ["origin"]
    search_fields = ["franchise__number"]
    raw_id_fields = ["franchise"]
    date_hierarchy = "month"

    def save_model(self, request, obj, form, change):
        try:
            services.meter_reading_record(actor=request.user, franchise=obj.franchise, month=obj.month,
                                          gallons=obj.gallons, origin=obj.origin)
        except ValidationError as exc:
            self.message_user(request, "; ".join(exc.messages), messages.ERROR)


@admin.register(UsageReport)
class UsageReportAdmin(SimpleHistoryAdmin):
    list_display = ["franchise", "period_start", "period_end", "gallons_used", "nonuse_justified"]
    list_filter = ["nonuse_justified"]
    search_fields = ["franchise__number"]
    raw_id_fields = ["franchise"]


class HearingInline(admin.TabularInline):
    model = Hearing
    extra = 0
    fields = ["origin", "requested_on", "requested_by", "due_on", "accepted", "refused_reason", "scheduled_for",
              "held_on"]
    raw_id_fields = ["requested_by"]


@admin.register(Application)
class ApplicationAdmin(SimpleHistoryAdmin):
    """Filing and decisions happen on the staff pages (services); here staff can correct records."""

    list_display = ["franchise", "kind", "received_on", "status", "decision_due", "filed_late", "determination_date"]
    list_filter = ["kind", "status", "filed_late", "fee_paid"]
    search_fields = ["franchise__number", "applicant__search_text", "recipient__search_text"]
    list_select_related = ["franchise"]
    raw_id_fields = ["franchise", "applicant", "recipient", "resulting_franchise"]
    readonly_fields = ["expiry_at_filing", "filing_deadline", "filed_late", "decision_due", "hearing_request_due",
                       "applied_changes", "decided_by"]
    inlines = [HearingInline]


@admin.register(Proceeding)
class ProceedingAdmin(SimpleHistoryAdmin):
    list_display = ["franchise", "cause", "opened_on", "cease_and_desist", "outcome", "outcome_on"]
    list_filter = ["cause", "outcome", "cease_and_desist"]
    search_fields = ["franchise__number"]
    raw_id_fields = ["franchise"]
    readonly_fields = ["opened_by", "decided_by"]
    inlines = [HearingInline]


@admin.register(Hearing)
class HearingAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "origin", "requested_on", "due_on", "accepted", "scheduled_for", "held_on"]
    list_filter = ["origin", "accepted"]
    raw_id_fields = ["application", "proceeding", "requested_by"]


# The change history of every model that keeps one, read-only.
register_histories("franchises")
