from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NoticesConfig(AppConfig):
    """Charge notices (avisos de cobro) and their mailing, as their own app inside assessments."""

    name = "assessments.notices"
    label = "notices"
    verbose_name = _("Avisos de cobro")
