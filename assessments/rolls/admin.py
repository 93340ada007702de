"""Read-only admin of the roll cycle: rolls are generated, certified and finalized by the services
(IRR/LAJ engines); a finalized roll is never edited, corrections are new RollCorrection rows."""
from django.apps import apps
from django.contrib import admin

from assessments.rolls.models import Roll, RollLine
from core.admin_mixins import ReadOnlyAdmin, register_histories, register_read_only


@admin.register(Roll)
class RollAdmin(ReadOnlyAdmin):
    list_display = ["district", "fiscal_year", "status", "line_count", "generated_at", "certified_at", "finalized_at"]
    list_filter = ["status", "fiscal_year"]
    list_select_related = ["district"]


@admin.register(RollLine)
class RollLineAdmin(ReadOnlyAdmin):
    list_display = ["roll", "cadastre", "weight", "share", "credit", "total", "exempt_reason"]
    search_fields = ["cadastre"]
    list_select_related = ["roll", "roll__district"]


# Figures, overrides, jobs and corrections (and any later table of this app): read-only lists.
register_read_only(*(m for m in apps.get_app_config("rolls").get_models() if not hasattr(m, "instance_type")))
register_histories("rolls")
