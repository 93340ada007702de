"""The filters of a report page: period, grouping, fund, district, statutory clock."""
from __future__ import annotations

from datetime import date

from django import forms
from django.utils.translation import gettext_lazy as _

from assessments.models import Fund
from assessments.reports.catalog import DISTRICT, END, FUND, GROUP, GROUP_LABELS, RULE, START, Filters, ReportSpec
from core.fiscal import fiscal_year_of, fiscal_year_start
from core.forms import DateInput
from districts.models import District

MAX_DAYS = 366 * 10     # a report spans at most ten years: enough for any office report, bounded work


class ReportFilterForm(forms.Form):
    start = forms.DateField(label=_("Desde"), widget=DateInput())
    end = forms.DateField(label=_("Hasta (o a la fecha)"),
                          widget=DateInput())
    group = forms.ChoiceField(label=_("Agrupar por"), choices=list(GROUP_LABELS.items()), required=False)
    fund = forms.ChoiceField(label=_("Fondo"), required=False)
    district = forms.ChoiceField(label=_("Distrito"), required=False)
    rule = forms.ChoiceField(label=_("Plazo"), required=False)

    def __init__(self, spec: ReportSpec, *args, today: date, **kwargs):
        kwargs.setdefault("initial", {"start": fiscal_year_start(fiscal_year_of(today)), "end": today,
                                      "group": "month"})
        super().__init__(*args, **kwargs)
        self.spec = spec
        for name in (START, END, GROUP, FUND, DISTRICT, RULE):
            if name not in spec.filters:
                del self.fields[name]
        if FUND in self.fields:
            self.fields[FUND].choices = [("", _("Todos los fondos"))] + list(
                Fund.objects.order_by("name").values_list("code", "name"))
        if DISTRICT in self.fields:
            districts = District.objects.order_by("kind", "name")
            if spec.district_kinds:
                districts = districts.filter(kind__in=spec.district_kinds)
            self.fields[DISTRICT].choices = [("", _("Todos los distritos"))] + list(
                districts.values_list("code", "name"))
        if RULE in self.fields:
            from assessments.reports.clocks import clock_rules

            self.fields[RULE].choices = [("", _("Todos los plazos"))] + [(r, r) for r in clock_rules()]

    def clean(self):
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if START not in self.spec.filters and end:
            data["start"] = start = end
        if start and end:
            if end < start:
                self.add_error("end", _("La fecha final (%(e)s) es anterior a la inicial (%(s)s).") % {
                    "e": end.strftime("%d/%m/%Y"), "s": start.strftime("%d/%m/%Y")})
            elif (end - start).days > MAX_DAYS:
                self.add_error("start", _("El período no puede pasar de diez años."))
        return data

    def filters(self) -> Filters:
        d = self.cleaned_data
        district = None
        if d.get("district"):
            district = District.objects.get(code=d["district"])
        fund_name = ""
        if d.get("fund"):
            fund_name = Fund.objects.get(code=d["fund"]).name
        return Filters(start=d["start"], end=d["end"], group=d.get("group") or "month",
                       fund_code=d.get("fund") or None, fund_name=fund_name,
                       district_id=district.pk if district else None,
                       district_name=district.name if district else "", rule=d.get("rule") or "")

    def district_office(self):
        code = self.cleaned_data.get("district")
        if not code:
            return None
        d = District.objects.select_related("office", "collecting_office").get(code=code)
        return d.collecting_office or d.office
