"""Staff pages of improvement billing, under /facturacion-mejoramiento/: the districts with their
billing runs, a district's runs with "Facturar año", and a run's charges and notices. Thin:
form → service → message."""
from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from assessments.improvement_billing import forms, selectors, services
from assessments.improvement_billing.models import BillingRun
from core import roles
from core.mixins import StaffRequiredMixin
from districts.models import District


class PageMixin(StaffRequiredMixin):
    """Staff read (auditors included); billing needs a writer role (core.mixins)."""

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["can_write"] = roles.can_write(self.request.user)
        return ctx


class DistrictListView(PageMixin, TemplateView):
    template_name = "improvement_billing/index.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        rows = []
        for district in selectors.improvement_districts():
            district_runs = list(selectors.runs(district))
            rows.append({"district": district, "runs": district_runs,
                         "billed": sum((r.charges_total for r in district_runs), 0),
                         "refused": sum(1 for r in district_runs if r.status == BillingRun.Status.REFUSED)})
        ctx["rows"] = rows
        return ctx


class DistrictRunsView(PageMixin, TemplateView):
    required_action = roles.FINALIZE
    template_name = "improvement_billing/district.html"

    def district(self) -> District:
        return get_object_or_404(selectors.improvement_districts(), code=self.kwargs["code"])

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        district = self.district()
        ctx.update(district=district, summary=selectors.district_summary(district),
                   form=kwargs.get("form") or forms.BillYearForm())
        return ctx

    def post(self, request, *args, **kwargs):
        district = self.district()
        form = forms.BillYearForm(request.POST)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form))
        d = form.cleaned_data
        try:
            run = services.improvement_bill(district=district, fiscal_year=d["fiscal_year"], actor=request.user,
                                            issued_on=d.get("issued_on"), trigger=BillingRun.Trigger.PAGE)
        except services.BillingRefused as exc:
            messages.error(request, _("No se facturó: %(m)s Se abrió un asunto en la cola de trabajo.") % {
                "m": exc.text})
            return redirect("improvement_billing:district", code=district.code)
        except ValidationError as exc:
            for msg in exc.messages:
                messages.error(request, msg)
            return self.render_to_response(self.get_context_data(form=form))
        messages.success(request, _("FY%(fy)s: %(n)s cargos nuevos por %(t)s.") % {
            "fy": run.fiscal_year, "n": run.created_now, "t": f"${run.created_total_now:,.2f}"})
        return redirect(run.get_absolute_url())


class RunDetailView(PageMixin, TemplateView):
    template_name = "improvement_billing/run.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        run = get_object_or_404(BillingRun.objects.select_related("district"), pk=self.kwargs["pk"])
        ctx.update(selectors.run_page(run))
        return ctx
