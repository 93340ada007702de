"""Staff pages of the franchise registry: thin views over selectors and services."""
from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _
from django.views.generic import DetailView, FormView, ListView, TemplateView

from core import roles
from core.mixins import StaffRequiredMixin, WriterRequiredMixin
from franchises import forms, rules, selectors, services
from franchises.models import Application, Franchise, Hearing, Proceeding, UsageReport


def add_errors(form, exc: ValidationError) -> None:
    """A service's ValidationError shown on the form: on its field when the form has it."""
    if hasattr(exc, "error_dict"):
        for field, errs in exc.message_dict.items():
            form.add_error(field if field in form.fields else None, errs)
    else:
        form.add_error(None, exc.messages)


HISTORY_TYPES = {"+": _("Creación"), "~": _("Cambio"), "-": _("Eliminación")}
HISTORY_SKIP = {"created_at", "updated_at"}


def _shown(field, value) -> str:
    if value in (None, ""):
        return "—"
    if field.is_relation:
        obj = field.related_model.objects.filter(pk=value).first()
        return str(obj) if obj else str(value)
    if field.choices:
        return str(dict(field.flatchoices).get(value, value))
    return str(value)


def history_rows(records, limit: int = 20) -> list[dict]:
    """Each historical record with what changed from the one before (field: old → new)."""
    records = list(records.select_related("history_user")[:limit + 1])
    rows = []
    for i, rec in enumerate(records[:limit]):
        changes = []
        prev = records[i + 1] if i + 1 < len(records) else None
        if prev is not None:
            opts = rec.instance_type._meta
            for c in rec.diff_against(prev).changes:
                if c.field in HISTORY_SKIP:
                    continue
                field = opts.get_field(c.field)
                changes.append(f"{field.verbose_name}: {_shown(field, c.old)} → {_shown(field, c.new)}")
        rows.append({"date": rec.history_date, "user": rec.history_user, "type": HISTORY_TYPES.get(rec.history_type),
                     "changes": changes})
    return rows


class ServiceFormView(WriterRequiredMixin, FormView):
    """Form → one service call → message → the record's page. Subclasses set `perform`."""

    template_name = "franchises/form.html"
    title = ""
    success_message = _("Guardado.")

    def subject(self):
        return None

    def perform(self, form):
        raise NotImplementedError

    def form_valid(self, form):
        try:
            obj = self.perform(form)
        except ValidationError as exc:
            add_errors(form, exc)
            return self.form_invalid(form)
        messages.success(self.request, self.message_for(obj))
        return redirect(obj.get_absolute_url())

    def message_for(self, obj) -> str:
        return str(self.success_message)

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["title"] = self.title
        ctx["subject"] = self.subject()
        return ctx


# --- Registry -----------------------------------------------------------------------------------------


class FranchiseListView(StaffRequiredMixin, ListView):
    template_name = "franchises/list.html"
    paginate_by = 25

    def get_queryset(self):
        self.search = forms.FranchiseSearchForm(self.request.GET or None)
        data = self.search.cleaned_data if self.search.is_valid() else {}
        return selectors.franchise_search(data.get("q", ""), tariff_class=data.get("tariff_class", ""),
                                          status=data.get("status", ""))

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["search"] = self.search
        ctx["q"] = self.request.GET.get("q", "")
        params = self.request.GET.copy()
        params.pop("page", None)
        ctx["querystring"] = params.urlencode()
        return ctx


class FranchiseDetailView(StaffRequiredMixin, DetailView):
    template_name = "franchises/detail.html"
    context_object_name = "franchise"

    def get_object(self, queryset=None):
        try:
            return selectors.franchise_detail(self.kwargs["pk"])
        except Franchise.DoesNotExist as exc:
            raise Http404 from exc

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        f = self.object
        ctx["today"] = timezone.localdate()
        ctx["readings"] = f.meter_readings.order_by("-month")[:36]
        ctx["chart"] = selectors.usage_chart(f)
        ctx["applications"] = f.applications.all()
        ctx["proceedings"] = f.proceedings.all()
        ctx["exemption_citation"] = rules.EXEMPTIONS.get(f.exemption, "")
        ctx["history"] = history_rows(f.history.all())
        ctx["can_write"] = roles.can_write(self.request.user)
        ctx["application_kinds"] = Application.Kind.choices
        ctx.update(selectors.work_queue_for(f))
        return ctx


class FranchiseFormView(ServiceFormView):
    required_action = roles.DRAFT
    form_class = forms.FranchiseForm

    @property
    def title(self):
        return _t("Editar franquicia") if self.kwargs.get("pk") else _t("Nueva franquicia")

    def subject(self):
        pk = self.kwargs.get("pk")
        return get_object_or_404(Franchise, pk=pk) if pk else None

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs["instance"] = self.subject()
        return kwargs

    def perform(self, form):
        return services.franchise_save(actor=self.request.user, instance=form.save(commit=False))

    def message_for(self, obj):
        return _t("Franquicia %(n)s guardada: clase tarifaria %(c)s.") % {"n": obj.number, "c": obj.tariff_class}


class MeterReadingCreateView(ServiceFormView):
    required_action = roles.DRAFT
    form_class = forms.MeterReadingForm
    title = _("Lectura de contador")

    def subject(self):
        return get_object_or_404(Franchise, pk=self.kwargs["pk"])

    def perform(self, form):
        d = form.cleaned_data
        reading = services.meter_reading_record(actor=self.request.user, franchise=self.subject(), month=d["month"],
                                                gallons=d["gallons"], origin=d["origin"])
        return reading


class UsageReportCreateView(ServiceFormView):
    required_action = roles.DRAFT
    form_class = forms.UsageReportForm
    title = _("Informe de uso")

    def subject(self):
        return get_object_or_404(Franchise, pk=self.kwargs["pk"])

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs["instance"] = UsageReport(franchise=self.subject())
        return kwargs

    def perform(self, form):
        return services.usage_report_record(actor=self.request.user, instance=form.save(commit=False))


class FlagsView(StaffRequiredMixin, TemplateView):
    """What the daily task would flag today, the open work-queue flags, and renewals coming up."""

    template_name = "franchises/flags.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        today = timezone.localdate()
        ctx["today"] = today
        ctx["current"] = selectors.franchise_flags(today)
        ctx["open_flags"] = selectors.open_franchise_flags()
        ctx["renewals"] = selectors.upcoming_renewals(today)
        return ctx


# --- Applications -------------------------------------------------------------------------------------


class ApplicationListView(StaffRequiredMixin, ListView):
    template_name = "franchises/application_list.html"
    paginate_by = 25

    def get_queryset(self):
        return selectors.application_list(status=self.request.GET.get("status", "open"),
                                          kind=self.request.GET.get("kind", ""))

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["status"] = self.request.GET.get("status", "open")
        ctx["kind"] = self.request.GET.get("kind", "")
        ctx["statuses"] = Application.Status.choices
        ctx["kinds"] = Application.Kind.choices
        return ctx


class ApplicationDetailView(StaffRequiredMixin, DetailView):
    template_name = "franchises/application_detail.html"
    context_object_name = "application"

    def get_object(self, queryset=None):
        try:
            return selectors.application_detail(self.kwargs["pk"])
        except Application.DoesNotExist as exc:
            raise Http404 from exc

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        app = self.object
        ctx["can_write"] = roles.can_write(self.request.user)
        ctx["history"] = history_rows(app.history.all(), 15)
        ctx["letters"] = selectors.application_letters(app)
        if ctx["can_write"] and app.is_open:
            ctx["review_form"] = forms.ApplicationReviewForm(application=app)
        return ctx


class ApplicationFileView(ServiceFormView):
    required_action = roles.DRAFT
    form_class = forms.ApplicationFileForm

    def kind(self) -> str:
        kind = self.request.GET.get("kind") or self.request.POST.get("kind") or ""
        if kind not in Application.Kind.values:
            raise Http404
        return kind

    @property
    def title(self):
        return _t("Presentar solicitud: %(k)s") % {"k": Application.Kind(self.kind()).label}

    def subject(self):
        return get_object_or_404(Franchise, pk=self.kwargs["pk"])

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs.update(kind=self.kind(), franchise=self.subject())
        return kwargs

    def get_initial(self):
        return {"received_on": timezone.localdate()}

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["hidden"] = {"kind": self.kind()}
        ctx["fee"] = rules.application_fee(self.kind())
        return ctx

    def perform(self, form):
        d = dict(form.cleaned_data)
        docs = dict.fromkeys(d.pop("documents", []), True)
        return services.application_file(actor=self.request.user, franchise=self.subject(), kind=self.kind(),
                                         documents=docs, **d)

    def message_for(self, obj):
        msg = _t("Solicitud recibida.")
        if obj.decision_due:
            msg += " " + _t("Decisión a más tardar el %(d)s (FRA-5).") % {"d": obj.decision_due.strftime("%d/%m/%Y")}
        if obj.filed_late:
            msg += " " + _t("Presentada con menos de 90 días de anticipación al vencimiento (FRA-7).")
        return msg


class ApplicationSubjectMixin:
    def subject(self):
        if not hasattr(self, "_subject"):
            self._subject = get_object_or_404(Application.objects.select_related("franchise"), pk=self.kwargs["pk"])
        return self._subject


class ApplicationReviewView(ApplicationSubjectMixin, ServiceFormView):
    required_action = roles.DRAFT
    form_class = forms.ApplicationReviewForm
    title = _("Revisar expediente")

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs["application"] = self.subject()
        return kwargs

    def perform(self, form):
        d = form.cleaned_data
        app = self.subject()
        return services.application_review(
            actor=self.request.user, application=app, documents=dict.fromkeys(d.get("documents", []), True),
            fee_paid=d.get("fee_paid", app.fee_paid), controversy=d.get("controversy", app.controversy),
            changes_conditions=d.get("changes_conditions", app.changes_conditions))


class ApplicationDecideView(ApplicationSubjectMixin, ServiceFormView):
    required_action = roles.DECIDE
    form_class = forms.ApplicationDecideForm
    title = _("Decidir solicitud")

    def debt_from_billing(self):
        app = self.subject()
        if app.kind != Application.Kind.RENEWAL:
            return None
        return selectors.outstanding_debt(app.franchise, timezone.localdate())

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs.update(application=self.subject(), debt_from_billing=self.debt_from_billing())
        return kwargs

    def get_initial(self):
        return {"decided_on": timezone.localdate(), "grant": "GRANT"}

    def perform(self, form):
        d = form.cleaned_data
        billing = form.debt_from_billing
        debt = billing if billing is not None else d.get("outstanding_debt")
        return services.application_decide(
            actor=self.request.user, application=self.subject(), decided_on=d["decided_on"], grant=d["grant"],
            determination=d.get("determination", ""), outstanding_debt=debt,
            debt_source="billing" if billing is not None else ("staff" if debt is not None else ""),
            new_number=d.get("new_number", ""), notified_on=d.get("notified_on"),
            notification_method=d.get("notification_method", ""), tracking_number=d.get("tracking_number", ""))

    def message_for(self, obj):
        msg = _t("Solicitud: %(s)s.") % {"s": obj.get_status_display()}
        if obj.resulting_franchise:
            msg += " " + _t("Franquicia nueva %(n)s.") % {"n": obj.resulting_franchise.number}
        return msg


class ApplicationNotifyView(ApplicationSubjectMixin, ServiceFormView):
    required_action = roles.DRAFT
    form_class = forms.NotifyForm
    title = _("Notificación de la determinación")

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "application": self.subject()}

    def perform(self, form):
        d = form.cleaned_data
        return services.application_notify(actor=self.request.user, application=self.subject(),
                                           notified_on=d["notified_on"], method=d["method"],
                                           tracking_number=d["tracking_number"], to=d.get("to") or "APPLICANT")


class HearingRequestView(ServiceFormView):
    """FRA-11: a party asks in writing for a hearing on an application or a proceeding."""

    required_action = roles.DRAFT

    form_class = forms.HearingRequestForm
    title = _("Solicitud de vista administrativa")
    model = Application

    def subject(self):
        if not hasattr(self, "_subject"):
            self._subject = get_object_or_404(self.model.objects.select_related("franchise"), pk=self.kwargs["pk"])
        return self._subject

    def get_initial(self):
        subject = self.subject()
        notified = getattr(subject, "notified_on", None) or getattr(subject, "holder_notice_delivered_on", None)
        return {"requested_on": timezone.localdate(), "notified_on": notified}

    def perform(self, form):
        d = form.cleaned_data
        hearing = services.hearing_request(actor=self.request.user, application_or_proceeding=self.subject(),
                                           requested_on=d["requested_on"], notified_on=d["notified_on"],
                                           requested_by=d["requested_by"])
        self.hearing = hearing
        return hearing

    def message_for(self, obj):
        if obj.accepted:
            return _t("Vista aceptada: solicitada dentro del término (vencía el %(d)s).") % {
                "d": obj.due_on.strftime("%d/%m/%Y")}
        return _t("Vista rechazada: %(r)s") % {"r": obj.refused_reason}


class ProceedingHearingRequestView(HearingRequestView):
    model = Proceeding


class HearingUpdateView(ServiceFormView):
    required_action = roles.DRAFT
    form_class = forms.HearingUpdateForm
    title = _("Vista administrativa")

    def subject(self):
        return get_object_or_404(Hearing, pk=self.kwargs["pk"])

    def get_initial(self):
        h = self.subject()
        return {"scheduled_for": h.scheduled_for, "held_on": h.held_on, "summary": h.summary}

    def perform(self, form):
        d = form.cleaned_data
        hearing = self.subject()
        if d.get("scheduled_for") and d["scheduled_for"] != hearing.scheduled_for:
            hearing = services.hearing_schedule(actor=self.request.user, hearing=hearing,
                                                scheduled_for=d["scheduled_for"])
        if d.get("held_on"):
            hearing = services.hearing_record_held(actor=self.request.user, hearing=hearing, held_on=d["held_on"],
                                                   summary=d.get("summary", ""))
        return hearing


# --- Enforcement --------------------------------------------------------------------------------------


class ProceedingCreateView(ServiceFormView):
    required_action = roles.DRAFT
    form_class = forms.ProceedingForm
    title = _("Iniciar procedimiento")

    def subject(self):
        return get_object_or_404(Franchise, pk=self.kwargs["pk"])

    def get_initial(self):
        return {"opened_on": timezone.localdate(), "cause": self.request.GET.get("cause", "")}

    def perform(self, form):
        d = form.cleaned_data
        return services.proceeding_open(actor=self.request.user, franchise=self.subject(), cause=d["cause"],
                                        opened_on=d["opened_on"], detail=d["detail"],
                                        cease_and_desist=d["cease_and_desist"])


class ProceedingDetailView(StaffRequiredMixin, DetailView):
    template_name = "franchises/proceeding_detail.html"
    context_object_name = "proceeding"

    def get_object(self, queryset=None):
        try:
            return selectors.proceeding_detail(self.kwargs["pk"])
        except Proceeding.DoesNotExist as exc:
            raise Http404 from exc

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["can_write"] = roles.can_write(self.request.user)
        ctx["history"] = history_rows(self.object.history.all(), 15)
        ctx["letters"] = selectors.proceeding_letters(self.object)
        return ctx


class ProceedingSubjectMixin:
    def subject(self):
        return get_object_or_404(Proceeding.objects.select_related("franchise"), pk=self.kwargs["pk"])


class ProceedingNoticeView(ProceedingSubjectMixin, ServiceFormView):
    required_action = roles.DRAFT
    form_class = forms.ProceedingNoticeForm
    title = _("Aviso por correo certificado (FRA-8)")

    def perform(self, form):
        d = form.cleaned_data
        return services.proceeding_notice(actor=self.request.user, proceeding=self.subject(), **d)


class ProceedingDecideView(ProceedingSubjectMixin, ServiceFormView):
    required_action = roles.DECIDE
    form_class = forms.ProceedingDecideForm
    title = _("Resolver procedimiento")

    def get_initial(self):
        return {"decided_on": timezone.localdate()}

    def perform(self, form):
        d = form.cleaned_data
        return services.proceeding_decide(actor=self.request.user, proceeding=self.subject(), **d)
