from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ImprovementBillingConfig(AppConfig):
    """SID and TID benefit charges as receivables: billing runs, notices, liens and the collections feed."""

    name = "assessments.improvement_billing"
    label = "improvement_billing"
    verbose_name = _("Facturación de distritos de mejoramiento")
