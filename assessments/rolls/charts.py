"""Figures for the roll page's charts (server-side SVG bars; no chart library to load)."""
from __future__ import annotations

from decimal import Decimal

from django.db.models import Count, Q, Sum
from django.utils.translation import gettext as _

from assessments.rolls.models import Roll, RollLine


def _bars(items: list[tuple[str, Decimal, str]]) -> dict:
    top = max((v for _, v, _ in items), default=Decimal(0)) or Decimal(1)
    return {"bars": [{"label": label, "value": value, "pct": float(value / top * 100), "color": color}
                     for label, value, color in items]}


def charges_by_kind(roll: Roll) -> dict:
    lines = RollLine.objects.filter(roll=roll)
    if roll.is_irrigation:
        agg = lines.aggregate(
            billed=Sum("total", filter=Q(exempt_reason="")), billed_n=Count("id", filter=Q(exempt_reason="")),
            water=Count("id", filter=Q(exempt_reason="WATER_BELOW_MINIMUM")),
            free=Count("id", filter=Q(exempt_reason="FREE_PERIOD")),
            partial=Sum("total", filter=~Q(exempt_reason="")))
        items = [(_("Cobrado según parte o tope (IRR-5/IRR-6)"), agg["billed"] or Decimal(0), "#13507f"),
                 (_("Parcelas con algún semestre exento: lo que sí se cobra"), agg["partial"] or Decimal(0), "#0f7c7a"),
                 (_("Asignación legislativa necesaria (IRR-7)"),
                  max(Decimal(roll.totals.get("appropriation_needed", "0")), Decimal(0)), "#a15c00")]
        counts = {"billed": agg["billed_n"], "water": agg["water"], "free": agg["free"]}
    else:
        agg = lines.aggregate(net=Sum("total"), credit=Sum("credit"),
                              exempt=Sum("share", filter=Q(exempt_reason="NOT_YET_LIABLE")),
                              exempt_n=Count("id", filter=Q(exempt_reason="NOT_YET_LIABLE")))
        items = [(_("Neto a cobrar (LAJ-4)"), agg["net"] or Decimal(0), "#13507f"),
                 (_("Créditos por derechos de agua (LAJ-4)"), agg["credit"] or Decimal(0), "#0f7c7a"),
                 (_("No cobrado: aún no obligadas (LAJ-5)"), agg["exempt"] or Decimal(0), "#a15c00")]
        counts = {"exempt": agg["exempt_n"]}
    return {**_bars(items), "counts": counts}


def collections_against_total(roll: Roll) -> dict | None:
    """Collected so far against the roll's billed total, once the roll is billed."""
    if roll.billed_at is None:
        return None
    from assessments.rolls.billing import roll_collected

    billed = Decimal(roll.totals.get("billed_total", "0"))
    collected = roll_collected(roll)
    return {**_bars([("Facturado", billed, "#13507f"), ("Cobrado", collected, "#1e7b3a")]),
            "pct": float(collected / billed * 100) if billed else 0.0}
