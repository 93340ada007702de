"""Staff pages of the money core: accounts and statements, the cashier's window and batch, bank
files, the adjustments queue and collections by fund. Thin: forms → services → messages."""
from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from assessments.ledger import forms, selectors, services
from assessments.ledger.batches import batch_differences, batch_recorded
from assessments.ledger.receipts import payoff_certificate_issue, receipt_document, receipt_issue
from assessments.models import Account, Adjustment, BankFile, CashierBatch, Installment, Payment
from core import roles
from core.forms import date_refusal, parse_date_input
from core.mixins import StaffRequiredMixin


class LedgerRoleMixin(StaffRequiredMixin):
    """Staff read (auditors included); writes are the cash window's (`pay`) unless the view declares
    another action of the role matrix. `write_access` also guards GET."""

    required_action = roles.PAY

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        user = self.request.user
        ctx.update(can_take_payments=roles.can(user, roles.PAY),
                   can_request=roles.can(user, roles.REQUEST),
                   can_approve=roles.can(user, roles.APPROVE))
        return ctx


def _errors(request, exc: ValidationError) -> None:
    for msg in exc.messages:
        messages.error(request, msg)


def _parse_date(raw: str | None, default: date) -> date:
    try:
        return parse_date_input(raw) if raw else default   # dd/mm/aaaa as typed, or ISO from a link
    except ValueError:
        return default


# --- accounts ---------------------------------------------------------------------------------

class LedgerHomeView(LedgerRoleMixin, TemplateView):
    template_name = "assessments/ledger/home.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        q = self.request.GET.get("q", "").strip()
        ctx["q"] = q
        ctx["results"] = selectors.account_search(q)[:50] if q else []
        ctx["open_batch"] = selectors.open_batch_for(self.request.user, timezone.localdate())
        ctx["pending_count"] = selectors.pending_adjustments().count()
        return ctx


class ParcelAccountView(LedgerRoleMixin, View):
    """From a parcel to its account (a parcel with no charges has no account yet)."""

    def get(self, request, parcel_id: int):
        account = Account.objects.filter(parcel_id=parcel_id).first()
        if account is None:
            messages.info(request, _("La parcela no tiene cargos registrados."))
            return redirect(reverse("districts:parcel_detail", args=[parcel_id]))
        return redirect(account.get_absolute_url())


class AccountView(LedgerRoleMixin, TemplateView):
    template_name = "assessments/ledger/account.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        try:
            account = selectors.account_detail(self.kwargs["pk"])
        except Account.DoesNotExist as exc:
            raise Http404 from exc
        today = timezone.localdate()
        as_of = _parse_date(self.request.GET.get("as_of"), today)
        ctx["as_of_error"] = date_refusal(self.request.GET.get("as_of"))   # shown next to the box; today is used
        st = services.statement(account=account, as_of=as_of)
        running, entry_rows = 0, []
        for e in st.entries:
            running += e.amount
            entry_rows.append((e, running))
        today_st = st if as_of == today else services.statement(account=account, as_of=today, with_entries=False)
        ctx.update(account=account, statement=st, as_of=as_of, today=today, is_today=as_of == today,
                   entry_rows=entry_rows,
                   accrued_today={i.installment_id: i.accrued_surcharge for i in today_st.installments},
                   as_of_form=forms.AsOfForm(initial={"as_of": as_of}),
                   today_statement=today_st,
                   payments=selectors.account_payments(account)[:50],
                   receivables=selectors.receivables_for(account_id=account.pk),
                   owners=(account.parcel.ownerships.filter(end_date__isnull=True).select_related("party")
                           if account.parcel_id else []),
                   liens=self._liens(account, as_of))
        return ctx

    @staticmethod
    def _liens(account: Account, on):
        """The parcel's liens, each with what it secures on `on` (LIEN-4) as `secured`."""
        from liens.outstanding import secured_amounts

        if not account.parcel_id:
            return []
        liens = list(account.parcel.liens.order_by("constituted_on", "id"))
        secured = secured_amounts(liens, on)
        for lien in liens:
            lien.secured = secured[lien.pk] if lien.constituted_on <= on else None
        return liens


class CertificateView(LedgerRoleMixin, TemplateView):
    """*Certificación de deuda* (payoff) as of a date: the data; the PDF goes through core.documents."""

    template_name = "assessments/ledger/certificate.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        account = get_object_or_404(Account, pk=self.kwargs["pk"])
        as_of = _parse_date(self.request.GET.get("as_of"), timezone.localdate())
        ctx.update(services.payoff_certificate(account=account, as_of=as_of))
        return ctx


class CertificatePdfView(LedgerRoleMixin, View):
    """Issue the payoff certificate as a verifiable PDF (any staff member may ask for one)."""

    required_action = roles.READ  # a certificate of debt: every staff role issues one

    def post(self, request, pk):
        account = get_object_or_404(Account, pk=pk)
        as_of = _parse_date(request.POST.get("as_of"), timezone.localdate())
        document = payoff_certificate_issue(account=account, as_of=as_of, actor=request.user,
                                            language=request.LANGUAGE_CODE or "es")
        return redirect(reverse("core:document_pdf", args=[document.pk]))


# --- payments ----------------------------------------------------------------------------------

class PaymentCreateView(LedgerRoleMixin, TemplateView):
    template_name = "assessments/ledger/payment_form.html"
    write_access = True

    @cached_property
    def account(self) -> Account:
        return get_object_or_404(Account, pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        today = timezone.localdate()
        ctx.setdefault("form", forms.PaymentForm(initial={"payer_name": self._default_payer()}))
        ctx.update(account=self.account, batch=selectors.open_batch_for(self.request.user, today),
                   statement=services.statement(account=self.account, as_of=today, with_entries=False))
        return ctx

    def _default_payer(self) -> str:
        if self.account.party_id:
            return self.account.party.display_name
        owner = self.account.parcel.ownerships.filter(end_date__isnull=True).select_related("party").first()
        return owner.party.display_name if owner else ""

    def post(self, request, pk):
        form = forms.PaymentForm(request.POST)
        batch = selectors.open_batch_for(request.user, timezone.localdate())
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form))
        data = form.cleaned_data
        try:
            payment = services.payment_record(
                account=self.account, amount=data["amount"], method=data["method"], paid_on=data["paid_on"],
                payer=data["payer_name"], idempotency_key=data["idempotency_key"], batch=batch, actor=request.user,
                check_number=data["check_number"])
        except ValidationError as exc:
            for field, errs in exc.message_dict.items():
                form.add_error(field if field in form.fields else None, errs)
            return self.render_to_response(self.get_context_data(form=form))
        messages.success(request, _("Pago registrado: recibo %(n)s por $%(a)s.") % {
            "n": payment.receipt_number, "a": f"{payment.amount:,.2f}"})
        return redirect(payment.get_absolute_url())


class PaymentView(LedgerRoleMixin, TemplateView):
    template_name = "assessments/ledger/payment.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        payment = get_object_or_404(Payment.objects.select_related("account", "batch", "recorded_by"),
                                    pk=self.kwargs["pk"])
        ctx.update(payment=payment, entries=payment.entries.select_related("receivable", "installment").order_by("id"),
                   receipt=receipt_document(payment),
                   return_form=forms.ReturnForm(initial={"on": timezone.localdate()}))
        return ctx


class ReceiptIssueView(LedgerRoleMixin, View):
    def post(self, request, pk):
        payment = get_object_or_404(Payment, pk=pk)
        document = receipt_issue(payment=payment, actor=request.user, language=request.LANGUAGE_CODE or "es")
        return redirect(reverse("core:document_pdf", args=[document.pk]))


class PaymentReturnView(LedgerRoleMixin, View):
    required_action = roles.ADJUST

    def post(self, request, pk):
        payment = get_object_or_404(Payment, pk=pk)
        form = forms.ReturnForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Indique la fecha y el motivo de la devolución."))
        else:
            try:
                services.payment_return(payment=payment, on=form.cleaned_data["on"],
                                        reason=form.cleaned_data["reason"], actor=request.user)
                messages.success(request, _("Pago devuelto; el saldo y los recargos se restauraron."))
            except ValidationError as exc:
                _errors(request, exc)
        return redirect(payment.get_absolute_url())


# --- batches ----------------------------------------------------------------------------------

class MyBatchView(LedgerRoleMixin, View):
    """The signed-in cashier's batch for today: opened on request."""

    def get(self, request):
        batch = selectors.open_batch_for(request.user, timezone.localdate())
        if batch is not None:
            return redirect(batch.get_absolute_url())
        return redirect(reverse("assessments:batches"))

    def post(self, request):
        batch = services.batch_open(cashier=request.user, business_date=timezone.localdate(), actor=request.user)
        messages.success(request, _("Lote de caja abierto."))
        nxt = request.POST.get("next", "")
        return redirect(nxt if nxt.startswith("/cobros/") else batch.get_absolute_url())


class BatchListView(LedgerRoleMixin, TemplateView):
    template_name = "assessments/ledger/batch_list.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx.update(batches=selectors.recent_batches(),
                   open_batch=selectors.open_batch_for(self.request.user, timezone.localdate()),
                   today=timezone.localdate())
        return ctx


class BatchView(LedgerRoleMixin, TemplateView):
    template_name = "assessments/ledger/batch.html"

    @cached_property
    def batch(self) -> CashierBatch:
        return get_object_or_404(CashierBatch.objects.select_related("cashier"), pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        recorded = batch_recorded(self.batch)
        form = kwargs.get("form") or forms.BatchCloseForm()
        counted = form.counted() if form.is_bound and form.is_valid() else None
        diffs = batch_differences(recorded, counted) if counted is not None else {}
        rows = []
        for value, label in Payment.Method.choices:
            rec = recorded.get(value)
            rows.append({"method": value, "label": label, "recorded": rec, "field": form[f"counted_{value}"],
                         "counted": (self.batch.counted or {}).get(value), "difference": diffs.get(value)})
        ctx.update(batch=self.batch, payments=selectors.batch_payments(self.batch), rows=rows, form=form,
                   total=sum(recorded.values()) if recorded else 0, differences=diffs,
                   is_mine=self.batch.cashier_id == self.request.user.pk)
        return ctx

    def post(self, request, pk):
        if self.batch.cashier_id != request.user.pk and not roles.can(request.user, roles.APPROVE):
            raise PermissionDenied
        form = forms.BatchCloseForm(request.POST)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form))
        try:
            services.batch_close(batch=self.batch, counted=form.counted(), actor=request.user)
        except ValidationError as exc:
            _errors(request, exc)
            return self.render_to_response(self.get_context_data(form=form))
        messages.success(request, _("Lote cerrado y cuadrado."))
        return redirect(self.batch.get_absolute_url())


# --- bank files ---------------------------------------------------------------------------------

class BankFileListView(LedgerRoleMixin, TemplateView):
    template_name = "assessments/ledger/bankfile_list.html"
    required_action = roles.PAY

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx.update(form=kwargs.get("form") or forms.BankFileForm(), files=selectors.recent_bank_files(),
                   opening_form=kwargs.get("opening_form") or forms.OpeningBalancesForm(),
                   opening_report=kwargs.get("opening_report"))
        return ctx

    def post(self, request):
        if "opening" in request.POST:
            return self._opening(request)
        form = forms.BankFileForm(request.POST, request.FILES)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form))
        try:
            result = services.bankfile_import(file=form.cleaned_data["file"], actor=request.user)
        except ValidationError as exc:
            _errors(request, exc)
            return self.render_to_response(self.get_context_data(form=form))
        if result.already_imported:
            messages.info(request, _("Este archivo ya se había importado; no se registró nada nuevo."))
        else:
            messages.success(request, _("Archivo importado."))
        return redirect(result.bank_file.get_absolute_url())

    def _opening(self, request):
        from districts.models import Office

        form = forms.OpeningBalancesForm(request.POST, request.FILES)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(opening_form=form))
        office = Office.objects.filter(collects=True).order_by("name").first()
        if office is None:
            messages.error(request, _("No hay oficina que cobre registrada."))
            return self.render_to_response(self.get_context_data(opening_form=form))
        report = services.opening_balances_import(file=form.cleaned_data["file"], office=office,
                                                  issued_on=form.cleaned_data["issued_on"], actor=request.user)
        if report.ok:
            messages.success(request, _("Saldos de apertura: %(c)s creados, %(s)s ya existían.") % {
                "c": report.created, "s": report.skipped})
        else:
            messages.error(request, _("No se importó nada: corrija los errores."))
        return self.render_to_response(self.get_context_data(opening_form=form, opening_report=report))


class BankFileView(LedgerRoleMixin, TemplateView):
    template_name = "assessments/ledger/bankfile.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        bank_file = get_object_or_404(BankFile, pk=self.kwargs["pk"])
        ctx.update(bank_file=bank_file, lines=bank_file.lines.select_related("payment").order_by("line_no"))
        return ctx


# --- adjustments ---------------------------------------------------------------------------------

class AdjustmentRequestView(LedgerRoleMixin, TemplateView):
    template_name = "assessments/ledger/adjustment_form.html"
    required_action = roles.REQUEST
    write_access = True

    @cached_property
    def account(self) -> Account:
        return get_object_or_404(Account, pk=self.kwargs["pk"])

    @cached_property
    def payers(self):
        """Who holds credit on the account (credits belong to the payer): the payee choices."""
        from assessments.ledger.common import payer_credits

        return payer_credits(self.account)

    @cached_property
    def installments(self) -> list[Installment]:
        return list(Installment.objects.filter(receivable__account=self.account)
                    .select_related("receivable").order_by("due_date", "receivable_id", "seq"))

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx.update(account=self.account,
                   form=kwargs.get("form") or forms.AdjustmentRequestForm(installments=self.installments,
                                                                          payers=self.payers))
        return ctx

    def post(self, request, pk):
        form = forms.AdjustmentRequestForm(request.POST, installments=self.installments, payers=self.payers)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form))
        data = form.cleaned_data
        inst = next((i for i in self.installments if str(i.pk) == data["installment"]), None)
        try:
            services.adjustment_request(
                kind=data["kind"], account=self.account, amount=data["amount"], reason=data["reason"],
                actor=request.user, installment=inst,
                receivable=inst.receivable if inst else None, effective_date=data["effective_date"],
                payee=form.payee_value())
        except ValidationError as exc:
            for field, errs in exc.message_dict.items():
                form.add_error(field if field in form.fields else None, errs)
            return self.render_to_response(self.get_context_data(form=form))
        messages.success(request, _("Solicitud enviada; otra persona debe aprobarla."))
        return redirect(self.account.get_absolute_url())


class AdjustmentQueueView(LedgerRoleMixin, TemplateView):
    template_name = "assessments/ledger/adjustments.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx.update(pending=selectors.pending_adjustments(), decided=selectors.decided_adjustments())
        return ctx


class AdjustmentDecideView(LedgerRoleMixin, View):
    required_action = roles.APPROVE

    def post(self, request, pk):
        adj = get_object_or_404(Adjustment, pk=pk)
        form = forms.DecisionForm(request.POST)
        note = form.cleaned_data["note"] if form.is_valid() else ""
        try:
            if request.POST.get("decision") == "approve":
                services.adjustment_approve(adjustment=adj, actor=request.user, note=note)
                messages.success(request, _("Aprobado y asentado."))
            else:
                services.adjustment_reject(adjustment=adj, actor=request.user, note=note)
                messages.success(request, _("Rechazado."))
        except ValidationError as exc:
            _errors(request, exc)
        return redirect(reverse("assessments:adjustments"))


# --- reports -----------------------------------------------------------------------------------

class CollectionsView(LedgerRoleMixin, TemplateView):
    template_name = "assessments/ledger/collections.html"

    def get(self, request, *args, **kwargs):
        today = timezone.localdate()
        start = _parse_date(request.GET.get("start"), today.replace(day=1))
        end = _parse_date(request.GET.get("end"), today)
        if end < start:
            start, end = end, start
        report = services.collections_by_fund(start=start, end=end)
        if request.GET.get("format") == "csv":
            response = HttpResponse(services.collections_csv(report), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="recaudos-{start}-{end}.csv"'
            return response
        ctx = self.get_context_data(report=report, form=forms.PeriodForm(initial={"start": start, "end": end}),
                                    start=start, end=end)
        return self.render_to_response(ctx)
