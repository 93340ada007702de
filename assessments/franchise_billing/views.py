"""Staff pages of franchise billing: the invoice run, a franchise's invoices and metered bills,
the AAA's readings file, and FRA-4's transfers to the AAA. Thin: forms → services → messages."""
from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from assessments.franchise_billing import forms, rules, selectors, services
from assessments.franchise_billing.models import InvoiceRun, ReadingImport
from core import roles
from core.fiscal import fiscal_year_of
from core.mixins import StaffRequiredMixin
from core.spreadsheets import csv_writer
from core.uploads import DEFAULT_MAX_BYTES, read_at_most
from franchises.models import Franchise, TariffClass

CLASS_LABELS = dict(TariffClass.choices)


def _errors(request, exc: ValidationError) -> None:
    for msg in exc.messages:
        messages.error(request, msg)


class BillingPageMixin(StaffRequiredMixin):
    """Staff read (auditors included); any write needs a writer role (core.mixins)."""

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["can_write"] = roles.can_write(self.request.user)
        ctx["class_labels"] = CLASS_LABELS
        ctx["tab"] = getattr(self, "tab", "")
        return ctx


class InvoiceRunView(BillingPageMixin, TemplateView):
    """FRA-3: choose a fiscal year, run its tariff invoices, read the run's report."""

    required_action = roles.FINALIZE

    template_name = "franchise_billing/run.html"
    tab = "run"

    def _fiscal_year(self) -> int:
        try:
            return int(self.request.GET.get("fiscal_year") or fiscal_year_of(timezone.localdate()))
        except ValueError:
            return fiscal_year_of(timezone.localdate())

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        fy = self._fiscal_year()
        runs = list(selectors.runs_for(fy))
        chosen = None
        if self.request.GET.get("run", "").isdigit():
            chosen = InvoiceRun.objects.filter(pk=self.request.GET["run"], fiscal_year=fy).first()
        chosen = chosen or (runs[0] if runs else None)
        totals = [{**t, "label": CLASS_LABELS.get(t["tariff_class"], "")} for t in selectors.invoice_totals(fy)]
        report = None
        if chosen:  # the stored report keeps ISO dates; the page shows them as dates
            report = {**chosen.report, "created": [
                {**c, "installments": [(date.fromisoformat(d), a) for d, a in c["installments"]]}
                for c in chosen.report.get("created", [])]}
        ctx.update(fiscal_year=fy, runs=runs, chosen=chosen, report=report,
                   form=kwargs.get("form") or forms.InvoiceRunForm(initial={"fiscal_year": fy}),
                   fy_totals=totals, fy_total=sum((t["amount"] for t in totals), 0),
                   fy_count=sum(t["count"] for t in totals), metered=selectors.metered_totals(fy))
        return ctx

    def post(self, request, *args, **kwargs):
        form = forms.InvoiceRunForm(request.POST)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form))
        d = form.cleaned_data
        try:
            run = services.franchise_invoices_generate(fiscal_year=d["fiscal_year"], issued_on=d.get("issued_on"),
                                                       actor=request.user, trigger=InvoiceRun.Trigger.PAGE)
        except ValidationError as exc:
            _errors(request, exc)
            return redirect(f"{reverse('franchise_billing:run')}?fiscal_year={d['fiscal_year']}")
        messages.success(request, _("FY%(fy)s: %(n)s facturas nuevas por %(t)s.") % {
            "fy": run.fiscal_year, "n": run.created_count, "t": f"${run.created_total:,.2f}"})
        return redirect(run.get_absolute_url())


class FranchiseBillingView(BillingPageMixin, TemplateView):
    """A franchise's tariff invoices and metered bills, what is open, the readings still to bill."""

    required_action = roles.FINALIZE

    template_name = "franchise_billing/franchise.html"
    tab = "franchise"

    def franchise(self) -> Franchise:
        return get_object_or_404(Franchise.objects.select_related("holder", "office"), pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        f = self.franchise()
        today = timezone.localdate()
        charges = list(selectors.charges_for(f))
        open_by = selectors.open_amounts(c.receivable_id for c in charges)
        rows = [{"charge": c, "open": open_by.get(c.receivable_id, 0)} for c in charges]
        ctx.update(franchise=f, today=today,
                   invoices=[r for r in rows if r["charge"].kind == "TARIFF"],
                   corrections=[r for r in rows if r["charge"].kind in ("SUPPLEMENT", "CREDIT")],
                   bills=[r for r in rows if r["charge"].kind == "METERED"],
                   unbilled=selectors.unbilled_readings(f, today),
                   summary=selectors.charge_summary(f, today),
                   form=kwargs.get("form") or forms.BillReadingsForm())
        return ctx

    def post(self, request, *args, **kwargs):
        f = self.franchise()
        form = forms.BillReadingsForm(request.POST)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form))
        try:
            result = services.meter_bills_create(franchise=f, actor=request.user,
                                                 billed_on=form.cleaned_data.get("billed_on"))
        except ValidationError as exc:
            _errors(request, exc)
        else:
            messages.success(request, _("%(n)s facturas por contador por %(t)s; %(z)s meses sin cargo.") % {
                "n": len(result.created), "t": f"${result.total:,.2f}", "z": len(result.no_charge)})
        return redirect("franchise_billing:franchise", pk=f.pk)


class ReadingImportView(BillingPageMixin, TemplateView):
    """The AAA's monthly readings file: all or nothing, errors by row and column."""

    required_action = roles.DRAFT

    template_name = "franchise_billing/import.html"
    tab = "import"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx.setdefault("form", forms.ReadingImportForm())
        ctx["imports"] = ReadingImport.objects.select_related("uploaded_by")[:15]
        if self.request.GET.get("import", "").isdigit():
            ctx["done"] = ReadingImport.objects.filter(pk=self.request.GET["import"]).first()
        return ctx

    def post(self, request, *args, **kwargs):
        form = forms.ReadingImportForm(request.POST, request.FILES)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form))
        upload = form.cleaned_data["file"]
        try:
            record = services.meter_readings_import(content=read_at_most(upload, DEFAULT_MAX_BYTES),
                                                    filename=upload.name, actor=request.user,
                                                    billed_on=form.cleaned_data.get("billed_on"))
        except services.ReadingImportError as exc:
            messages.error(request, _("Archivo rechazado completo: no se registró nada."))
            return self.render_to_response(self.get_context_data(form=form, row_errors=exc.rows))
        except ValidationError as exc:
            _errors(request, exc)
            return self.render_to_response(self.get_context_data(form=form))
        messages.success(request, _("%(f)s: %(n)s lecturas, %(b)s facturas nuevas por %(t)s.") % {
            "f": record.filename, "n": record.report["rows"], "b": record.report["bills_created"],
            "t": f"${Decimal(record.report['bills_total']):,.2f}"})
        return redirect(f"{reverse('franchise_billing:import')}?import={record.pk}")


def fra4_csv(report: selectors.Fra4Report) -> str:
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(["period", "start", "end", "tariff_class", "collected", "transferred_to_aaa", "retained"])
    p = report.period
    for r in report.rows:
        w.writerow([p.label, p.start, p.end, r.tariff_class, r.collected, r.transferred, r.retained])
    w.writerow([p.label, p.start, p.end, "TOTAL", report.collected, report.transferred, report.retained])
    return buf.getvalue()


class TransfersView(BillingPageMixin, TemplateView):
    """FRA-4: collections by class for a month, fiscal quarter or fiscal year; the AAA's 90 %
    of GROUND_INDUSTRIAL rounded once on the period; the transfers recorded; CSV export."""

    required_action = roles.PAY

    template_name = "franchise_billing/transfers.html"
    tab = "funds"

    def period(self) -> tuple[rules.Period, forms.PeriodForm]:
        label = self.request.GET.get("period")
        if label:
            try:
                period = rules.period_from_label(label)
            except ValueError as exc:
                raise Http404(str(exc)) from exc
            return period, forms.PeriodForm(initial=forms.PeriodForm.initial_for(period))
        form = forms.PeriodForm(self.request.GET or None)
        if form.is_bound and form.is_valid():
            return form.cleaned_data["period"], form
        today = timezone.localdate()
        period = rules.period_from_label(f"{today:%Y-%m}")
        return period, forms.PeriodForm(initial=forms.PeriodForm.initial_for(period))

    def get(self, request, *args, **kwargs):
        period, form = self.period()
        report = selectors.fra4_report(period)
        if request.GET.get("format") == "csv":
            response = HttpResponse(fra4_csv(report), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="fra4-{period.label}.csv"'
            return response
        rows = [(r, CLASS_LABELS.get(r.tariff_class, "")) for r in report.rows]
        return self.render_to_response(self.get_context_data(report=report, rows=rows, period_form=form,
                                                              period=period))

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        period = kwargs["period"]
        ctx.setdefault("transfer_form", forms.TransferForm(initial={"period": period.label,
                                                                    "transferred_on": timezone.localdate()}))
        ctx["transfers"] = selectors.recent_transfers()
        ctx["overlap"] = list(selectors.overlapping_transfers(period))
        return ctx

    def post(self, request, *args, **kwargs):
        form = forms.TransferForm(request.POST)
        label = request.POST.get("period", "")
        if form.is_valid():
            d = form.cleaned_data
            try:
                transfer = services.aaa_transfer_record(period=d["period"], transferred_on=d["transferred_on"],
                                                        reference=d["reference"], notes=d["notes"],
                                                        actor=request.user)
            except ValidationError as exc:
                _errors(request, exc)
            else:
                messages.success(request, _("Transferencia a la AAA de %(p)s registrada: %(t)s.") % {
                    "p": transfer.period_label, "t": f"${transfer.transferred:,.2f}"})
        else:
            for errs in form.errors.values():
                for e in errs:
                    messages.error(request, e)
        return redirect(f"{reverse('franchise_billing:transfers')}?period={label}")
