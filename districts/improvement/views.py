"""Staff pages of the improvement districts: thin views over the selectors and services.

Every page needs a staff role; every form posts to an action view that needs a writer role
(auditors read). An action validates its form, calls one service, and redirects to the page; a
refusal re-renders the page with the errors beside the form.
"""
from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView

from core import roles
from core.mixins import StaffRequiredMixin, WriterRequiredMixin
from districts.improvement import forms, selectors, services
from districts.improvement.errors import FormulaRefused
from districts.improvement.models import (
    SidCollectionBatch,
    SidNoticeRound,
    SidResolution,
    TidNoticeRound,
    TidOrdinance,
    TidPetition,
)
from districts.models import District


def add_errors(form, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)


def error_text(exc: ValidationError) -> str:
    return " ".join(exc.messages)


class HomeView(StaffRequiredMixin, TemplateView):
    template_name = "improvement/home.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx.update(selectors.home())
        ctx["can_write"] = roles.can_write(self.request.user)
        return ctx


class SidReportView(StaffRequiredMixin, TemplateView):
    """SID-3: what is due when and what is late, across every resolution."""

    template_name = "improvement/sid_report.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["report"] = selectors.sid_remittance_report()
        return ctx


# === SID ==========================================================================================

class SidResolutionFormView(WriterRequiredMixin, FormView):
    required_action = roles.DRAFT
    template_name = "core/record_form.html"
    form_class = forms.SidResolutionForm

    def get_object(self):
        pk = self.kwargs.get("pk")
        return get_object_or_404(SidResolution, pk=pk) if pk else None

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        self.object = self.get_object()
        if self.object is not None:
            kwargs["instance"] = self.object
        elif code := self.request.GET.get("district"):
            kwargs.setdefault("initial", {})["district"] = District.objects.filter(code=code).first()
        return kwargs

    def form_valid(self, form):
        data = {k: v for k, v in form.cleaned_data.items() if k != "district"}
        try:
            if self.object is None:
                obj = services.sid_resolution_create(actor=self.request.user, district=form.cleaned_data["district"],
                                                     **data)
            else:
                obj = services.sid_resolution_update(actor=self.request.user, resolution=self.object, **data)
        except ValidationError as exc:
            add_errors(form, exc)
            return self.form_invalid(form)
        messages.success(self.request, _("Guardado: %(obj)s") % {"obj": obj})
        return redirect(obj.get_absolute_url())

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["title"] = _("Editar resolución SID") if self.object else _("Nueva resolución SID")
        ctx["object"] = self.object
        return ctx


class SidResolutionView(StaffRequiredMixin, TemplateView):
    template_name = "improvement/sid_detail.html"
    page_forms = {
        "charge_form": forms.SidChargeForm, "crim_form": forms.CrimReceiptForm, "batch_form": forms.BatchForm,
        "not_carried_form": forms.NotCarriedOutForm, "refund_form": forms.RefundForm,
        "recovered_form": forms.CrimRecoveredForm,
    }

    def dispatch(self, request, *args, **kwargs):
        self.resolution = None
        return super().dispatch(request, *args, **kwargs)

    def get_resolution(self) -> SidResolution:
        if self.resolution is None:
            self.resolution = get_object_or_404(SidResolution.objects.select_related("district"), pk=self.kwargs["pk"])
        return self.resolution

    def form_kwargs(self, name: str) -> dict:
        return {"resolution": self.get_resolution()} if name == "charge_form" else {}

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx.update(selectors.sid_resolution_page(self.get_resolution()))
        for name, cls in self.page_forms.items():
            ctx[name] = kwargs.get(name) or cls(auto_id=f"{name}_%s", **self.form_kwargs(name))
        ctx["can_write"] = roles.can_write(self.request.user)
        return ctx


class SidActionView(SidResolutionView):
    """POST one of the page's forms; the subclass names it and calls its service."""

    http_method_names = ["post"]
    form_name = ""
    anchor = ""

    def perform(self, form) -> str:  # pragma: no cover - every action overrides it
        raise NotImplementedError

    def post(self, request, *args, **kwargs):
        form = self.page_forms[self.form_name](request.POST, request.FILES, auto_id=f"{self.form_name}_%s",
                                               **self.form_kwargs(self.form_name))
        if form.is_valid():
            try:
                message = self.perform(form)
            except ValidationError as exc:
                add_errors(form, exc)
            else:
                messages.success(request, message)
                return redirect(self.get_resolution().get_absolute_url() + self.anchor)
        return self.render_to_response(self.get_context_data(**{self.form_name: form}))


class SidChargeView(SidActionView):
    required_action = roles.DRAFT
    form_name, anchor = "charge_form", "#cargos"

    def perform(self, form):
        charge = services.sid_charge_set(actor=self.request.user, resolution=self.get_resolution(),
                                         parcel=form.cleaned_data["parcel"],
                                         annual_charge=form.cleaned_data["annual_charge"])
        return _("Cargo anual de %(p)s: $%(a)s") % {"p": charge.parcel, "a": charge.annual_charge}


class SidCrimReceiptView(SidActionView):
    required_action = roles.DRAFT
    form_name, anchor = "crim_form", "#notificaciones"

    def perform(self, form):
        res = services.sid_crim_receipt_record(actor=self.request.user, resolution=self.get_resolution(),
                                               received_on=form.cleaned_data["received_on"])
        first = res.notice_rounds.first()
        return _("Recibo del CRIM registrado. Primera notificación a más tardar el %(d)s (SID-2).") % {
            "d": first.due_on.strftime("%d/%m/%Y")}


class SidBatchView(SidActionView):
    required_action = roles.DRAFT
    form_name, anchor = "batch_form", "#lotes"

    def perform(self, form):
        batch = services.sid_batch_record(actor=self.request.user, resolution=self.get_resolution(),
                                          **form.cleaned_data)
        return _("Lote registrado: retenido $%(r)s, a remitir $%(m)s a más tardar el %(d)s (SID-3).") % {
            "r": batch.retained, "m": batch.remitted, "d": batch.remittance_due_on.strftime("%d/%m/%Y")}


class SidNotCarriedOutView(SidActionView):
    required_action = roles.DRAFT
    form_name, anchor = "not_carried_form", "#devolucion"

    def perform(self, form):
        services.sid_project_not_carried_out(actor=self.request.user, resolution=self.get_resolution(),
                                             **form.cleaned_data)
        return _("Proyecto marcado como no realizado (SID-5).")


class SidRefundView(SidActionView):
    required_action = roles.REFUND
    form_name, anchor = "refund_form", "#devolucion"

    def perform(self, form):
        refund = services.sid_refund_create(actor=self.request.user, resolution=self.get_resolution(),
                                            payments=form.cleaned_data["payments"],
                                            decided_on=form.cleaned_data["decided_on"],
                                            notes=form.cleaned_data["notes"])
        return _("Devolución calculada: $%(t)s (SID-5).") % {"t": refund.total}


class SidCrimRecoveredView(SidActionView):
    required_action = roles.REFUND
    form_name, anchor = "recovered_form", "#devolucion"

    def perform(self, form):
        refund = self.get_resolution().refund
        services.sid_refund_crim_recovered(actor=self.request.user, refund=refund, on=form.cleaned_data["on"])
        return _("Recobro del CRIM registrado.")


class SidRowActionView(WriterRequiredMixin, TemplateView):
    """A one-date action on a table row (a notice round mailed, a batch remitted)."""

    http_method_names = ["post"]
    form_class = None
    anchor = ""

    def post(self, request, *args, **kwargs):
        resolution = get_object_or_404(SidResolution, pk=kwargs["pk"])
        form = self.form_class(request.POST)
        if not form.is_valid():
            messages.error(request, " ".join(e for errs in form.errors.values() for e in errs))
        else:
            try:
                messages.success(request, self.perform(resolution, form.cleaned_data))
            except ValidationError as exc:
                messages.error(request, error_text(exc))
        return redirect(resolution.get_absolute_url() + self.anchor)


class SidNoticeMailedView(SidRowActionView):
    required_action = roles.DRAFT
    form_class, anchor = forms.MailedForm, "#notificaciones"

    def perform(self, resolution, data):
        notice = get_object_or_404(SidNoticeRound, pk=data["round_id"], resolution=resolution)
        notice = services.sid_notice_mailed(actor=self.request.user, notice_round=notice, mailed_on=data["mailed_on"])
        return _("Envío registrado (tarde).") if notice.mailed_on > notice.due_on else _("Envío registrado.")


class SidRemitView(SidRowActionView):
    required_action = roles.DRAFT
    form_class, anchor = forms.RemitForm, "#lotes"

    def perform(self, resolution, data):
        batch = get_object_or_404(SidCollectionBatch, pk=data["batch_id"], resolution=resolution)
        batch = services.sid_batch_remit(actor=self.request.user, batch=batch, remitted_on=data["remitted_on"])
        return _("Remesa registrada (tarde).") if batch.remitted_late else _("Remesa registrada a tiempo.")


# === TID ==========================================================================================

class TidPetitionCreateView(WriterRequiredMixin, FormView):
    required_action = roles.DRAFT
    template_name = "core/record_form.html"
    form_class = forms.TidPetitionForm

    def get_initial(self):
        initial = super().get_initial()
        if code := self.request.GET.get("district"):
            initial["district"] = District.objects.filter(code=code).first()
        return initial

    def form_valid(self, form):
        try:
            petition = services.tid_petition_create(actor=self.request.user, **form.cleaned_data)
        except ValidationError as exc:
            add_errors(form, exc)
            return self.form_invalid(form)
        messages.success(self.request, _("Petición registrada. La ordenanza vence el %(d)s (TID-1).") % {
            "d": petition.ordinance_due_on.strftime("%d/%m/%Y")})
        return redirect(petition.get_absolute_url())

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["title"] = _("Nueva petición TID")
        return ctx


class TidPetitionView(StaffRequiredMixin, TemplateView):
    template_name = "improvement/tid_detail.html"
    page_forms = {
        "finding_form": forms.FindingForm, "deny_form": forms.DenyForm, "ordinance_form": forms.OrdinanceForm,
        "formula_form": forms.FormulaForm, "mayor_receipt_form": forms.MayorReceiptForm,
        "mayor_decision_form": forms.MayorDecisionForm, "publication_form": forms.PublicationForm,
        "collector_form": forms.CollectorForm, "association_receipt_form": forms.AssociationReceiptForm,
        "entry_form": forms.AccountEntryForm, "audit_form": forms.AuditForm,
    }

    def dispatch(self, request, *args, **kwargs):
        self.petition = None
        return super().dispatch(request, *args, **kwargs)

    def get_petition(self) -> TidPetition:
        if self.petition is None:
            self.petition = get_object_or_404(TidPetition.objects.select_related("district", "municipality"),
                                              pk=self.kwargs["pk"])
        return self.petition

    def get_ordinance(self) -> TidOrdinance:
        ordinance = TidOrdinance.objects.filter(petition=self.get_petition()).first()
        if ordinance is None:
            raise ValidationError(_("La Legislatura aún no ha emitido la ordenanza."))
        return ordinance

    def initial(self, name: str) -> dict:
        ordinance = TidOrdinance.objects.filter(petition=self.get_petition()).first()
        if name == "formula_form" and ordinance is not None:
            return {"formula": ordinance.formula, "expected_amount": ordinance.expected_amount}
        if name == "collector_form" and ordinance is not None:
            return {"collector": ordinance.collector, "association": ordinance.association_id,
                    "copy_sent_to_crim_on": ordinance.copy_sent_to_crim_on}
        if name == "ordinance_form":
            petition = self.get_petition()
            return {"name": petition.district.name, "due_dates": ["07-01", "01-01"]}
        return {}

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx.update(selectors.tid_petition_page(self.get_petition()))
        for name, cls in self.page_forms.items():
            ctx[name] = kwargs.get(name) or cls(initial=self.initial(name), auto_id=f"{name}_%s")
        ctx["can_write"] = roles.can_write(self.request.user)
        if "typed_preview" in kwargs:
            ctx["typed_preview"] = kwargs["typed_preview"]
        ctx["cap_refusal"] = kwargs.get("cap_refusal")
        return ctx


class TidActionView(TidPetitionView):
    http_method_names = ["post"]
    form_name = ""
    anchor = ""

    def perform(self, form) -> str:  # pragma: no cover - every action overrides it
        raise NotImplementedError

    def post(self, request, *args, **kwargs):
        form = self.page_forms[self.form_name](request.POST, request.FILES, auto_id=f"{self.form_name}_%s")
        extra = {}
        if form.is_valid():
            try:
                message = self.perform(form)
            except ValidationError as exc:
                add_errors(form, exc)
                if hasattr(exc, "figures"):
                    extra["cap_refusal"] = exc.figures()
            else:
                messages.success(request, message)
                return redirect(self.get_petition().get_absolute_url() + self.anchor)
        return self.render_to_response(self.get_context_data(**{self.form_name: form}, **extra))


class TidFindingView(TidActionView):
    required_action = roles.DRAFT
    form_name, anchor = "finding_form", "#factores"

    def perform(self, form):
        finding = services.tid_finding_record(actor=self.request.user, petition=self.get_petition(),
                                              **form.cleaned_data)
        return _("Determinación registrada: factor (%(f)s) %(v)s.") % {"f": finding.factor,
                                                                        "v": finding.get_finding_display()}


class TidDenyView(TidActionView):
    required_action = roles.DRAFT
    form_name, anchor = "deny_form", "#factores"

    def perform(self, form):
        services.tid_petition_deny(actor=self.request.user, petition=self.get_petition(), on=form.cleaned_data["on"])
        return _("Petición denegada por la Legislatura.")


class TidOrdinanceView(TidActionView):
    required_action = roles.DRAFT
    form_name, anchor = "ordinance_form", "#ordenanza"

    def post(self, request, *args, **kwargs):
        if "preview" in request.POST:  # the page's preview without JavaScript
            form = self.page_forms[self.form_name](request.POST, auto_id=f"{self.form_name}_%s")
            return self.render_to_response(self.get_context_data(
                **{self.form_name: form}, typed_preview=preview_or_error(
                    self.get_petition().district, request.POST.get("formula", ""),
                    request.POST.get("expected_amount"))))
        return super().post(request, *args, **kwargs)

    def perform(self, form):
        ordinance = services.tid_ordinance_issue(actor=self.request.user, petition=self.get_petition(),
                                                 **form.cleaned_data)
        return _("Ordenanza %(n)s registrada.") % {"n": ordinance.number}


class TidFormulaChangeView(TidActionView):
    required_action = roles.DRAFT
    form_name, anchor = "formula_form", "#ordenanza"

    def perform(self, form):
        services.tid_ordinance_formula_change(actor=self.request.user, ordinance=self.get_ordinance(),
                                              **form.cleaned_data)
        return _("Fórmula actualizada.")


class TidMayorReceiptView(TidActionView):
    required_action = roles.DRAFT
    form_name, anchor = "mayor_receipt_form", "#alcalde"

    def perform(self, form):
        ordinance = services.tid_mayor_receipt(actor=self.request.user, ordinance=self.get_ordinance(),
                                               **form.cleaned_data)
        return _("Recibo del alcalde registrado; decide a más tardar el %(d)s (TID-1).") % {
            "d": ordinance.mayor_due_on.strftime("%d/%m/%Y")}


class TidMayorDecisionView(TidActionView):
    required_action = roles.DRAFT
    form_name, anchor = "mayor_decision_form", "#alcalde"

    def perform(self, form):
        ordinance = services.tid_mayor_decide(actor=self.request.user, ordinance=self.get_ordinance(),
                                              **form.cleaned_data)
        if ordinance.mayor_decision == TidOrdinance.Decision.APPROVED:
            return _("Aprobada por el alcalde. Publicar a más tardar el %(d)s (TID-1).") % {
                "d": ordinance.publication_due_on.strftime("%d/%m/%Y")}
        return _("Desaprobada por el alcalde.")


class TidPublicationView(TidActionView):
    required_action = roles.DRAFT
    form_name, anchor = "publication_form", "#publicacion"

    def perform(self, form):
        services.tid_publication_record(actor=self.request.user, ordinance=self.get_ordinance(), **form.cleaned_data)
        return _("Publicación registrada.")


class TidCollectorView(TidActionView):
    required_action = roles.DRAFT
    form_name, anchor = "collector_form", "#cobrador"

    def perform(self, form):
        services.tid_collector_set(actor=self.request.user, ordinance=self.get_ordinance(), **form.cleaned_data)
        return _("Cobrador registrado.")


class TidAssociationReceiptView(TidActionView):
    required_action = roles.DRAFT
    form_name, anchor = "association_receipt_form", "#cobrador"

    def perform(self, form):
        ordinance = services.tid_association_receipt(actor=self.request.user, ordinance=self.get_ordinance(),
                                                     **form.cleaned_data)
        first = ordinance.notice_rounds.first()
        return _("Recibo de la asociación registrado. Primera notificación certificada a más tardar el %(d)s "
                 "(TID-4).") % {"d": first.due_on.strftime("%d/%m/%Y")}


class TidAccountEntryView(TidActionView):
    required_action = roles.ADJUST
    form_name, anchor = "entry_form", "#cuenta"

    def perform(self, form):
        entry = services.tid_account_entry_add(actor=self.request.user, ordinance=self.get_ordinance(),
                                               **form.cleaned_data)
        return _("Movimiento registrado: %(e)s") % {"e": entry}


class TidAuditView(TidActionView):
    required_action = roles.DRAFT
    form_name, anchor = "audit_form", "#cuenta"

    def perform(self, form):
        services.tid_audit_record(actor=self.request.user, ordinance=self.get_ordinance(), **form.cleaned_data)
        return _("Auditoría registrada.")


class TidNoticeMailedView(WriterRequiredMixin, TemplateView):
    required_action = roles.DRAFT
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        petition = get_object_or_404(TidPetition, pk=kwargs["pk"])
        form = forms.MailedForm(request.POST)
        if not form.is_valid():
            messages.error(request, " ".join(e for errs in form.errors.values() for e in errs))
        else:
            notice = get_object_or_404(TidNoticeRound, pk=form.cleaned_data["round_id"],
                                       ordinance__petition=petition)
            try:
                notice = services.tid_notice_mailed(actor=request.user, notice_round=notice,
                                                    mailed_on=form.cleaned_data["mailed_on"])
                messages.success(request, _("Envío registrado (tarde).") if notice.mailed_on > notice.due_on
                                 else _("Envío registrado."))
            except ValidationError as exc:
                messages.error(request, error_text(exc))
        return redirect(petition.get_absolute_url() + "#cobrador")


def preview_or_error(district, formula: str, expected_amount) -> dict:
    """The TID-2 preview for the page, or the refusal with its position."""
    try:
        amount = Decimal(str(expected_amount).replace(",", "")) if expected_amount not in (None, "") else None
    except InvalidOperation:
        amount = None
    try:
        return {"preview": selectors.tid_formula_preview(district, formula, amount), "formula": formula}
    except FormulaRefused as exc:
        pos = min(max(exc.position, 0), len(formula))
        return {"error": exc, "formula": formula, "before": formula[:pos], "at": formula[pos:pos + 1],
                "after": formula[pos + 1:]}


class TidPreviewView(WriterRequiredMixin, TemplateView):
    """The live preview of the ordinance form: the formula over the member parcels, as an HTML
    fragment (status 400 with the position and reason when the formula is refused)."""

    required_action = roles.DRAFT

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        petition = get_object_or_404(TidPetition.objects.select_related("district"), pk=kwargs["pk"])
        result = preview_or_error(petition.district, request.POST.get("formula", ""),
                                  request.POST.get("expected_amount"))
        return render(request, "improvement/_preview.html", result, status=400 if "error" in result else 200)
