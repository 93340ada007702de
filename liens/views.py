"""Staff pages for liens: the ladder (LIEN-2), rulings, sale distribution (LIEN-3), the IRR-12
seizure check, lien certificates and the legal-review queue. Thin: selectors read, services write."""
from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _t
from django.views.generic import FormView, TemplateView, View

from core import roles
from core.forms import parse_date_input
from core.mixins import StaffRequiredMixin, WriterRequiredMixin
from core.rule_parameters import ParameterNotFound
from districts.models import Parcel
from districts.reference import normalize_cadastre
from districts.selectors import parcel_search
from liens import forms, selectors, services
from liens.models import Lien, LienRuling


def add_errors(form, exc: ValidationError) -> None:
    """A service's ValidationError shown on the form: on its field when the form has it."""
    if hasattr(exc, "error_dict"):
        for name, errs in exc.message_dict.items():
            form.add_error(name if name in form.fields else None, errs)
    else:
        form.add_error(None, exc.messages)


def _parse_date(value: str | None) -> date | None:
    try:
        return parse_date_input(value) if value else None   # dd/mm/aaaa as typed, or ISO from a link
    except ValueError:
        return None


def ladder_url(parcel) -> str:
    return reverse("liens:ladder", args=[parcel.pk])


class ParcelMixin:
    """Loads `self.parcel` from the URL's pk (after the role checks of the staff mixins)."""

    def get_parcel(self) -> Parcel:
        if not hasattr(self, "_parcel"):
            self._parcel = get_object_or_404(Parcel.objects.select_related("municipality"), pk=self.kwargs["pk"])
        return self._parcel

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["parcel"] = self.get_parcel()
        ctx["is_legal_reviewer"] = roles.can(self.request.user, roles.RULE)
        return ctx


class LegalReviewerRequiredMixin(WriterRequiredMixin):
    """Legal rulings on rank (LIEN-2): the `rule` action of the role matrix; other staff get 403."""

    required_action = roles.RULE


# --- Legal-review queue -----------------------------------------------------------------------

class QueueView(StaffRequiredMixin, TemplateView):
    """Parcels whose liens are in conflict (LIEN-2), waiting for a legal reviewer's ruling; and a
    cadastre search that leads to any parcel's ladder."""

    template_name = "liens/queue.html"

    def get(self, request, *args, **kwargs):
        q = request.GET.get("q", "").strip()
        if q:
            exact = Parcel.objects.filter(cadastre=normalize_cadastre(q)).first()
            if exact is not None:
                return redirect(ladder_url(exact))
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        state = self.request.GET.get("state", "open")
        state = state if state in ("open", "resolved", "all") else "open"
        flags = list(selectors.conflict_flags(state=state)[:200])
        parcels = Parcel.objects.in_bulk([f.object_id for f in flags])
        ctx["rows"] = [{"flag": f, "parcel": parcels.get(f.object_id)} for f in flags]
        ctx["state"] = state
        ctx["q"] = self.request.GET.get("q", "").strip()
        ctx["matches"] = list(parcel_search(ctx["q"])[:20]) if ctx["q"] else []
        ctx["is_legal_reviewer"] = roles.can(self.request.user, roles.RULE)
        return ctx


# --- Ladder -----------------------------------------------------------------------------------

class LadderView(ParcelMixin, StaffRequiredMixin, TemplateView):
    """The parcel's liens ranked highest first, same-rank groups together, every pairwise decision
    with its reason, the IRR-11 conditions each mortgage fails, rulings, and the record form."""

    template_name = "liens/ladder.html"
    record_form = None

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        parcel = self.get_parcel()
        on = _parse_date(self.request.GET.get("on"))
        if on is not None and on > timezone.localdate():
            on = None
        try:
            ranking = selectors.parcel_ranking(parcel, on)
        except ParameterNotFound:  # before the first lien-law parameters: today's ladder, and say so
            if on is None:   # the lien-law parameters ship with the migrations: none today is a broken install
                raise
            messages.error(self.request, _t("No hay parámetros de gravámenes vigentes al %(date)s; se muestra "
                                            "la prelación de hoy.") % {"date": on.isoformat()})
            on = None
            ranking = selectors.parcel_ranking(parcel, on)
        ctx.update({
            "on": on, "ranking": ranking, "flags": selectors.open_flags_for(parcel),
            "inactive": selectors.inactive_liens(parcel) if on is None else [],
            "record_form": self.record_form or forms.LienRecordForm(initial={"constituted_on": timezone.localdate()}),
            "today": timezone.localdate(), "statuses": Lien.Status.choices,
            "rulings": LienRuling.objects.filter(parcel=parcel).select_related("higher", "lower", "decided_by"),
            "reason_texts": [(code, str(text)) for code, text in selectors.REASON_TEXT.items()],
        })
        return ctx


class LienRecordView(ParcelMixin, WriterRequiredMixin, View):
    required_action = roles.DRAFT
    def post(self, request, pk):
        parcel = self.get_parcel()
        form = forms.LienRecordForm(request.POST)
        if form.is_valid():
            try:
                lien = services.lien_record(parcel=parcel, actor=request.user, **form.service_kwargs())
            except ValidationError as exc:
                add_errors(form, exc)
            else:
                messages.success(request, _t("Gravamen registrado: %(lien)s.") % {"lien": selectors.lien_label(lien)})
                return redirect(ladder_url(parcel) + "#ladder")
        view = LadderView(request=request, kwargs=self.kwargs, args=())
        view.record_form = form
        return view.render_to_response(view.get_context_data())


class LienStatusView(WriterRequiredMixin, View):
    """Satisfy, release or reinstate a lien; the parcel is re-ranked."""

    required_action = roles.DRAFT

    def post(self, request, pk):
        lien = get_object_or_404(Lien.objects.select_related("parcel"), pk=pk)
        form = forms.LienStatusForm(request.POST)
        if not form.is_valid():
            messages.error(request, _t("Revise el estado y la fecha."))
            return redirect(ladder_url(lien.parcel))
        d = form.cleaned_data
        try:
            services.lien_change_status(lien=lien, status=d["status"], on=d["on"], reason=d["reason"],
                                        actor=request.user)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(request, _t("Estado del gravamen actualizado."))
        return redirect(ladder_url(lien.parcel))


# --- Rulings ----------------------------------------------------------------------------------

class RulingCreateView(ParcelMixin, LegalReviewerRequiredMixin, FormView):
    template_name = "liens/ruling_form.html"
    form_class = forms.RulingForm

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs["liens"] = selectors.liens_in_force(self.get_parcel())
        return kwargs

    def get_initial(self):
        return {k: self.request.GET[k] for k in ("higher", "lower") if self.request.GET.get(k, "").isdigit()}

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["ranking"] = selectors.parcel_ranking(self.get_parcel())
        return ctx

    def form_valid(self, form):
        d = form.cleaned_data
        try:
            ruling = services.lien_ruling_record(parcel=self.get_parcel(), higher=d["higher"], lower=d["lower"],
                                                 reference=d["reference"], note=d["note"], actor=self.request.user)
        except ValidationError as exc:
            add_errors(form, exc)
            return self.form_invalid(form)
        messages.success(self.request, _t("Resolución %(ref)s registrada; el rango se recalculó.") % {
            "ref": ruling.reference})
        return redirect(ladder_url(self.get_parcel()))


class RulingRevokeView(LegalReviewerRequiredMixin, View):
    def post(self, request, pk):
        ruling = get_object_or_404(LienRuling.objects.select_related("parcel"), pk=pk)
        parcel = ruling.parcel
        form = forms.RulingRevokeForm(request.POST)
        if not form.is_valid():
            messages.error(request, _t("Indique el motivo de la revocación."))
            return redirect(ladder_url(parcel))
        services.lien_ruling_revoke(ruling=ruling, reason=form.cleaned_data["reason"], actor=request.user)
        messages.success(request, _t("Resolución revocada; el rango se recalculó."))
        return redirect(ladder_url(parcel))


# --- LIEN-3 distribution ----------------------------------------------------------------------

class DistributionView(ParcelMixin, StaffRequiredMixin, TemplateView):
    """What each lien receives from a sale's proceeds; printable. Blocked while conflicts exist."""

    template_name = "liens/distribution.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        form = forms.DistributionForm(self.request.GET or None)
        ctx["form"] = form
        parcel = self.get_parcel()
        if form.is_valid():
            ctx["result"] = selectors.parcel_distribution(parcel, form.cleaned_data["proceeds"])
            ctx["ranking"] = ctx["result"].ranking
        else:
            ctx["ranking"] = selectors.parcel_ranking(parcel)
        ctx["printed_at"] = timezone.localtime()
        return ctx


# --- IRR-12 seizure ---------------------------------------------------------------------------

class SeizureView(ParcelMixin, StaffRequiredMixin, FormView):
    """IRR-12: the amount owed (typed, or pre-filled by the collections pages through the query
    string) and a proposed seizure value against `2 × owed`; an excess raises a SEIZURE_LIMIT flag."""

    required_action = roles.ISSUE

    template_name = "liens/seizure.html"
    form_class = forms.SeizureForm

    def get_initial(self):
        return {k: self.request.GET[k] for k in ("amount_owed", "proposed_value") if self.request.GET.get(k)}

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        parcel = self.get_parcel()
        ctx["districts"] = selectors.bonded_irrigation_districts(parcel)
        liens, secured = selectors.liens_securing(parcel)
        ctx["liens"] = [(lien, secured[lien.pk]) for lien in liens]
        ctx["today"] = timezone.localdate()
        ctx["flags"] = selectors.open_flags_for(parcel)
        ctx["tax_value"], ctx["liens_total"], ctx["net_value"] = selectors.net_tax_value(parcel)
        return ctx

    def form_valid(self, form):
        d = form.cleaned_data
        try:
            figures = services.lien_seizure_check(parcel=self.get_parcel(), amount_owed=d["amount_owed"],
                                                  proposed_value=d["proposed_value"], note=d["note"],
                                                  actor=self.request.user)
        except ValidationError as exc:
            add_errors(form, exc)
            return self.form_invalid(form)
        return self.render_to_response(self.get_context_data(form=form, figures=figures))


# --- Certificate ------------------------------------------------------------------------------

class CertificateView(ParcelMixin, StaffRequiredMixin, FormView):
    """Issue the lien certificate as of a date (PDF with verification code); earlier ones listed."""

    required_action = roles.ISSUE

    template_name = "liens/certificate_form.html"
    form_class = forms.CertificateForm

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["certificates"] = selectors.parcel_certificates(self.get_parcel())[:20]
        return ctx

    def form_valid(self, form):
        d = form.cleaned_data
        try:
            document = services.lien_certificate_issue(parcel=self.get_parcel(), on=d["on"], office=d["office"],
                                                       language=d["language"], actor=self.request.user)
        except ValidationError as exc:
            add_errors(form, exc)
            return self.form_invalid(form)
        messages.success(self.request, _t("Certificación emitida: código %(code)s.") % {
            "code": document.verification_code})
        return redirect("core:document_pdf", pk=document.pk)

