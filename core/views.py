"""Shared views: the staff home page, one create/edit flow for register records, the work queue
(clocks and flags), staff document downloads and the public document verification page."""
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import FileResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import FormView, ListView, TemplateView

from core import roles, signin
from core.documents.codes import normalize_code
from core.documents.selectors import access_document, document_by_code
from core.forms import FlagAssignForm, VerifyForm
from core.mixins import StaffRequiredMixin, WriterRequiredMixin
from core.models import Clock, Flag
from core.selectors import assignable_users, clock_list, clock_rules, flag_list, with_days_left
from core.workqueue import flag_assign


class HomeView(StaffRequiredMixin, TemplateView):
    template_name = "core/home.html"

    def get_context_data(self, **kwargs):
        from core.dashboard.selectors import home_board
        from core.dashboard.views import assignees_for
        from core.selectors import home_summary

        ctx = super().get_context_data(**kwargs)
        ctx.update(home_summary(self.request.user))
        # Issue #10: what needs attention first ("Esta semana"), from every app's dashboard provider.
        ctx.update(home_board(self.request.user, ctx["today"]), assignees=assignees_for(self.request.user),
                   can_write=roles.can_write(self.request.user))
        # Issue #17: what waits on this user's roles (requests to approve, the cash drawer, rulings).
        from core.dashboard.waiting import waiting_for

        ctx["waiting"] = waiting_for(self.request.user)
        ctx["waiting_total"] = sum(w.count for w in ctx["waiting"])
        return ctx


class RecordFormView(WriterRequiredMixin, FormView):
    """Create or edit one record: form validation → service → message → its page.

    Subclasses set `model`, `form_class`, `action` (audit name) and the two titles.
    """

    required_action = roles.DRAFT

    model = None
    action = ""
    create_title = ""
    edit_title = ""
    template_name = "core/record_form.html"

    def get_object(self):
        pk = self.kwargs.get("pk")
        return get_object_or_404(self.model, pk=pk) if pk else None

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs["instance"] = self.object
        return kwargs

    def dispatch(self, request, *args, **kwargs):
        self.object = None
        return super().dispatch(request, *args, **kwargs)

    def get(self, request, *args, **kwargs):
        self.object = self.get_object()
        return super().get(request, *args, **kwargs)

    def post(self, request, *args, **kwargs):
        self.object = self.get_object()
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        from districts.services import record_save

        try:
            obj = record_save(actor=self.request.user, instance=form.save(commit=False), action=self.action)
            form.save_m2m()
        except ValidationError as exc:
            for field, errs in exc.message_dict.items():
                form.add_error(field if field in form.fields else None, errs)
            return self.form_invalid(form)
        messages.success(self.request, _("Guardado: %(obj)s") % {"obj": obj})
        return redirect(obj.get_absolute_url())

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["title"] = self.edit_title if self.object else self.create_title
        ctx["object"] = self.object
        ctx["can_write"] = roles.can_write(self.request.user)
        return ctx


# --- Work queue --------------------------------------------------------------------------------

class ClockListView(StaffRequiredMixin, ListView):
    """Statutory clocks, filtered by status and rule (default: the open ones)."""

    template_name = "core/clock_list.html"
    context_object_name = "clocks"
    paginate_by = 50

    def get_queryset(self):
        self.status = self.request.GET.get("status", Clock.Status.OPEN)
        self.rule = self.request.GET.get("rule", "")
        return clock_list(status=self.status, rule=self.rule)

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        today = timezone.localdate()
        ctx["clocks"] = with_days_left(ctx["clocks"], today)
        ctx.update(status=self.status, rule=self.rule, rules=clock_rules(), statuses=Clock.Status.choices,
                   today=today)
        return ctx


class FlagListView(StaffRequiredMixin, ListView):
    """Flags (asuntos), open by default, with an assignment form for staff who can write."""

    template_name = "core/flag_list.html"
    context_object_name = "flags"
    paginate_by = 50

    def get_queryset(self):
        self.state = self.request.GET.get("state", "open")
        self.kind = self.request.GET.get("kind", "")
        self.assigned = self.request.GET.get("assigned", "")
        return flag_list(state=self.state, kind=self.kind, assigned=self.assigned)

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        can_write = roles.can_write(self.request.user)
        assignees = []
        if can_write:
            assignees = [(u.pk, u.get_full_name() or u.username) for u in assignable_users()]
        ctx.update(assignees=assignees, state=self.state, kind=self.kind, assigned=self.assigned,
                   kinds=Flag.Kind.choices, can_write=can_write, me=self.request.user.pk)
        return ctx


class FlagAssignView(WriterRequiredMixin, View):
    required_action = roles.ASSIGN
    http_method_names = ["post"]

    def post(self, request, pk):
        flag = get_object_or_404(Flag, pk=pk)
        form = FlagAssignForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Elija una persona de la lista."))
        else:
            try:
                flag = flag_assign(flag=flag, user=form.cleaned_data["user"], actor=request.user)
            except ValidationError as exc:
                messages.error(request, "; ".join(exc.messages))
            else:
                assignee = flag.assigned_to
                who = (assignee.get_full_name() or assignee.username) if assignee else _("nadie")
                messages.success(request, _("Asunto asignado a %(who)s.") % {"who": who})
        target = request.POST.get("next", "")
        # A path on this site only: redirect() would take any other word for a URL name to reverse (a 500).
        if not target.startswith("/") or not url_has_allowed_host_and_scheme(
                target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
            target = reverse("core:flag_list")
        return redirect(target)


# --- Documents ---------------------------------------------------------------------------------

class DocumentPdfView(StaffRequiredMixin, View):
    """Staff download of an issued document's PDF; every download is logged."""

    def get(self, request, pk):
        from core.documents.services import document_download_record  # imports WeasyPrint: only when used

        document = access_document(request.user, pk)
        document_download_record(document=document, user=request.user, ip=request.META.get("REMOTE_ADDR"))
        response = FileResponse(document.file.open("rb"), content_type="application/pdf",
                                filename=f"{document.verification_code}.pdf")
        response["Cache-Control"] = "private, no-store"
        return response


class VerifyFormView(View):
    """Public (no login): type the code printed on a document."""

    def get(self, request):
        if request.GET and signin.is_locked(request, signin.DOCUMENT_VERIFICATION):
            return signin.refused(request)
        form = VerifyForm(request.GET or None)
        if form.is_valid():
            code = normalize_code(form.cleaned_data["code"])
            if code:
                return redirect("core:verify", code=code)
            form.add_error("code", _("Ese no es un código válido: tiene 12 letras y números, como ABCD-EFGH-2345."))
        return render(request, "core/verify_form.html", {"form": form})


class VerifyView(View):
    """Public (no login): is this a document we issued? Shows only non-personal facts."""

    def get(self, request, code):
        # Codes are guessed here: an address that missed too often is refused (core.signin).
        if signin.is_locked(request, signin.DOCUMENT_VERIFICATION):
            return signin.refused(request)
        document = document_by_code(code)
        if document is None:
            signin.record_failure(request, signin.DOCUMENT_VERIFICATION)
        form = VerifyForm(initial={"code": code} if document is None else None)
        context = {"document": document, "code": code, "form": form}
        response = render(request, "core/verify.html", context, status=200 if document else 404)
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response
