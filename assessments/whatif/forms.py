"""Certified figures typed on the what-if page; the engines validate them (reserve ≤ 2 %, …)."""
from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from core.forms import AmountField
from districts.models import District

MONEY = {"max_digits": 14, "decimal_places": 2, "min_value": Decimal("0"), "initial": Decimal("0.00")}


class IrrigationFiguresForm(forms.Form):
    fiscal_year = forms.IntegerField(label=_("Año fiscal"), min_value=2000, max_value=2100)
    bond_interest = AmountField(label=_("Intereses de bonos"), **MONEY)
    bond_principal = AmountField(label=_("Principal de bonos"), **MONEY)
    bonds_outstanding = AmountField(label=_("Bonos en circulación"), **MONEY)
    om_cost = AmountField(label=_("Operación y conservación (DTOP)"), **MONEY)
    deficit = AmountField(label=_("Déficit del fondo de riego"), **MONEY)
    surplus = AmountField(label=_("Sobrante del fondo de riego"), **MONEY)
    estimated_hydro_income = AmountField(label=_("Ingreso hidroeléctrico estimado"), **MONEY)
    hydro_retained = AmountField(label=_("Retenido por DTOP (hasta 25 %)"), **MONEY)
    other_income = AmountField(label=_("Otros ingresos"), **MONEY)


class LajasFiguresForm(forms.Form):
    fiscal_year = forms.IntegerField(label=_("Año fiscal"), min_value=2000, max_value=2100)
    om_estimate = AmountField(label=_("Estimado de operación y mantenimiento"), **MONEY)
    reserve = AmountField(label=_("Reserva (hasta 2 %)"), **MONEY)
    water_right_credits = AmountField(label=_("Créditos por derechos de agua"), **MONEY)
    deficit = AmountField(label=_("Déficit del Fondo de Explotación"), **MONEY)
    surplus = AmountField(label=_("Sobrante del Fondo de Explotación"), **MONEY)
    misc_income = AmountField(label=_("Ingresos misceláneos"), **MONEY)


def figures_form_for(district: District, data=None, initial=None):
    cls = IrrigationFiguresForm if district.kind == District.Kind.IRRIGATION else LajasFiguresForm
    return cls(data=data, initial=initial)
