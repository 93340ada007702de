from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DistrictsConfig(AppConfig):
    name = "districts"
    verbose_name = _("Registro de tierras y distritos")
