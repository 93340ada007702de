"""The second step of signing in (core/otp.py): verify a code, or set up the authenticator and get recovery codes."""
from __future__ import annotations

from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views import View

from core import otp, signin


def _next(request) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return reverse("home") if otp.required_by_role(request.user) else reverse("portal:home")


class VerifyView(LoginRequiredMixin, View):
    """The code from the app, or one recovery code. Without a device: to enrolment first."""

    template_name = "registration/otp_verify.html"

    def get(self, request):
        if otp.is_verified(request):
            return redirect(_next(request))
        if not otp.has_device(request.user):
            return redirect(f"{reverse('otp_enrol')}?{request.GET.urlencode()}" if request.GET else "otp_enrol")
        return render(request, self.template_name, {"next": _next(request)})

    def post(self, request):
        if signin.is_locked(request, otp.marker(request.user)):
            return signin.refused(request)
        try:
            otp.verify(request, request.POST.get("code", ""))
        except otp.CodeRefused as exc:
            return render(request, self.template_name, {"next": _next(request), "error": str(exc)}, status=400)
        return redirect(_next(request))


class EnrolView(LoginRequiredMixin, View):
    """Shows the secret (text, otpauth URI and its QR), takes the first code, then shows the recovery codes once."""

    template_name = "registration/otp_enrol.html"

    def _page(self, request, **extra):
        device = otp.pending_device(request.user)
        return {"secret": otp.secret_base32(device), "uri": device.config_url, "qr": otp.qr_data_uri(device),
                "next": _next(request), "required": otp.required_by_role(request.user), **extra}

    def get(self, request):
        if not otp.may_enrol(request):
            return redirect(f"{reverse('otp_verify')}?{request.GET.urlencode()}" if request.GET else "otp_verify")
        if otp.is_verified(request) and otp.has_device(request.user):
            return render(request, "registration/otp_active.html", {"next": _next(request)})
        return render(request, self.template_name, self._page(request))

    def post(self, request):
        if signin.is_locked(request, otp.marker(request.user)):
            return signin.refused(request)
        if not otp.may_enrol(request):
            return redirect("otp_verify")
        try:
            enrolled = otp.confirm_enrolment(request, request.POST.get("code", ""))
        except otp.CodeRefused as exc:
            return render(request, self.template_name, self._page(request, error=str(exc)), status=400)
        return render(request, "registration/otp_recovery_codes.html",
                      {"codes": enrolled.recovery_codes, "next": _next(request)})


class RecoveryCodesView(LoginRequiredMixin, View):
    """A verified session replaces its recovery codes (the old ones stop working); shown once."""

    def post(self, request):
        if not (otp.is_verified(request) and otp.has_device(request.user)):
            return redirect("otp_verify")
        return render(request, "registration/otp_recovery_codes.html",
                      {"codes": otp.new_recovery_codes(request.user), "next": _next(request)})
