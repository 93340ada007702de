"""Rolls' dashboard items: rolls still in draft and certified figures with no roll yet. A roll
must be certified before July 1 of the fiscal year it bills (IRR-9, LAJ-6): that morning the
certified rolls are finalized and billed, so the last day to certify is June 30."""
from datetime import date

from django.urls import reverse
from django.utils.translation import gettext as _

from assessments.rolls.models import CertifiedFigures, Roll, RollOverride
from core import roles
from core.dashboard.items import Item
from core.dashboard.registry import Context, register
from core.dashboard.waiting import Waiting, register_waiting


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


@register_waiting
def rolls_waiting_on_role(user):
    """Line changes to approve (not one's own: four eyes), drafts to certify, figures to generate."""
    changes = RollOverride.objects.filter(status=RollOverride.Status.PENDING).exclude(requested_by=user)
    in_rolls = set(changes.values_list("line__roll_id", flat=True))
    url = reverse("rolls:detail", args=[in_rolls.pop()]) if len(in_rolls) == 1 else reverse("rolls:list")
    yield Waiting(key="line_change", action=roles.APPROVE, label=_("Cambios de líneas de padrón por aprobar"),
                  count=changes.count(), url=url, order=10)
    yield Waiting(key="roll_certify", action=roles.CERTIFY, label=_("Padrones en borrador por certificar"),
                  count=Roll.objects.filter(status=Roll.Status.DRAFT).count(), url=reverse("rolls:list"),
                  order=20)
    yield Waiting(key="roll_generate", action=roles.DRAFT, label=_("Cifras certificadas sin padrón generado"),
                  count=CertifiedFigures.objects.filter(rolls__isnull=True).count(), url=reverse("rolls:list"),
                  order=20)
