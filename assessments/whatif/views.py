"""What-if: certified figures → the roll as it would be, before anything is saved."""
from datetime import date

from django.shortcuts import get_object_or_404
from django.views.generic import TemplateView

from assessments.compute import ComputeInputError, run
from assessments.engine_inputs import roll_payload
from assessments.whatif.forms import figures_form_for
from core.fiscal import fiscal_year_of
from core.mixins import StaffRequiredMixin
from core.parameters import DatabaseParameters
from districts.models import District

SAMPLE = 25


def _irrigation_districts():
    return District.objects.filter(kind__in=[District.Kind.IRRIGATION, District.Kind.LAJAS]).order_by("kind", "name")


class WhatIfView(StaffRequiredMixin, TemplateView):
    """Reads only: staff and auditors alike may simulate (GET with the figures in the query)."""

    template_name = "whatif/page.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        districts = _irrigation_districts()
        ctx["districts"] = districts
        code = self.request.GET.get("district") or (districts[0].code if districts else None)
        if not code:
            return ctx
        district = get_object_or_404(districts, code=code)
        ctx["district"] = district
        submitted = "fiscal_year" in self.request.GET
        next_fy = fiscal_year_of(date.today()) + 1
        form = figures_form_for(district, data=self.request.GET if submitted else None,
                                initial={"fiscal_year": next_fy})
        ctx["form"] = form
        if submitted and form.is_valid():
            figures = {k: str(v) for k, v in form.cleaned_data.items()}
            figures["fiscal_year"] = form.cleaned_data["fiscal_year"]
            try:
                result = run("irrigation-roll" if district.kind == District.Kind.IRRIGATION else "lajas-roll",
                             roll_payload(district, figures), params=DatabaseParameters())
            except ComputeInputError as exc:
                name = exc.field if exc.field in form.fields else None
                form.add_error(name, exc.message)
            else:
                ctx["result"] = result
                ctx["sample"] = result["parcels"][:SAMPLE]
                ctx["exempt_count"] = sum(1 for p in result["parcels"] if _is_exempt(p))
        return ctx


def _is_exempt(parcel: dict) -> bool:
    if parcel.get("exempt_reason"):
        return True
    return any(line.get("exempt_reason") for line in parcel.get("lines", []))
