from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FranchisesConfig(AppConfig):
    name = "franchises"
    verbose_name = _("Franquicias de extracción de agua")
