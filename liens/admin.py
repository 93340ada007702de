from django.contrib import admin, messages
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.admin_mixins import ReadOnlyAdmin, ReadOnlyTabularInline
from liens import services
from liens.models import Lien, LienEvent, LienRuling


class LienEventInline(ReadOnlyTabularInline):
    """LIEN-4's dated releases and revivals: read only (new rows come from the services)."""

    model = LienEvent
    fields = readonly_fields = ["on", "kind", "secured", "reason", "actor", "recorded_at"]


@admin.register(LienEvent)
class LienEventAdmin(ReadOnlyAdmin):
    """Append-only: released at zero, revived by a reversal (LIEN-4)."""

    list_display = ["lien", "kind", "on", "secured", "reason", "actor"]
    list_filter = ["kind"]
    search_fields = ["lien__parcel__cadastre", "reason"]
    list_select_related = ["lien", "lien__parcel", "actor"]


@admin.register(Lien)
class LienAdmin(admin.ModelAdmin):
    """Encumbrances entered by hand (mortgages, taxes, crop credits) are added here; charge liens
    come from the charges themselves. Status changes go through the services."""

    list_display = ["parcel", "kind", "amount", "constituted_on", "status", "origin_label", "presented_seq"]
    list_filter = ["kind", "status"]
    search_fields = ["parcel__cadastre", "origin_id", "origin_label", "notes"]
    list_select_related = ["parcel"]
    autocomplete_fields = ["parcel"]
    readonly_fields = ["status", "status_on", "status_reason", "origin_type", "origin_id", "created_by"]
    actions = ["satisfy", "reinstate"]
    inlines = [LienEventInline]

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            return
        services.lien_register(
            parcel=obj.parcel, kind=obj.kind, amount=obj.amount, constituted_on=obj.constituted_on,
            actor=request.user, origin_label=obj.origin_label, mortgage_terms=obj.mortgage_terms,
            district_cooperative=obj.district_cooperative,
            finances_public_infrastructure=obj.finances_public_infrastructure,
            presented_seq=obj.presented_seq, notes=obj.notes)

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Dar por satisfechos"))
    def satisfy(self, request, queryset):
        from django.core.exceptions import ValidationError

        for lien in queryset:
            try:
                services.lien_satisfy(lien=lien, on=timezone.localdate(), actor=request.user,
                                      reason="Acción de administración")
            except ValidationError as exc:   # LIEN-4: a charge's lien still securing something
                messages.error(request, f"#{lien.pk}: {' '.join(exc.messages)}")
                return
        messages.success(request, gettext("Hecho."))

    @admin.action(description=_("Reinstalar (vigentes)"))
    def reinstate(self, request, queryset):
        for lien in queryset:
            services.lien_reinstate(lien=lien, on=timezone.localdate(), actor=request.user,
                                    reason="Acción de administración")
        messages.success(request, gettext("Hecho."))


@admin.register(LienRuling)
class LienRulingAdmin(ReadOnlyAdmin):
    """Read-only: rulings are recorded and revoked by legal reviewers on the lien pages (services
    check the role, re-rank the parcel and write the audit entry)."""

    list_display = ["reference", "parcel", "higher", "lower", "decided_by", "decided_at"]
    search_fields = ["reference", "parcel__cadastre", "note"]
    list_select_related = ["parcel", "higher", "lower", "decided_by"]
    date_hierarchy = "decided_at"
