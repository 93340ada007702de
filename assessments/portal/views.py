"""The owners' portal: an owner sees their own parcels, accounts, notices and payments, nothing else.

Every record comes through an `access_*` selector (404 for anything not theirs); every PDF
download is logged (core DocumentDownloadLog).
"""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.db import transaction
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import FormView, TemplateView

from assessments.portal import selectors, services
from assessments.portal.forms import ActivationForm
from core import roles, signin


class OwnerRequiredMixin(LoginRequiredMixin):
    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not roles.has_role(request.user, roles.OWNER):
            return redirect("home")
        return super().dispatch(request, *args, **kwargs)


def _stored_pdf(request, *, document_id: int, file_name: str, filename: str) -> FileResponse:
    """Log the download (who, when, from where), then stream the stored file as it is: no rendering,
    no template, no Document row read (the file's name is all FileResponse needs)."""
    from core.documents.services import document_download_record

    document_download_record(document_id=document_id, user=request.user, ip=request.META.get("REMOTE_ADDR"))
    response = FileResponse(default_storage.open(file_name, "rb"), content_type="application/pdf",
                            filename=filename, as_attachment=True)
    response["Cache-Control"] = "private, no-store"
    return response


def pdf_response(request, document, *, filename: str) -> FileResponse:
    """Send an issued document's PDF and log the download."""
    return _stored_pdf(request, document_id=document.pk, file_name=document.file.name, filename=filename)


def notice_pdf_response(request, notice) -> FileResponse:
    document = notice.document
    if document is None:   # numbered without its PDF (in-process tasks): rendered now, once
        from assessments.notices.services import notice_document

        document = notice_document(notice=notice)
    return pdf_response(request, document, filename=f"{notice.display_number}.pdf")


def notice_download_response(request, pk) -> HttpResponse:
    """An owner downloads a notice: the portal's busiest request, kept to four queries (session,
    user, `selectors.notice_download`, the log insert) outside any request transaction."""
    download = selectors.notice_download(request.user, pk)
    if download is None:
        if not roles.is_owner(request.user):
            return redirect("home")      # as OwnerRequiredMixin: office staff are sent to their pages
        raise Http404
    if not download.is_owner:
        return redirect("home")
    if download.document_id is None:     # the rare notice without its stored PDF: the full path renders it
        return notice_pdf_response(request, selectors.access_notice(request.user, pk))
    return _stored_pdf(request, document_id=download.document_id, file_name=download.file_name,
                       filename=download.filename)


def receipt_pdf_response(request, payment) -> FileResponse:
    document = services.owner_receipt(payment=payment, language=request.LANGUAGE_CODE or "es")
    if document is None:
        raise Http404("no receipt for this payment (returned before one was issued)")
    return pdf_response(request, document, filename=f"recibo-{payment.receipt_number}.pdf")


class PortalHomeView(OwnerRequiredMixin, TemplateView):
    template_name = "portal/home.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        user = self.request.user
        ctx["party"] = selectors.access_party(user)
        ctx["notice_languages"] = [("es", "Español"), ("en", "English")]
        ctx["parcels"] = selectors.owner_parcels(user)
        accounts = list(selectors.owner_accounts(user))
        balances = selectors.account_balances(accounts)
        ctx["accounts"] = [(a, balances.get(a.pk, 0)) for a in accounts]
        ctx["notices"] = selectors.owner_notices(user)[:5]
        ctx["payments"] = selectors.owner_payments(user)[:5]
        return ctx


class PortalParcelView(OwnerRequiredMixin, TemplateView):
    template_name = "portal/parcel.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        user = self.request.user
        parcel = selectors.access_parcel(user, self.kwargs["pk"])
        account = getattr(parcel, "account", None)
        today = timezone.localdate()
        ctx.update(parcel=parcel, account=account, today=today,
                   open_installments=selectors.open_charges(account, as_of=today) if account else [],
                   notices=selectors.parcel_notices(user, parcel),
                   payments=selectors.owner_payments(user).filter(account__parcel=parcel) if account else [])
        return ctx


class PortalNoticeListView(OwnerRequiredMixin, TemplateView):
    template_name = "portal/notices.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["notices"] = selectors.owner_notices(self.request.user)
        return ctx


# No request-wide transaction on the downloads: their only write is the log row, one INSERT that
# commits on its own, and ATOMIC_REQUESTS would add BEGIN/SAVEPOINT/RELEASE/COMMIT round trips.
@method_decorator(transaction.non_atomic_requests, name="dispatch")
class PortalNoticePdfView(LoginRequiredMixin, View):
    """The role is checked inside `selectors.notice_download`'s query (see notice_download_response)."""

    def get(self, request, pk):
        return notice_download_response(request, pk)


class PortalAccountView(OwnerRequiredMixin, TemplateView):
    template_name = "portal/account.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        today = timezone.localdate()
        result = selectors.owner_statement(self.request.user, self.kwargs["pk"], as_of=today)
        ctx.update(account=result.statement.account, st=result.statement, since=result.since,
                   opening=result.opening, entries=result.entries, today=today)
        return ctx


class PortalPaymentListView(OwnerRequiredMixin, TemplateView):
    template_name = "portal/payments.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        payments = list(selectors.owner_payments(self.request.user))
        ctx["payments"] = [(p, selectors.payment_receipt(p)) for p in payments]
        return ctx


@method_decorator(transaction.non_atomic_requests, name="dispatch")
class PortalReceiptPdfView(OwnerRequiredMixin, View):
    def get(self, request, pk):
        return receipt_pdf_response(request, selectors.access_payment(request.user, pk))


class PortalNoticeLanguageView(OwnerRequiredMixin, View):
    """The owner's choice of language for their next notices (Spanish by default)."""

    http_method_names = ["post"]

    def post(self, request):
        try:
            with transaction.atomic():
                services.owner_notice_language_set(user=request.user, language=request.POST.get("language", ""))
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(request, _("Sus próximos avisos se emitirán en el idioma elegido."))
        return redirect("portal:home")


class PortalActivateView(FormView):
    """Public: an owner creates their portal account with the code printed on their notice."""

    template_name = "portal/activate.html"
    form_class = ActivationForm

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            return redirect("portal:home" if roles.is_owner(request.user) else "home")
        # Codes printed on notices are guessed here: an address that missed too often is refused (core.signin).
        if request.method == "POST" and signin.is_locked(request, signin.PORTAL_ACTIVATION):
            return signin.refused(request)
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form):
        data = form.cleaned_data
        try:
            user = services.portal_activate(code=data["code"], cadastre=data["cadastre"], username=data["username"],
                                            password=data["password1"])
        except ValidationError as exc:
            if "code" in exc.message_dict:   # a wrong code or property (not a taken user name, a weak password)
                signin.record_failure(self.request, signin.PORTAL_ACTIVATION)
            for field, errors in exc.message_dict.items():
                target = "password1" if field == "password" else field
                form.add_error(target if target in form.fields else None, errors)
            return self.form_invalid(form)
        login(self.request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(self.request, _("Su cuenta quedó activada. Bienvenido(a) al portal de dueños."))
        return redirect("portal:home")
