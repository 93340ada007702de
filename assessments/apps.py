from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AssessmentsConfig(AppConfig):
    name = "assessments"
    verbose_name = _("Cargos, padrones y cobros")

    def ready(self):
        # LIEN-4: a charge's lien secures what the ledger says is still open (liens never import us).
        from assessments.ledger.selectors import principal_open_on
        from assessments.models import Receivable
        from liens.outstanding import register_source

        register_source(Receivable.LIEN_ORIGIN, principal_open_on)
