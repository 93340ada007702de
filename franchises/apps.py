from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FranchisesConfig(AppConfig):
    name = "franchises"
    verbose_name = _("Franquicias de extracción de agua")

    def ready(self):
        from core.words import register_words
        from franchises.models import Exemption, TariffClass, Use

        # Pages that hold only the code (billing reports, JSON breakdowns) show these words instead.
        register_words(Use, Exemption, TariffClass)  # a tariff class wins where a use has the same code
