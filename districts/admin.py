from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from core.admin_mixins import ReadOnlyAdmin, register_histories
from districts.imports.models import ImportJob
from districts.models import (
    District,
    Membership,
    Municipality,
    Office,
    Ownership,
    Parcel,
    Party,
    StaffOffice,
    WaterDelivery,
)


@admin.register(Municipality)
class MunicipalityAdmin(admin.ModelAdmin):
    search_fields = ["name", "code"]
    list_display = ["name", "code"]


@admin.register(Party)
class PartyAdmin(SimpleHistoryAdmin):
    list_display = ["display_name", "kind", "email", "phone", "address_municipality"]
    list_filter = ["kind", "address_municipality"]
    search_fields = ["given_names", "first_surname", "second_surname", "organization_name", "email", "search_text"]
    list_select_related = ["address_municipality"]
    autocomplete_fields = ["representative", "address_municipality", "user"]


class OfficeStaffInline(admin.TabularInline):
    """The staff who work at the office (their unassigned dashboard items follow it)."""

    model = StaffOffice
    extra = 0
    autocomplete_fields = ["user"]
    verbose_name = _("persona del personal")
    verbose_name_plural = _("personal de la oficina")


@admin.register(Office)
class OfficeAdmin(SimpleHistoryAdmin):
    list_display = ["name", "kind", "phone", "issues", "collects"]
    list_filter = ["kind", "issues", "collects"]
    search_fields = ["name"]
    inlines = [OfficeStaffInline]


@admin.register(StaffOffice)
class StaffOfficeAdmin(admin.ModelAdmin):
    list_display = ["user", "office"]
    list_filter = ["office"]
    search_fields = ["user__username", "user__first_name", "user__last_name", "office__name"]
    list_select_related = ["user", "office"]
    autocomplete_fields = ["user", "office"]


class UserOfficeInline(admin.TabularInline):
    """On the user's page: the offices they work at (none: every office)."""

    model = StaffOffice
    extra = 0
    autocomplete_fields = ["office"]
    verbose_name = _("oficina")
    verbose_name_plural = _("oficinas (sin ninguna: todas)")


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    inlines = [*BaseUserAdmin.inlines, UserOfficeInline]
    actions = ["reset_second_factor"]

    @admin.action(description=_("Restablecer el segundo factor (teléfono perdido): entrará de nuevo activándolo"))
    def reset_second_factor(self, request, queryset):
        from core.otp import reset_second_factor

        for user in queryset:
            reset_second_factor(actor=request.user, user=user)
        self.message_user(request, _("Segundo factor restablecido: %(n)s usuario(s).") % {"n": queryset.count()})


class OwnershipInline(admin.TabularInline):
    model = Ownership
    extra = 0
    autocomplete_fields = ["party"]


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["district"]


@admin.register(Parcel)
class ParcelAdmin(SimpleHistoryAdmin):
    list_display = ["cadastre", "municipality", "area_value", "area_unit", "use_class", "assessed_value"]
    list_filter = ["use_class", "area_unit", "is_public_land", "municipality"]
    search_fields = ["cadastre", "search_text", "location"]
    list_select_related = ["municipality"]
    autocomplete_fields = ["municipality"]
    inlines = [OwnershipInline, MembershipInline]


@admin.register(Ownership)
class OwnershipAdmin(SimpleHistoryAdmin):
    list_display = ["parcel", "party", "share_pct", "start_date", "end_date"]
    list_filter = ["end_date"]
    search_fields = ["parcel__cadastre", "party__search_text"]
    list_select_related = ["parcel", "party"]
    autocomplete_fields = ["parcel", "party"]


@admin.register(District)
class DistrictAdmin(SimpleHistoryAdmin):
    list_display = ["code", "name", "kind", "office", "completion_certified_on"]
    list_filter = ["kind"]
    search_fields = ["code", "name"]
    list_select_related = ["office"]
    filter_horizontal = ["municipalities"]


@admin.register(Membership)
class MembershipAdmin(SimpleHistoryAdmin):
    list_display = ["parcel", "district", "status", "included_on", "free_period_end", "gravity_acres", "pumped_acres"]
    list_filter = ["district", "status"]
    search_fields = ["parcel__cadastre"]
    list_select_related = ["parcel", "district"]
    autocomplete_fields = ["parcel", "district"]


@admin.register(WaterDelivery)
class WaterDeliveryAdmin(SimpleHistoryAdmin):
    list_display = ["parcel", "fiscal_year", "semester", "af_per_acre", "offered_only"]
    list_filter = ["fiscal_year", "semester"]
    search_fields = ["parcel__cadastre"]
    list_select_related = ["parcel"]
    autocomplete_fields = ["parcel"]

from districts.improvement import admin as _improvement_admin  # noqa: E402,F401


@admin.register(ImportJob)
class ImportJobAdmin(ReadOnlyAdmin):
    """Written by the import confirm step and its task only."""

    list_display = ["created_at", "kind_label", "file_name", "row_count", "status", "requested_by", "finished_at"]
    list_filter = ["status", "kind"]
    search_fields = ["file_name", "sha256"]

    @admin.display(description=_("contenido"), ordering="kind")
    def kind_label(self, obj):
        from districts.imports.columns import KINDS

        return KINDS[obj.kind].label if obj.kind in KINDS else obj.kind


# The change history of every model that keeps one (including districts.improvement's), read-only.
register_histories("districts")
