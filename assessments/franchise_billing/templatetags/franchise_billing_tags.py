"""The "Facturas" card on the franchise page (templates/franchises/detail.html)."""
from django import template
from django.utils import timezone

from assessments.franchise_billing import selectors

register = template.Library()


@register.inclusion_tag("franchise_billing/_card.html", takes_context=True)
def franchise_invoices_card(context, franchise):
    """Latest tariff invoices and metered bills of the franchise, what is open and overdue."""
    today = timezone.localdate()
    return {"franchise": franchise, "today": today, "can_write": context.get("can_write", False),
            **selectors.charge_summary(franchise, today)}
