"""Rolls' dashboard items: rolls still in draft and certified figures with no roll yet. A roll
must be certified before July 1 of the fiscal year it bills (IRR-9, LAJ-6): that morning the
certified rolls are finalized and billed, so the last day to certify is June 30."""
from datetime import date

from django.urls import reverse
from django.utils.translation import gettext as _

from assessments.rolls.models import CertifiedFigures, Roll
from core import roles
from core.dashboard.items import Item
from core.dashboard.registry import Context, register


def certify_by(fiscal_year: int) -> date:
    """FY2027 starts 2026-07-01 (core.fiscal): its roll is certified by 2026-06-30."""
    return date(fiscal_year - 1, 6, 30)


def _rule(district) -> str:
    return "LAJ-6" if district.kind == "LAJAS" else "IRR-9"


@register("rolls")
def rolls_waiting(ctx: Context):
    for roll in Roll.objects.filter(status=Roll.Status.DRAFT).select_related("district__office"):
        d = roll.district
        yield Item(key=f"roll:{roll.pk}:certify", kind="roll", kind_label=_("Padrón por certificar"),
                   rule=_rule(d), title=_("Certificar el padrón %(roll)s antes del 1 de julio") % {"roll": roll},
                   detail=_("%(n)s líneas en borrador") % {"n": roll.line_count},
                   due_date=certify_by(roll.fiscal_year), url=roll.get_absolute_url(),
                   district_id=d.pk, district_name=d.name, office_id=d.office_id, office_name=d.office.name,
                   roles=(roles.APPROVER, roles.ADMINISTRATOR))
    current_fy = ctx.today.year + 1 if ctx.today.month >= 7 else ctx.today.year
    for figures in (CertifiedFigures.objects.filter(fiscal_year__gte=current_fy, rolls__isnull=True)
                    .select_related("district__office")):
        d = figures.district
        yield Item(key=f"figures:{figures.pk}:generate", kind="roll", kind_label=_("Padrón por generar"),
                   rule=_rule(d),
                   title=_("Generar el padrón %(d)s — FY%(fy)s") % {"d": d.name, "fy": figures.fiscal_year},
                   detail=_("Cifras certificadas por %(who)s") % {"who": figures.certified_by},
                   due_date=certify_by(figures.fiscal_year),
                   url=reverse("rolls:generate", args=[d.code, figures.fiscal_year]),
                   district_id=d.pk, district_name=d.name, office_id=d.office_id, office_name=d.office.name,
                   roles=(roles.STAFF, roles.ADMINISTRATOR))
