"""The second factor: a TOTP code (an authenticator app) or a one-time recovery code (docs/security/sign-in.md).

Who must give it (`requires_second_factor`): every account that moves money, certifies or issues — the
administrator (and any superuser or account with the admin site's `is_staff` flag), staff, cashier, approver and
legal reviewer (who rules on lien rank and issues lien certificates). The auditor only reads and the owner only
sees their own accounts: for them it is optional, and once they enable it (a confirmed device) it is required at
every sign-in like anyone else's.

`OTP_REQUIRED` (default True) can turn the role requirement off for a development database only; production's
settings force it on (config/settings/production.py) and a deploy check refuses it off.

One enforcement point, `SecondFactorMiddleware`: a signed-in session that needs the second factor and has not
given it reaches only the verification and enrolment pages, sign-out and the language switch; pages redirect
there, the API answers 403. API tokens carry no session and are not affected (machine credentials).

Failed codes are counted like failed passwords (core.signin: the door `otp:<user name>`, so ten failures from
one address answer 429), and each device also slows down after failures (django-otp's throttle, per account,
from any address: 1, 2, 4, 8 … seconds).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlencode

import django_otp
from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from django.dispatch import receiver
from django.http import JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from core import roles, signin

RECOVERY_CODES = 10
TOTP_NAME = "app"
RECOVERY_NAME = "recovery"
# Set at sign-in for an account that must give the second factor although its role does not require it (an owner
# or auditor who enabled it): read from the session so the middleware asks the database nothing for them.
OPTED_IN = "_otp_opted_in"
# Roles whose holders move money, certify or issue (core.roles.PERMISSIONS): the second factor is required.
REQUIRED_ROLES = frozenset({roles.ADMINISTRATOR, roles.STAFF, roles.CASHIER, roles.APPROVER, roles.LEGAL_REVIEWER})
SIX_DIGITS = re.compile(r"^\d{6}$")


def marker(user) -> str:
    """The throttle's door for this account's codes (a colon: never a real user name; core.signin)."""
    return f"otp:{user.get_username().lower()}"


def required_by_role(user) -> bool:
    if not getattr(settings, "OTP_REQUIRED", True):
        return False
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return user.is_superuser or user.is_staff or bool(roles.roles_of(user) & REQUIRED_ROLES)


def has_device(user) -> bool:
    return TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def requires_second_factor(user) -> bool:
    """Whether this account must give a code at sign-in (its role, or it enabled a device)."""
    return required_by_role(user) or (getattr(user, "is_authenticated", False) and has_device(user))


def is_verified(request) -> bool:
    user = request.user
    return bool(getattr(user, "is_verified", lambda: False)())


def needs_verification(request) -> bool:
    """A signed-in session that must give the second factor and has not (no database query for an owner)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return False
    if not (required_by_role(user) or request.session.get(OPTED_IN)):
        return False
    return not is_verified(request)


@receiver(user_logged_in)
def _note_opt_in(sender, request, user, **kwargs):
    if request is not None and hasattr(request, "session") and not required_by_role(user) and has_device(user):
        request.session[OPTED_IN] = True


# --- the one enforcement point -----------------------------------------------------------------------------

EXEMPT_PREFIXES = ("/cuentas/segundo-factor/", "/cuentas/logout/", "/cuentas/login/", "/i18n/", "/static/",
                   "/healthz", "/readyz")


class SecondFactorMiddleware:
    """After authentication, django-otp's OTPMiddleware and the session timeout: a session that still owes its
    second factor reaches nothing but the exempt pages."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if needs_verification(request) and not request.path.startswith(EXEMPT_PREFIXES):
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": _("Falta el segundo factor: confirme su entrada con el código de "
                                                 "su aplicación de autenticación en %(url)s.")
                                     % {"url": reverse("otp_verify")}}, status=403)
            query = urlencode({"next": request.get_full_path()}) if request.method == "GET" else ""
            return redirect(f"{reverse('otp_verify')}{'?' + query if query else ''}")
        return self.get_response(request)


# --- services ----------------------------------------------------------------------------------------------

class CodeRefused(Exception):
    """A code that does not match (or a device that is pausing after failures): the message says which."""


def _throttled_message(device) -> str:
    allowed, info = device.verify_is_allowed()
    if allowed or not info or "locked_until" not in info:
        return ""
    from django.utils import timezone

    seconds = max(1, int((info["locked_until"] - timezone.now()).total_seconds()) + 1)
    return _("Demasiados códigos incorrectos seguidos: espere %(s)s s antes de intentarlo de nuevo.") % {"s": seconds}


def verify(request, code: str):
    """Check `code` against the signed-in user's confirmed devices: six digits against the authenticator, anything
    else against the recovery codes (each works once). On success the session is verified and its key renewed;
    on failure the throttle counts it and CodeRefused says why."""
    user = request.user
    code = (code or "").strip().replace(" ", "").replace("-", "")
    if SIX_DIGITS.match(code):
        devices = list(TOTPDevice.objects.filter(user=user, confirmed=True))
    else:
        code = code.lower()
        devices = list(StaticDevice.objects.filter(user=user, confirmed=True))
    # A device pausing after failures refuses even the right code: say so, rather than "not correct".
    waits = [m for m in (_throttled_message(d) for d in devices) if m]
    for device in devices:
        if device.verify_token(code):
            _verified(request, device)
            return device
    signin.record_failure(request, marker(user))
    raise CodeRefused(waits[0] if waits else _("El código no es correcto o ya se usó."))


def _verified(request, device) -> None:
    request.session.cycle_key()  # a new session key once the second factor is given (fixation)
    django_otp.login(request, device)


def pending_device(user) -> TOTPDevice:
    """The authenticator being set up (unconfirmed): the same secret while the person copies it."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False, name=TOTP_NAME).order_by("pk").first()
    return device or TOTPDevice.objects.create(user=user, name=TOTP_NAME, confirmed=False)


def may_enrol(request) -> bool:
    """A first device, or a verified session: a password alone never replaces a confirmed device."""
    return is_verified(request) or not has_device(request.user)


@dataclass
class Enrolled:
    device: TOTPDevice
    recovery_codes: list[str]


@transaction.atomic
def confirm_enrolment(request, code: str) -> Enrolled:
    """The first code from the app confirms the device; then RECOVERY_CODES new one-time codes (shown once)."""
    user = request.user
    if not may_enrol(request):
        raise CodeRefused(_("Ya tiene un segundo factor: confírmelo primero, o pida a un administrador que lo "
                            "restablezca."))
    device = pending_device(user)
    code = (code or "").strip().replace(" ", "")
    wait = _throttled_message(device)
    if not (SIX_DIGITS.match(code) and device.verify_token(code)):
        signin.record_failure(request, marker(user))
        raise CodeRefused(wait or _("El código no es correcto. Escriba el de seis dígitos que "
                                                          "muestra su aplicación ahora."))
    TOTPDevice.objects.filter(user=user).exclude(pk=device.pk).delete()
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    codes = new_recovery_codes(user)
    _verified(request, device)
    if not required_by_role(user):
        request.session[OPTED_IN] = True
    return Enrolled(device, codes)


def new_recovery_codes(user) -> list[str]:
    StaticDevice.objects.filter(user=user).delete()
    static = StaticDevice.objects.create(user=user, name=RECOVERY_NAME, confirmed=True)
    codes = [StaticToken.random_token() for _i in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create([StaticToken(device=static, token=c) for c in codes])
    return codes


def reset_second_factor(*, actor, user) -> int:
    """An administrator removes every device of `user` (lost phone): at the next sign-in they enrol again.
    Audited; returns how many devices were removed."""
    from core.audit import audit

    removed = 0
    for model in (TOTPDevice, StaticDevice):
        count, _detail = model.objects.filter(user=user).delete()
        removed += count
    audit(actor=actor, action="otp.reset", target=user,
          summary=f"Segundo factor restablecido para {user.get_username()}", data={"rows_removed": removed})
    return removed


def secret_base32(device: TOTPDevice) -> str:
    """The secret as the apps ask for it when typed by hand, in groups of four."""
    from base64 import b32encode

    text = b32encode(device.bin_key).decode()
    return " ".join(text[i:i + 4] for i in range(0, len(text), 4))


def qr_data_uri(device: TOTPDevice) -> str:
    """The otpauth URI as a QR image (an SVG data URI: img-src allows data:, core/csp.py)."""
    import segno

    return segno.make(device.config_url, error="m").svg_data_uri(scale=4, border=2)


# --- the demo (`make run`) ---------------------------------------------------------------------------------

DEMO_NAME = "demo"


def demo_devices(users) -> TOTPDevice | None:
    """One authenticator secret for every demo account that must give the second factor (seed_demo prints it, so
    a person adds one entry to their app and enters any of them). An account that already has a device keeps it;
    the secret of an earlier run is reused. Only seed_demo (which refuses production) and `make prod-smoke` call
    it."""
    needing = [u for u in users if required_by_role(u)]
    if not needing:
        return None
    existing = TOTPDevice.objects.filter(user__in=needing, name=DEMO_NAME, confirmed=True).order_by("pk").first()
    key = existing.key if existing else TOTPDevice._meta.get_field("key").default()
    for user in needing:
        if not TOTPDevice.objects.filter(user=user, confirmed=True).exists():
            TOTPDevice.objects.create(user=user, name=DEMO_NAME, key=key, confirmed=True)
    return TOTPDevice.objects.filter(user__in=needing, name=DEMO_NAME, confirmed=True).order_by("pk").first()


def demo_uri(device: TOTPDevice) -> str:
    """The otpauth URI of the shared demo secret, labelled for the demo rather than one account."""
    from urllib.parse import quote

    secret = secret_base32(device).replace(" ", "")
    issuer = settings.OTP_TOTP_ISSUER
    return (f"otpauth://totp/{quote(issuer + ':demo')}?secret={secret}&algorithm=SHA1&digits=6&period=30"
            f"&issuer={quote(issuer)}")
