"""Staff pages of notices and mailing: notices (search, detail, PDF, mailing facts, correction),
mailing batches (list, detail, print-ready PDF, mailing list CSV, tracking import), and the
actions that issue a billing run's notices or put them in batches."""
from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from assessments.notices import selectors, services
from assessments.notices.forms import CorrectionForm, MailingForm, NoticeFilterForm, SourceForm, TrackingImportForm
from assessments.notices.models import MailingBatch, Notice
from core import roles
from core.audit import audit
from core.mixins import StaffRequiredMixin, WriterRequiredMixin


def _notice(pk) -> Notice:
    try:
        return selectors.notice_detail(pk)
    except Notice.DoesNotExist:
        raise Http404("notice not found")


class NoticeListView(StaffRequiredMixin, TemplateView):
    template_name = "notices/notice_list.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        form = NoticeFilterForm(self.request.GET or None)
        data = form.cleaned_data if form.is_valid() else {}
        source = self.request.GET.get("source", "")
        qs = selectors.notice_list(query=data.get("q", ""), status=data.get("status", ""), source_type=source)
        ctx.update(form=form, source=source, page=Paginator(qs, 50).get_page(self.request.GET.get("page")))
        return ctx


class NoticeDetailView(StaffRequiredMixin, TemplateView):
    template_name = "notices/notice_detail.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        notice = _notice(self.kwargs["pk"])
        ctx.update(notice=notice, receivable=notice.receivable, history=selectors.notice_history(notice),
                   source=selectors.source_label(notice.receivable.source_type),
                   notified_on=selectors.notification_date(notice), can_write=roles.can_write(self.request.user),
                   downloads=notice.document.downloads.count() if notice.document_id else 0,
                   mailing_form=kwargs.get("mailing_form") or MailingForm(initial={
                       "tracking_number": notice.tracking_number, "mailed_on": notice.mailed_on,
                       "delivered_on": notice.delivered_on, "returned_on": notice.returned_on}),
                   correction_form=(kwargs.get("correction_form")
                                    or CorrectionForm(initial={"language": notice.language})))
        return ctx


class NoticePdfView(StaffRequiredMixin, View):
    """Staff download of a notice's PDF (rendered now if it was numbered without one); logged."""

    def get(self, request, pk):
        from core.documents.services import document_download_record

        notice = _notice(pk)
        document = services.notice_document(notice=notice, actor=request.user)
        document_download_record(document=document, user=request.user, ip=request.META.get("REMOTE_ADDR"))
        response = FileResponse(document.file.open("rb"), content_type="application/pdf",
                                filename=f"{notice.display_number}.pdf")
        response["Cache-Control"] = "private, no-store"
        return response


class NoticeMailingView(WriterRequiredMixin, View):
    required_action = roles.DRAFT
    http_method_names = ["post"]

    def post(self, request, pk):
        notice = _notice(pk)
        form = MailingForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.notice_mailing_record(notice=notice, actor=request.user,
                                               tracking_number=data["tracking_number"] or None,
                                               mailed_on=data["mailed_on"], delivered_on=data["delivered_on"],
                                               returned_on=data["returned_on"])
            except ValidationError as exc:
                for field, errors in exc.message_dict.items():
                    form.add_error(field if field in form.fields else None, errors)
            else:
                messages.success(request, _("Envío del aviso %(n)s registrado.") % {"n": notice.display_number})
                return redirect(notice.get_absolute_url())
        view = NoticeDetailView(request=request, kwargs={"pk": pk})
        return render(request, view.template_name, view.get_context_data(pk=pk, mailing_form=form), status=400)


class NoticeCorrectView(WriterRequiredMixin, View):
    required_action = roles.DRAFT
    http_method_names = ["post"]

    def post(self, request, pk):
        notice = _notice(pk)
        form = CorrectionForm(request.POST)
        if form.is_valid():
            try:
                new = services.notice_issue(receivable=notice.receivable, actor=request.user, replaces=notice,
                                            reason=form.cleaned_data["reason"],
                                            language=form.cleaned_data["language"])
            except ValidationError as exc:
                for field, errors in exc.message_dict.items():
                    form.add_error(field if field in form.fields else None, errors)
            else:
                messages.success(request, _("Aviso corregido emitido: %(n)s (sustituye a %(o)s).") % {
                    "n": new.display_number, "o": notice.display_number})
                return redirect(new.get_absolute_url())
        view = NoticeDetailView(request=request, kwargs={"pk": pk})
        return render(request, view.template_name, view.get_context_data(pk=pk, correction_form=form), status=400)


class NoticeLanguageView(WriterRequiredMixin, View):
    """"Emitir en inglés" (or back in Spanish): the notice again, same number, in the language the
    owner asked for."""

    required_action = roles.DRAFT
    http_method_names = ["post"]

    def post(self, request, pk):
        notice = _notice(pk)
        language = request.POST.get("language", "")
        try:
            new = services.notice_issue_in_language(notice=notice, language=language, actor=request.user)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
            return redirect(notice.get_absolute_url())
        if new.pk == notice.pk:
            messages.info(request, _("El aviso ya está en ese idioma."))
        else:
            messages.success(request, _("Aviso %(n)s emitido (idioma: %(l)s); sustituye a %(o)s.") % {
                "n": new.display_number, "l": dict(settings.LANGUAGES)[new.language], "o": notice.display_number})
        return redirect(new.get_absolute_url())


class BatchListView(StaffRequiredMixin, TemplateView):
    template_name = "notices/batch_list.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx.update(batches=Paginator(selectors.batch_list(), 30).get_page(self.request.GET.get("page")),
                   sources=selectors.source_summaries(), can_write=roles.can_write(self.request.user))
        return ctx


class BatchDetailView(StaffRequiredMixin, TemplateView):
    template_name = "notices/batch_detail.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        batch = get_object_or_404(MailingBatch, pk=self.kwargs["pk"])
        ctx.update(batch=batch, progress=selectors.batch_progress(batch),
                   page=Paginator(services.batch_notices(batch), 100).get_page(self.request.GET.get("page")),
                   import_form=kwargs.get("import_form") or TrackingImportForm(),
                   import_errors=kwargs.get("import_errors", []), can_write=roles.can_write(self.request.user))
        return ctx


class BatchPdfView(StaffRequiredMixin, View):
    def get(self, request, pk):
        batch = get_object_or_404(MailingBatch, pk=pk)
        if not batch.pdf:
            batch = services.mailing_batch_build_pdf(batch=batch, actor=request.user)
        audit(actor=request.user, action="notice.batch_download", target=batch,
              summary=f"PDF del lote {batch.number} descargado", data={"ip": request.META.get("REMOTE_ADDR")})
        response = FileResponse(batch.pdf.open("rb"), content_type="application/pdf",
                                filename=f"lote-{batch.number}.pdf")
        response["Cache-Control"] = "private, no-store"
        return response


class BatchCsvView(StaffRequiredMixin, View):
    def get(self, request, pk):
        batch = get_object_or_404(MailingBatch, pk=pk)
        audit(actor=request.user, action="notice.batch_list_download", target=batch,
              summary=f"Lista de envío del lote {batch.number} descargada",
              data={"ip": request.META.get("REMOTE_ADDR")})
        response = HttpResponse("\ufeff" + services.mailing_csv(batch), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="lista-{batch.number}.csv"'
        return response


class BatchImportView(WriterRequiredMixin, View):
    required_action = roles.DRAFT
    http_method_names = ["post"]

    def post(self, request, pk):
        batch = get_object_or_404(MailingBatch, pk=pk)
        form = TrackingImportForm(request.POST, request.FILES)
        errors = []
        if form.is_valid():
            try:
                result = services.mailing_tracking_import(batch=batch, text=form.cleaned_data["file"],
                                                          actor=request.user)
            except services.MailingError as exc:
                errors = exc.rows
                form.add_error(None, exc.messages[0] if exc.messages else _("El archivo tiene errores."))
            else:
                messages.success(request, _("%(rows)s filas leídas; %(n)s avisos actualizados.") % {
                    "rows": result.rows, "n": result.changed})
                return redirect(batch.get_absolute_url())
        view = BatchDetailView(request=request, kwargs={"pk": pk})
        return render(request, view.template_name,
                      view.get_context_data(pk=pk, import_form=form, import_errors=errors), status=400)


class SourceIssueView(WriterRequiredMixin, View):
    """Issue the missing notices of a billing run: on the workers, or — with in-process tasks —
    numbered now and rendered at their first download."""

    required_action = roles.DRAFT

    http_method_names = ["post"]

    def post(self, request):
        form = SourceForm(request.POST)
        if form.is_valid():
            services.notices_schedule_after_commit(source_types=[form.cleaned_data["source_type"]],
                                                   actor=request.user)
            messages.success(request, _("Avisos de %(s)s en proceso de emisión.") % {
                "s": form.cleaned_data["source_type"]})
        return redirect("notices:batch_list")


class SourceBatchView(WriterRequiredMixin, View):
    """Put a billing run's current notices that are in no batch yet into mailing batches
    (rendering the PDFs still missing)."""

    required_action = roles.DRAFT

    http_method_names = ["post"]

    def post(self, request):
        form = SourceForm(request.POST)
        if not form.is_valid():
            return redirect("notices:batch_list")
        source_type = form.cleaned_data["source_type"]
        from config.celery import app

        if not app.conf.task_always_eager:   # the workers render what is missing, then batch it all
            from assessments.notices.tasks import notices_issue_for_source_task

            notices_issue_for_source_task.delay(source_type, "es", request.user.pk)
            messages.success(request, _("Los avisos de %(s)s se completan en segundo plano; los lotes aparecerán "
                                        "aquí al terminar.") % {"s": source_type})
            return redirect("notices:batch_list")
        services.notices_issue_for_source(source_type=source_type, actor=request.user, batches=False)
        batches = services.mailing_batches_create(source_type=source_type, actor=request.user)
        for batch in batches:
            services.mailing_batch_build_pdf(batch=batch, actor=request.user)
        if batches:
            messages.success(request, _("Lotes de envío creados: %(b)s.") % {
                "b": ", ".join(b.number for b in batches)})
            return redirect(batches[0].get_absolute_url())
        messages.info(request, _("No hay avisos pendientes de envío en %(s)s.") % {"s": source_type})
        return redirect("notices:batch_list")
