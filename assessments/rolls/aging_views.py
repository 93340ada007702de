"""Staff page of delinquency aging (padrones / morosidad): totals per bucket with an SVG chart, the
delinquent parcels, CSV/XLSX export and, for bonded irrigation districts, the IRR-12 seizure limit."""
from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from assessments.ledger import aging
from assessments.rolls import delinquency
from assessments.rolls.aging_forms import AgingFilterForm
from core.mixins import StaffRequiredMixin
from districts.models import District

PAGE_SIZE = 50
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class AgingView(StaffRequiredMixin, TemplateView):
    """Every staff role reads collections (auditors included); nothing here writes."""

    template_name = "rolls/aging.html"

    def get(self, request, *args, **kwargs):
        form = AgingFilterForm(request.GET)   # every field optional: an empty query means all, today
        if not form.is_valid():
            if request.GET.get("format") in ("csv", "xlsx"):
                text = "; ".join(f"{form.fields[f].label if f in form.fields else f}: {' '.join(e)}"
                                 for f, e in form.errors.items())
                return HttpResponse(text, status=400, content_type="text/plain; charset=utf-8")
            return self.render_to_response(self.get_context_data(form=form))
        data = form.cleaned_data
        district, fund = data.get("district"), data.get("fund")
        as_of = data["as_of"]
        filters = {"as_of": as_of, "fund_code": fund.code if fund else None,
                   "district_id": district.pk if district else None}
        irr12 = district is not None and district.kind == District.Kind.IRRIGATION
        fmt = request.GET.get("format")
        if fmt in ("csv", "xlsx"):
            rows = aging.delinquent_accounts(**filters)
            limits = delinquency.seizure_limits(rows, as_of) if irr12 else None
            name = f"morosidad-{district.code if district else 'todos'}-{as_of.isoformat()}"
            if fmt == "csv":
                response = HttpResponse(delinquency.export_csv(rows, limits), content_type="text/csv; charset=utf-8")
            else:
                response = HttpResponse(delinquency.export_xlsx(rows, limits), content_type=XLSX)
            response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
            return response
        summary, count = aging.aging_overview(**filters)
        rows = aging.DelinquentRows(count=count, **filters)      # one LIMIT/OFFSET query per page
        page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
        limits = delinquency.seizure_limits(list(page.object_list), as_of) if irr12 else {}
        for_page = [{"row": r, "seizure": limits.get(r.parcel_id)} for r in page.object_list]
        query = request.GET.copy()
        query.pop("page", None)
        query.pop("format", None)
        ctx = self.get_context_data(
            form=form, as_of=as_of, district=district, fund=fund, irr12=irr12, page_obj=page, items=for_page,
            summary=[{"key": k, "label": aging.BUCKET_LABELS[k], "value": summary[k]} for k in aging.BUCKET_KEYS],
            total=aging.summary_total(summary), chart=delinquency.aging_chart(summary), accounts=rows.count(),
            query=query.urlencode(), title=_("Morosidad por antigüedad"))
        return self.render_to_response(ctx)
