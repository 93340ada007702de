from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FranchiseBillingConfig(AppConfig):
    """Franchise tariff invoices, metered bills and FRA-4 funds, as their own app inside assessments."""

    name = "assessments.franchise_billing"
    label = "franchise_billing"
    verbose_name = _("Facturación de franquicias")

    def ready(self) -> None:
        # FRA-7: the registry asks billing for a franchise's water-use debt before a renewal.
        from assessments.franchise_billing.selectors import outstanding_debt
        from franchises.selectors import register_debt_provider

        register_debt_provider(outstanding_debt)
