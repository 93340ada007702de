"""Staff pages: upload a file for a dry run, confirm the same file, download exports.

Writers import; every staff role (the auditor too) exports. The previewed file is kept in the
default storage (a local folder or the S3 bucket) by its SHA-256 and remembered in the session, so
the confirm button applies exactly the bytes that were reviewed.
"""
from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.files.base import ContentFile, File
from django.core.files.storage import default_storage
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import View

from core import roles
from core.mixins import StaffRequiredMixin, WriterRequiredMixin
from core.uploads import bounded_file_field
from districts.imports.columns import KINDS
from districts.imports.exporters import FORMATS
from districts.imports.jobs import import_job_queue, job_state, runs_in_background
from districts.imports.models import ImportJob
from districts.imports.service import (
    ImportHashMismatch,
    ImportInvalid,
    ImportReport,
    content_hash,
    export_download,
    import_apply,
    import_preview,
    read_upload,
)

PENDING_KEY = "imports_pending"
MAX_PENDING = 5
ROWS_SHOWN = 300
ERRORS_SHOWN = 500


class ImportForm(forms.Form):
    kind = forms.ChoiceField(label=gettext_lazy("Qué contiene"), choices=[(k.key, k.label) for k in KINDS.values()])
    file = bounded_file_field(label=gettext_lazy("Archivo CSV o XLSX"),
                           help_text=gettext_lazy("Fila 1: nombres de las columnas. CSV en UTF-8. Máximo 10 MB."))


def _stash(request, kind: str, content: bytes, name: str, digest: str, rows: int = 0) -> None:
    """Keep the previewed bytes until confirmed (a few per user, the oldest dropped).

    `rows` decides at the confirm step whether the file is applied in the request or queued.
    """
    path = f"imports/pending/{request.user.pk}/{digest}"
    if not default_storage.exists(path):
        default_storage.save(path, ContentFile(content))
    pending = dict(request.session.get(PENDING_KEY, {}))
    pending.pop(digest, None)
    pending[digest] = {"kind": kind, "name": name, "path": path, "rows": rows}
    while len(pending) > MAX_PENDING:
        _discard_file(pending.pop(next(iter(pending)))["path"])
    request.session[PENDING_KEY] = pending


def _discard_file(path: str) -> None:
    if default_storage.exists(path):
        default_storage.delete(path)


def _context(request, **extra) -> dict:
    kinds = [{"key": k.key, "label": k.label, "help": k.help, "key_columns": k.key_columns,
              "columns": [{"name": c.name, "label": c.label, "required": c.required,
                           "is_key": c.name in k.key_columns} for c in k.columns]}
             for k in KINDS.values()]
    ctx = {"kinds": kinds, "formats": FORMATS, "form": ImportForm(), "can_import": roles.can_write(request.user),
           "rows_shown": ROWS_SHOWN, "errors_shown": ERRORS_SHOWN}
    ctx.update(extra)
    report: ImportReport | None = ctx.get("report")
    if report is not None:
        ctx["report_rows"] = report.rows[:ROWS_SHOWN]
        ctx["report_errors"] = report.errors[:ERRORS_SHOWN]
    return ctx


class ImportHomeView(StaffRequiredMixin, View):
    """GET: the upload form (writers), exports (all staff), the columns. POST: the dry run."""

    required_action = roles.DRAFT

    template_name = "imports/home.html"

    def get(self, request):
        return render(request, self.template_name, _context(request))

    def post(self, request):  # StaffRequiredMixin lets only writers POST
        form = ImportForm(request.POST, request.FILES)
        if not form.is_valid():
            return render(request, self.template_name, _context(request, form=form), status=400)
        kind = form.cleaned_data["kind"]
        content, name = read_upload(form.cleaned_data["file"])
        report = import_preview(kind, form.cleaned_data["file"])
        if report.is_valid and report.writes:
            _stash(request, kind, content, name, report.sha256, rows=len(report.rows))
        return render(request, self.template_name, _context(request, form=form, report=report))


class ImportConfirmView(WriterRequiredMixin, View):
    """Apply a previewed file. The hash must be the previewed one and the file still valid."""

    required_action = roles.DRAFT

    http_method_names = ["post"]
    template_name = "imports/home.html"

    def post(self, request):
        kind = request.POST.get("kind", "")
        digest = request.POST.get("sha256", "")
        pending = request.session.get(PENDING_KEY, {})
        entry = pending.get(digest)
        if kind not in KINDS or entry is None or entry["kind"] != kind:
            return self._refuse(request, _("No hay una revisión pendiente de ese archivo. Súbalo y revíselo de nuevo."))
        if runs_in_background(entry.get("rows", 0)):
            return self._queue(request, kind, digest, entry, pending)
        upload = request.FILES.get("file")
        stored = None
        if upload is None:
            if not default_storage.exists(entry["path"]):
                return self._refuse(request, _("El archivo revisado ya no está disponible. Súbalo de nuevo."))
            stored = default_storage.open(entry["path"], "rb")
            upload = File(stored, name=entry["name"])
        try:
            report = import_apply(kind, upload, actor=request.user, expected_hash=digest)
        except ImportHashMismatch as exc:
            return self._refuse(request, exc.message)
        except ImportInvalid as exc:
            messages.error(request, exc.message)
            return render(request, self.template_name, _context(request, report=exc.report), status=400)
        finally:
            if stored is not None:
                stored.close()
        pending = dict(pending)
        pending.pop(digest, None)
        request.session[PENDING_KEY] = pending
        _discard_file(entry["path"])
        messages.success(request, _("Importación guardada (%(kind)s, %(name)s): %(created)s creados, %(updated)s "
                                    "actualizados, %(unchanged)s sin cambios.")
                         % {"kind": report.kind_label, "name": report.file_name, **report.counts()})
        return redirect("imports:home")

    def _queue(self, request, kind: str, digest: str, entry: dict, pending: dict):
        """A large file: record an ImportJob and let the Celery task apply it (districts.imports.jobs)."""
        upload = request.FILES.get("file")
        if upload is not None:
            content, _name = read_upload(upload)
            if content_hash(content) != digest:
                return self._refuse(request, _("El archivo no es el que se revisó (su huella no coincide). "
                                               "Revíselo de nuevo antes de confirmar."))
            if not default_storage.exists(entry["path"]):
                default_storage.save(entry["path"], ContentFile(content))
        elif not default_storage.exists(entry["path"]):
            return self._refuse(request, _("El archivo revisado ya no está disponible. Súbalo de nuevo."))
        job = import_job_queue(kind=kind, stored_path=entry["path"], file_name=entry["name"], sha256=digest,
                               row_count=entry.get("rows", 0), actor=request.user)
        pending = dict(pending)
        pending.pop(digest, None)  # the job owns the stored file now; it deletes it when finished
        request.session[PENDING_KEY] = pending
        messages.info(request, _("El archivo tiene %(rows)s filas: se guarda en segundo plano. Esta página muestra "
                                 "el avance y el resultado.") % {"rows": job.row_count})
        return redirect(job)

    def _refuse(self, request, message: str):
        messages.error(request, message)
        return render(request, self.template_name, _context(request), status=409)


class ImportJobView(StaffRequiredMixin, View):
    """A background import: its progress while it runs, then what was saved or why nothing was."""

    template_name = "imports/job.html"

    def get(self, request, pk: int):
        job = get_object_or_404(ImportJob.objects.select_related("requested_by"), pk=pk)
        kind = KINDS.get(job.kind)
        return render(request, self.template_name, {
            "job": job, "state": job_state(job), "kind_label": kind.label if kind else job.kind,
            "errors": job.errors[:ERRORS_SHOWN],
        })


class ImportJobStateView(StaffRequiredMixin, View):
    """The job page polls this while the job waits or runs."""

    def get(self, request, pk: int):
        return JsonResponse(job_state(get_object_or_404(ImportJob, pk=pk)))


class ExportView(StaffRequiredMixin, View):
    """GET ?kind=parcels&format=csv|xlsx[&template=1]: the table with the import's columns."""

    def get(self, request):
        kind = request.GET.get("kind", "")
        fmt = request.GET.get("format", "csv")
        if kind not in KINDS or fmt not in FORMATS:
            raise Http404
        template = request.GET.get("template") == "1"
        content, content_type = export_download(kind, fmt, actor=request.user, template=template)
        stamp = _("plantilla") if template else timezone.localdate().isoformat()
        response = HttpResponse(content, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{KINDS[kind].file_stem}-{stamp}.{fmt}"'
        return response
