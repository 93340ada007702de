from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LiensConfig(AppConfig):
    name = "liens"
    verbose_name = _("Gravámenes")
