"""Staff pages of the roll cycle: figures, generation with progress, review, overrides, certify, finalize."""
from __future__ import annotations

import io

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db import transaction
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import FormView, TemplateView

from assessments.rolls import charts, irr9, jobs, progress, services
from assessments.rolls.forms import OverrideForm, certified_form_for
from assessments.rolls.models import CertifiedFigures, Roll, RollJob, RollLine, RollOverride
from core import roles
from core.mixins import StaffRequiredMixin, WriterRequiredMixin
from core.spreadsheets import csv_writer, write_only_row
from districts.models import District


def _roll_districts():
    return District.objects.filter(kind__in=[District.Kind.IRRIGATION, District.Kind.LAJAS]).order_by("kind", "name")


class RollListView(StaffRequiredMixin, TemplateView):
    template_name = "rolls/list.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        from django.db.models import Exists, OuterRef

        ctx["rolls"] = Roll.objects.select_related("district").order_by("-fiscal_year", "district__name")
        # A roll past its draft is not generated again: its row offers no "Generar padrón".
        past_draft = Roll.objects.filter(district=OuterRef("district"), fiscal_year=OuterRef("fiscal_year")).exclude(
            status=Roll.Status.DRAFT)
        ctx["figures"] = (CertifiedFigures.objects.select_related("district").annotate(roll_locked=Exists(past_draft))
                          .order_by("-fiscal_year"))
        ctx["districts"] = _roll_districts()
        ctx["jobs"] = RollJob.objects.select_related("district")[:5]
        return ctx


class FiguresView(WriterRequiredMixin, FormView):
    required_action = roles.DRAFT
    template_name = "rolls/figures.html"

    # Looked up lazily, after the role check in dispatch: a refused visitor learns nothing.
    @cached_property
    def district(self):
        return get_object_or_404(_roll_districts(), code=self.kwargs["code"])

    @cached_property
    def fiscal_year(self) -> int:
        return int(self.kwargs["fy"])

    @cached_property
    def existing(self):
        return CertifiedFigures.objects.filter(district=self.district, fiscal_year=self.fiscal_year).first()

    def get_form(self, form_class=None):
        initial = {"fiscal_year": self.fiscal_year}
        if self.existing:
            initial.update(self.existing.figures, certified_by=self.existing.certified_by,
                           certified_on=self.existing.certified_on)
        data = self.request.POST if self.request.method == "POST" else None
        return certified_form_for(self.district, data=data, files=self.request.FILES or None, initial=initial)

    def form_valid(self, form):
        data = dict(form.cleaned_data)
        try:
            services.figures_save(district=self.district, fiscal_year=self.fiscal_year, figures=data,
                                  certified_by=data["certified_by"], certified_on=data["certified_on"],
                                  document=data.get("document"), actor=self.request.user)
        except ValidationError as exc:
            for field, errs in getattr(exc, "message_dict", {"__all__": exc.messages}).items():
                form.add_error(field if field in form.fields else None, errs)
            return self.form_invalid(form)
        messages.success(self.request, "Cifras certificadas guardadas.")
        return redirect("rolls:list")

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx.update(district=self.district, fiscal_year=self.fiscal_year, existing=self.existing)
        return ctx


class GenerateView(WriterRequiredMixin, View):
    required_action = roles.DRAFT
    def get(self, request, code: str, fy: int):
        return redirect("rolls:list")   # links (the dashboard's) land on the list, whose button posts

    def post(self, request, code: str, fy: int):
        from assessments.rolls.tasks import roll_generate_task

        district = get_object_or_404(_roll_districts(), code=code)
        roll = Roll.objects.filter(district=district, fiscal_year=fy).first()
        if roll is not None and roll.status != Roll.Status.DRAFT:   # refused now: no job that waits for nothing
            messages.error(request, services.generate_refusal(roll))
            return redirect(roll.get_absolute_url())
        if not CertifiedFigures.objects.filter(district=district, fiscal_year=fy).exists():
            messages.error(request, _("Faltan las cifras certificadas de %(d)s para el año fiscal %(fy)s.") % {
                "d": district.code, "fy": fy})
            return redirect("rolls:list")
        job = RollJob.objects.create(district=district, fiscal_year=fy, requested_by=request.user)
        transaction.on_commit(lambda: roll_generate_task.delay(job.pk))
        return redirect("rolls:job", pk=job.pk)


class JobView(StaffRequiredMixin, TemplateView):
    template_name = "rolls/job.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        job = get_object_or_404(RollJob.objects.select_related("district"), pk=kwargs["pk"])
        ctx["job"], ctx["state"] = job, progress.job_state(job)
        ctx["roll"] = Roll.objects.filter(district=job.district, fiscal_year=job.fiscal_year).first()
        return ctx


class JobStateView(StaffRequiredMixin, View):
    def get(self, request, pk: int):
        job = get_object_or_404(RollJob, pk=pk)
        state = progress.job_state(job)
        roll = Roll.objects.filter(district_id=job.district_id, fiscal_year=job.fiscal_year).first()
        state["roll_url"] = roll.get_absolute_url() if roll and job.status == RollJob.Status.DONE else None
        return JsonResponse(state)


class RollDetailView(StaffRequiredMixin, TemplateView):
    template_name = "rolls/detail.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        roll = get_object_or_404(Roll.objects.select_related("district", "figures", "certified_by"), pk=kwargs["pk"])
        q = self.request.GET.get("q", "").strip()
        lines = RollLine.objects.filter(roll=roll).order_by("cadastre")
        if q:
            lines = lines.filter(cadastre__icontains=q)
        page = Paginator(lines, 50).get_page(self.request.GET.get("page"))
        ctx.update(roll=roll, page_obj=page, q=q, totals=roll.totals,
                   overrides=RollOverride.objects.filter(line__roll=roll).select_related(
                       "line", "requested_by", "approved_by"),
                   chart=charts.charges_by_kind(roll), collections=charts.collections_against_total(roll),
                   can_write=roles.can_write(self.request.user),
                   water_price_missing=not roll.is_irrigation and not _has_parameter("laj_water_sales", roll),
                   irr9=irr9.terms_for_roll(roll) if roll.is_irrigation else None)
        ctx["corrections"] = roll_corrections(roll)
        # Issue #17: missing water records for IRR-8's semesters, said before the review (not found after).
        from assessments.rolls.water_check import water_records_warning

        ctx["water_warning"] = water_records_warning(roll)
        certify_job = last_roll_job(roll, CERTIFY)
        if certify_job is not None:
            ctx.update(certify_job=certify_job, certify_state=progress.job_state(certify_job),
                       show_certify_job=_job_card_shown(certify_job, roll, Roll.Status.DRAFT, Roll.Status.CERTIFIED,
                                                        services.certify_refusals))
        finalize_job = last_roll_job(roll, FINALIZE)
        if finalize_job is not None:
            ctx.update(finalize_job=finalize_job, finalize_state=progress.job_state(finalize_job),
                       show_finalize_job=_job_card_shown(finalize_job, roll, Roll.Status.CERTIFIED,
                                                         Roll.Status.FINALIZED, services.finalize_refusals))
        return ctx


def _job_card_shown(job: RollJob, roll: Roll, before: str, after: str, refusals) -> bool:
    """A running job's card shows its progress; a finished one shows while the roll is in the state it
    produced. A failed job's card shows while its cause lasts: a refusal whose reason no longer holds
    (the pending change was decided) is gone; an unexpected error stays until a new attempt."""
    if job.status in (RollJob.Status.QUEUED, RollJob.Status.RUNNING):
        return True
    if job.status == RollJob.Status.DONE:
        return roll.status == after
    if roll.status != before:
        return False
    return job.message.startswith(services.UNEXPECTED) or bool(refusals(roll))


def roll_corrections(roll: Roll):
    """Corrections and supplements of the roll (new entries; its lines are never edited)."""
    from django.db.models import Count

    from assessments.rolls.models import RollCorrection

    return (RollCorrection.objects.filter(roll=roll).select_related("parcel", "source_parcel", "receivable")
            .annotate(entry_count=Count("entries")).order_by("-created_at", "-pk"))


def _has_parameter(family: str, roll: Roll) -> bool:
    """Whether an administrator has entered a parameter family the law leaves to them."""
    from datetime import date

    from core.parameters import DatabaseParameters

    try:
        DatabaseParameters().get(family, date(roll.fiscal_year, 6, 30))
    except LookupError:
        return False
    return True


class OverrideView(WriterRequiredMixin, FormView):
    required_action = roles.REQUEST
    template_name = "rolls/override.html"
    form_class = OverrideForm

    @cached_property
    def line(self):
        return get_object_or_404(RollLine.objects.select_related("roll", "roll__district"), pk=self.kwargs["line"])

    def form_valid(self, form):
        try:
            services.override_request(line=self.line, actor=self.request.user, **form.cleaned_data)
        except ValidationError as exc:
            form.add_error(None, exc.messages)
            return self.form_invalid(form)
        messages.success(self.request, "Cambio registrado; otra persona debe aprobarlo.")
        return redirect(self.line.roll.get_absolute_url())

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "line": self.line}


class OverrideDecideView(WriterRequiredMixin, View):
    required_action = roles.APPROVE
    def post(self, request, pk: int):
        override = get_object_or_404(RollOverride.objects.select_related("line__roll"), pk=pk)
        try:
            services.override_decide(override=override, approve=request.POST.get("decision") == "approve",
                                     actor=request.user)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        return redirect(override.line.roll.get_absolute_url())


class RollActionView(WriterRequiredMixin, View):
    """Certify or finalize from the roll page: the URL's action is the role matrix's action."""

    def get_required_action(self, request) -> str:
        return roles.FINALIZE if self.kwargs.get("action") == FINALIZE else roles.CERTIFY

    def get(self, request, pk: int, action: str):
        """The confirmation page: what the step will do (lines, total, liens, notices), what stops it
        now, and who can correct what afterwards. Only its button posts."""
        from django.shortcuts import render

        from assessments.rolls import confirm

        roll = get_object_or_404(Roll.objects.select_related("district"), pk=pk)
        if action not in (CERTIFY, FINALIZE):
            return redirect(roll.get_absolute_url())
        preview = confirm.certify_preview(roll) if action == CERTIFY else confirm.finalize_preview(roll)
        return render(request, "rolls/confirm.html", {
            "roll": roll, "preview": preview, "active_job": active_roll_job(roll, action)})

    def post(self, request, pk: int, action: str):
        roll = get_object_or_404(Roll, pk=pk)
        if action == "certify":
            return self.certify(request, roll)
        if action == "finalize":
            return self.finalize(request, roll)
        return redirect(roll.get_absolute_url())

    def certify(self, request, roll: Roll):
        """Certifying bills every line (minutes on a large roll): a worker does it; the roll page shows
        the progress. A job already queued or running for the roll is reused, not doubled."""
        if roll.status != Roll.Status.DRAFT:
            messages.info(request, _("El padrón ya estaba certificado."))
            return redirect(roll.get_absolute_url())
        try:
            jobs.request_certify(roll, request.user)
        except services.RollError as exc:   # said now, not by a job that fails a moment later
            messages.error(request, " ".join(exc.messages))
            return redirect(roll.get_absolute_url())
        messages.info(request, _("Certificación en curso: se facturan las líneas del padrón."))
        return redirect(roll.get_absolute_url())

    def finalize(self, request, roll: Roll):
        """Finalizing constitutes the lien of every open charge (minutes on a large roll): a worker does
        it, as with certification, and the roll page shows the progress."""
        if roll.status == Roll.Status.FINALIZED:
            messages.info(request, _("El padrón ya estaba finalizado."))
            return redirect(roll.get_absolute_url())
        try:
            jobs.request_finalize(roll, request.user)
        except services.RollError as exc:   # said now, not by a job that fails a moment later
            messages.error(request, " ".join(exc.messages))
            return redirect(roll.get_absolute_url())
        messages.info(request, _("Finalización en curso: se constituyen los gravámenes de los cargos abiertos."))
        return redirect(roll.get_absolute_url())


# The job helpers live in assessments.rolls.jobs (the API queues the same jobs); their old names stay here.
CERTIFY, FINALIZE = jobs.CERTIFY, jobs.FINALIZE
queue_roll_job, active_roll_job, last_roll_job = jobs.queue_roll_job, jobs.active_roll_job, jobs.last_roll_job


EXPORT_HEADER = ["catastro", "acres_o_peso", "parte_o_bruto", "credito", "a_cobrar", "exencion", "detalle"]


class RollExportView(StaffRequiredMixin, View):
    def get(self, request, pk: int):
        roll = get_object_or_404(Roll.objects.select_related("district"), pk=pk)
        fmt = request.GET.get("format", "csv")
        rows = RollLine.objects.filter(roll=roll).order_by("cadastre").values_list(
            "cadastre", "weight", "share", "credit", "total", "exempt_reason", "detail")
        name = f"padron-{roll.district.code}-FY{roll.fiscal_year}"
        if fmt == "xlsx":
            return _xlsx(name, rows)
        buf = io.StringIO()
        writer = csv_writer(buf)
        writer.writerow(EXPORT_HEADER)
        for cad, w, s, c, t, ex, detail in rows.iterator(chunk_size=5000):
            writer.writerow([cad, w, s, c, t, ex, _detail_text(detail)])
        response = HttpResponse(buf.getvalue(), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
        return response


def _detail_text(detail: list) -> str:
    return "; ".join(f"{d.get('period', d.get('due_date'))} {d['amount']} {d.get('rule', '')}".strip() for d in detail)


def _xlsx(name: str, rows) -> HttpResponse:
    from openpyxl import Workbook

    wb = Workbook(write_only=True)
    ws = wb.create_sheet("Padrón")
    ws.append(write_only_row(ws, EXPORT_HEADER))
    for cad, w, s, c, t, ex, detail in rows.iterator(chunk_size=5000):
        ws.append(write_only_row(ws, [cad, w, s, c, t, ex, _detail_text(detail)]))
    out = io.BytesIO()
    wb.save(out)
    response = HttpResponse(out.getvalue(),
                            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    response["Content-Disposition"] = f'attachment; filename="{name}.xlsx"'
    return response


def roll_url(roll: Roll) -> str:
    return reverse("rolls:detail", args=[roll.pk])
