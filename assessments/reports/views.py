"""Report pages under /informes/: the index, and each report with its filters, table, chart and
downloads (PDF through the document service, XLSX). Office staff only (auditors included)."""
from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404, HttpResponse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.generic import TemplateView

from assessments.reports import catalog, exports
from assessments.reports.forms import ReportFilterForm
from core.documents.services import document_download_record
from core.mixins import StaffRequiredMixin

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class ReportIndexView(StaffRequiredMixin, TemplateView):
    template_name = "reports/index.html"

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "reports": list(catalog.REPORTS.values())}


class ReportView(StaffRequiredMixin, TemplateView):
    template_name = "reports/report.html"

    def get(self, request, slug: str):
        spec = catalog.REPORTS.get(slug)
        if spec is None:
            raise Http404("unknown report")
        today = timezone.localdate()
        params = request.GET.copy()
        fmt = params.pop("format", [""])[0]
        form = ReportFilterForm(spec, params if params else None, today=today)
        if not params:
            form = ReportFilterForm(spec, {k: (v.isoformat() if hasattr(v, "isoformat") else v)
                                           for k, v in form.initial.items()}, today=today)
        if not form.is_valid():
            return self.render_to_response({"spec": spec, "form": form, "report": None}, status=400)
        filters = form.filters()
        report = catalog.build(slug, filters)
        name = f"informe-{slug}-{form.cleaned_data['start']:%Y%m%d}-{form.cleaned_data['end']:%Y%m%d}"
        if fmt == "xlsx":
            response = HttpResponse(exports.report_xlsx(report), content_type=XLSX)
            response["Content-Disposition"] = f'attachment; filename="{name}.xlsx"'
            return response
        if fmt == "pdf":
            document = exports.report_pdf(report, filters=filters, office=form.district_office(),
                                          actor=request.user)
            document_download_record(document=document, user=request.user, ip=request.META.get("REMOTE_ADDR"))
            with document.file.open("rb") as fh:
                response = HttpResponse(fh.read(), content_type="application/pdf")
            response["Content-Disposition"] = f'attachment; filename="{name}.pdf"'
            return response
        query = urlencode({k: v for k, v in form.data.items() if v})
        # The chart is our own markup: every text in it went through html.escape in charts.py.
        chart = mark_safe(report.chart_svg)  # noqa: S308
        return self.render_to_response({"spec": spec, "form": form, "report": report, "chart": chart, "query": query})
