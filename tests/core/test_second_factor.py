"""The second factor (core/otp.py; docs/security/sign-in.md): each test performs the attack and asserts it fails.

Sign-in goes through the form (a password alone), never force_login, which would give the second factor
(tests/conftest.py). No sleeping: the device's throttle is asserted with the delay it imposes after five failures
(16 seconds), and the axes cool-off is not waited for.
"""
from __future__ import annotations

import importlib
import sys

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.test import Client
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from core import otp
from core.models import AuditEntry
from tests.conftest import totp_code, totp_device

PASSWORD = "pw-Test-12345"
VERIFY = "/cuentas/segundo-factor/"
ENROL = "/cuentas/segundo-factor/activar/"
REQUIRED = ["administrator", "staff", "cashier", "approver", "legal_reviewer"]


@pytest.fixture(autouse=True)
def _on_postgres(postgres_only):
    """Every attack here runs on PostgreSQL."""


@pytest.fixture
def owner(owner_user):
    from tests import factories

    factories.person(user=owner_user)
    return owner_user


def _password_only(client, username) -> None:
    response = client.post("/cuentas/login/", {"username": username, "password": PASSWORD})
    assert response.status_code == 302, "the password is right"
    assert "_auth_user_id" in client.session


def _staff_pages_refused(client) -> None:
    for path in ["/", "/registro/parcelas/", "/padrones/", "/admin/", "/cobros/"]:
        response = client.get(path)
        assert response.status_code == 302 and response["Location"].startswith(VERIFY), path
    assert client.post("/registro/parcelas/nueva/", {"cadastre": "x"}).status_code == 302
    api = client.get("/api/v1/parcels/")
    assert api.status_code == 403 and "segundo factor" in api.json()["detail"]


def _wrong_code(device) -> str:
    right = totp_code(device)
    return f"{(int(right) + 1) % 1_000_000:06d}"


# --- who must give it -----------------------------------------------------------------------------------

@pytest.mark.parametrize("role", REQUIRED)
def test_a_password_alone_reaches_nothing_for_each_required_role(client, make_user, role):
    user = make_user(f"u.{role}", role)
    totp_device(user)
    _password_only(client, user.username)
    _staff_pages_refused(client)
    assert client.get(VERIFY).status_code == 200


def test_a_superuser_and_the_admin_flag_need_it_too(client, make_user):
    make_user("root", is_superuser=True, is_staff=True)
    _password_only(client, "root")
    _staff_pages_refused(client)
    other = Client()
    make_user("admin.flag", is_staff=True)
    _password_only(other, "admin.flag")
    assert other.get("/admin/")["Location"].startswith(VERIFY)


def test_without_a_device_the_user_is_sent_to_enrolment_and_still_reaches_nothing(client, staff_user):
    _password_only(client, staff_user.username)
    assert client.get("/")["Location"].startswith(VERIFY)
    assert client.get(VERIFY)["Location"].startswith(ENROL)
    page = client.get(ENROL)
    assert page.status_code == 200
    device = TOTPDevice.objects.get(user=staff_user, confirmed=False)
    assert otp.secret_base32(device).replace(" ", "") in page.content.decode()
    assert "otpauth://totp/Cargos%20sobre%20la%20tierra%3Aana.staff?secret=" in page.content.decode()
    _staff_pages_refused(client)  # an unconfirmed device gives nothing


def test_enrolment_confirms_with_a_first_code_and_shows_ten_recovery_codes_once(client, staff_user):
    _password_only(client, staff_user.username)
    client.get(ENROL)
    device = TOTPDevice.objects.get(user=staff_user, confirmed=False)
    assert client.post(ENROL, {"code": _wrong_code(device)}).status_code == 400
    TOTPDevice.objects.filter(pk=device.pk).update(throttling_failure_count=0, throttling_failure_timestamp=None)
    page = client.post(ENROL, {"code": totp_code(device)})
    assert page.status_code == 200
    codes = list(StaticToken.objects.filter(device__user=staff_user).values_list("token", flat=True))
    assert len(codes) == 10 and all(c in page.content.decode() for c in codes)
    assert page["Cache-Control"].startswith("no-store") or "no-store" in page["Cache-Control"]
    assert client.get("/").status_code == 200
    # Shown once: the page that says the device is active shows no code.
    again = client.get(ENROL).content.decode()
    assert not any(c in again for c in codes)


# --- the codes -----------------------------------------------------------------------------------------

def test_a_wrong_code_is_refused_and_the_right_one_lets_in(client, staff_user):
    device = totp_device(staff_user)
    _password_only(client, staff_user.username)
    refused = client.post(VERIFY, {"code": _wrong_code(device)})
    assert refused.status_code == 400 and "no es correcto" in refused.content.decode()
    _staff_pages_refused(client)
    TOTPDevice.objects.filter(pk=device.pk).update(throttling_failure_count=0, throttling_failure_timestamp=None)
    key_before = client.session.session_key
    response = client.post(VERIFY, {"code": totp_code(device), "next": "/padrones/"})
    assert response.status_code == 302 and response["Location"] == "/padrones/"
    assert client.session.session_key != key_before  # a new key once verified
    assert client.get("/").status_code == 200
    assert client.get("/api/v1/parcels/").status_code == 200


def test_a_code_cannot_be_used_twice(client, staff_user):
    device = totp_device(staff_user)
    code = totp_code(device)
    _password_only(client, staff_user.username)
    assert client.post(VERIFY, {"code": code}).status_code == 302
    thief = Client()
    _password_only(thief, staff_user.username)
    assert thief.post(VERIFY, {"code": code}).status_code == 400
    _staff_pages_refused(thief)


def test_the_device_slows_down_after_failures_even_for_the_right_code(client, staff_user):
    from datetime import timedelta

    from django.utils import timezone

    device = totp_device(staff_user)
    _password_only(client, staff_user.username)
    for _ in range(8):
        # Each guess counted (a guess during the pause is refused uncounted): as if spread over an hour.
        TOTPDevice.objects.filter(pk=device.pk).update(
            throttling_failure_timestamp=timezone.now() - timedelta(hours=1))
        assert client.post(VERIFY, {"code": _wrong_code(device)}).status_code == 400
    assert TOTPDevice.objects.get(pk=device.pk).throttling_failure_count == 8
    # Eight failures: the device now waits 128 seconds (django-otp) whatever the address; the right code is refused.
    response = client.post(VERIFY, {"code": totp_code(device)})
    assert response.status_code == 400 and "espere" in response.content.decode()
    _staff_pages_refused(client)


def test_ten_wrong_codes_lock_the_address_like_ten_wrong_passwords(client, staff_user):
    device = totp_device(staff_user)
    _password_only(client, staff_user.username)
    answers = []
    for _ in range(10):
        TOTPDevice.objects.filter(pk=device.pk).update(throttling_failure_count=0)  # only axes counts here
        answers.append(client.post(VERIFY, {"code": _wrong_code(device)}).status_code)
    assert answers == [400] * 9 + [429]
    assert AccessAttempt.objects.get(username=otp.marker(staff_user)).failures_since_start == 10
    totp_device(staff_user)  # the device's own throttle cleared: the refusal is axes'
    assert client.post(VERIFY, {"code": totp_code(device)}).status_code == 429
    _staff_pages_refused(client)
    # The address is paused at the password form too.
    assert Client().post("/cuentas/login/", {"username": "ana.staff", "password": PASSWORD}).status_code == 429


def test_a_recovery_code_works_once_only(client, staff_user):
    totp_device(staff_user)
    codes = otp.new_recovery_codes(staff_user)
    _password_only(client, staff_user.username)
    assert client.post(VERIFY, {"code": codes[0].upper()}).status_code == 302
    assert client.get("/").status_code == 200
    assert StaticToken.objects.filter(device__user=staff_user).count() == 9
    second = Client()
    _password_only(second, staff_user.username)
    assert second.post(VERIFY, {"code": codes[0]}).status_code == 400
    _staff_pages_refused(second)
    StaticDevice.objects.filter(user=staff_user).update(throttling_failure_count=0)
    assert second.post(VERIFY, {"code": codes[1]}).status_code == 302


def test_a_password_alone_cannot_replace_a_confirmed_device(client, staff_user):
    """Whoever has only the password must not enrol their own authenticator over the real one."""
    device = totp_device(staff_user)
    _password_only(client, staff_user.username)
    assert client.get(ENROL)["Location"].startswith(VERIFY)
    response = client.post(ENROL, {"code": "123456"})
    assert response.status_code == 302 and response["Location"].startswith(VERIFY)
    assert list(TOTPDevice.objects.filter(user=staff_user)) == [device]
    assert not StaticDevice.objects.filter(user=staff_user).exists()
    _staff_pages_refused(client)
    # Nor replace the recovery codes.
    assert client.post("/cuentas/segundo-factor/codigos/")["Location"].startswith(VERIFY)


def test_next_never_leaves_the_site(client, staff_user):
    device = totp_device(staff_user)
    _password_only(client, staff_user.username)
    response = client.post(VERIFY, {"code": totp_code(device), "next": "https://evil.example/"})
    assert response["Location"] == "/"


# --- what is not affected ------------------------------------------------------------------------------

def test_api_tokens_are_machine_credentials_and_need_no_code(client, staff_user, admin_user):
    from core.api_tokens import token_create
    from core.models import ApiToken

    _, key = token_create(user=staff_user, name="Banco", scope=ApiToken.Scope.READ, actor=admin_user)
    assert client.get("/api/v1/parcels/", HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 200
    # A half-signed-in session is not rescued by adding a token header: the session is refused.
    _password_only(client, staff_user.username)
    assert client.get("/api/v1/parcels/", HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 403


def test_owners_and_auditors_are_not_asked_unless_they_enable_it(client, owner, auditor_user):
    _password_only(client, owner.username)
    assert client.get("/portal/").status_code == 200
    auditor = Client()
    _password_only(auditor, auditor_user.username)
    assert auditor.get("/").status_code == 200


def test_an_owner_who_enables_it_is_asked_at_every_sign_in(client, owner):
    owner_user = owner
    _password_only(client, owner_user.username)
    portal = client.get("/portal/").content.decode()
    assert ENROL in portal  # the portal offers it
    client.get(ENROL)
    device = TOTPDevice.objects.get(user=owner_user)
    assert client.post(ENROL, {"code": totp_code(device)}).status_code == 200
    assert client.get("/portal/").status_code == 200
    later = Client()
    _password_only(later, owner_user.username)
    assert later.get("/portal/")["Location"].startswith(VERIFY)
    TOTPDevice.objects.filter(pk=device.pk).update(last_t=-1)
    assert later.post(VERIFY, {"code": totp_code(device)})["Location"] == "/portal/"
    assert later.get("/portal/").status_code == 200


# --- settings --------------------------------------------------------------------------------------------

def _production(monkeypatch, **extra):
    env = {"DJANGO_SECRET_KEY": "x" * 50, "DJANGO_ALLOWED_HOSTS": "cargos.example.pr",
           "DATABASE_URL": "postgres://u@127.0.0.1:5432/x", "REDIS_URL": "redis://127.0.0.1:6379/11", **extra}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    sys.modules.pop("config.settings.production", None)
    try:
        return importlib.import_module("config.settings.production")
    finally:
        sys.modules.pop("config.settings.production", None)


@pytest.mark.parametrize("value", ["false", "0", "off", "no"])
def test_production_cannot_turn_the_second_factor_off(monkeypatch, value):
    prod = _production(monkeypatch, OTP_REQUIRED=value)
    assert prod.OTP_REQUIRED is True
    assert "core.otp.SecondFactorMiddleware" in prod.MIDDLEWARE


def test_the_deploy_check_refuses_settings_without_it(settings):
    from core.checks import second_factor_enforced

    assert second_factor_enforced(None) == []
    settings.OTP_REQUIRED = False
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if m != "core.otp.SecondFactorMiddleware"]
    assert {e.id for e in second_factor_enforced(None)} == {"core.E010", "core.E011"}


def test_tests_enforce_it_too(settings):
    assert settings.OTP_REQUIRED is True


# --- administrators -------------------------------------------------------------------------------------

def test_an_administrator_resets_a_users_devices_and_it_is_audited(client, admin_user, staff_user):
    totp_device(staff_user)
    otp.new_recovery_codes(staff_user)
    client.force_login(admin_user)
    response = client.post("/admin/auth/user/", {"action": "reset_second_factor",
                                                 "_selected_action": [staff_user.pk]})
    assert response.status_code == 302
    assert not TOTPDevice.objects.filter(user=staff_user).exists()
    assert not StaticDevice.objects.filter(user=staff_user).exists()
    entry = AuditEntry.objects.get(action="otp.reset")
    assert entry.actor == admin_user and entry.target_id == str(staff_user.pk)
    # The devices are listed in the admin, without their secret.
    device = totp_device(User.objects.get(pk=staff_user.pk))
    listing = client.get("/admin/otp_totp/totpdevice/")
    assert listing.status_code == 200 and device.key not in listing.content.decode()


def test_an_unverified_administrator_cannot_reset_anything(client, make_user, staff_user):
    make_user("root", "administrator", is_superuser=True, is_staff=True)
    totp_device(staff_user)
    _password_only(client, "root")
    client.post("/admin/auth/user/", {"action": "reset_second_factor", "_selected_action": [staff_user.pk]})
    assert TOTPDevice.objects.filter(user=staff_user).exists()


# --- languages ------------------------------------------------------------------------------------------

def test_the_pages_speak_spanish_and_english(client, staff_user):
    device = totp_device(staff_user)
    _password_only(client, staff_user.username)
    assert "Confirme que es usted" in client.get(VERIFY).content.decode()
    wrong = client.post(VERIFY, {"code": _wrong_code(device)}).content.decode()
    assert "El código no es correcto o ya se usó." in wrong
    client.cookies["django_language"] = "en"
    assert "Confirm it is you" in client.get(VERIFY).content.decode()
    TOTPDevice.objects.filter(pk=device.pk).update(throttling_failure_count=0)
    assert "The code is not correct or was already used." in client.post(
        VERIFY, {"code": _wrong_code(device)}).content.decode()
    assert "second factor" in client.get("/api/v1/parcels/").json()["detail"]


def test_the_code_matches_what_an_app_computes_from_the_otpauth_uri(staff_user):
    """The secret shown is the device's key: an app reading the base32 text computes the same codes."""
    from base64 import b32decode

    device = otp.pending_device(staff_user)
    secret = otp.secret_base32(device).replace(" ", "")
    assert f"secret={secret}" in device.config_url
    assert TOTP(b32decode(secret)).token() == TOTP(device.bin_key).token()


# --- the demo ---------------------------------------------------------------------------------------------

def test_make_run_prints_the_demo_secret_and_it_lets_the_demo_staff_in(monkeypatch, client):
    from base64 import b32decode
    from io import StringIO

    from django.core.management import call_command

    monkeypatch.setenv("DEMO_PASSWORD", "Clave-Demo-2026")
    out = StringIO()
    call_command("seed_demo", "--parcels", "20", stdout=out)
    printed = out.getvalue()
    match = __import__("re").search(r"las cuentas admin, staff, cashier, approver, legal: .* clave ([A-Z2-7 ]+) "
                                    r"\(o el URI (otpauth://\S+)\)", printed)
    assert match, printed
    secret = match[1].replace(" ", "")
    assert f"secret={secret}" in match[2]
    assert not TOTPDevice.objects.filter(user__username__in=["owner", "auditor"]).exists()
    client.post("/cuentas/login/", {"username": "cashier", "password": "Clave-Demo-2026"})
    assert client.get("/")["Location"].startswith(VERIFY)  # the demo enforces it too
    code = f"{TOTP(b32decode(secret)).token():06d}"
    assert client.post(VERIFY, {"code": code}).status_code == 302
    assert client.get("/").status_code == 200
    # A second run keeps the secret and prints it again.
    again = StringIO()
    call_command("seed_demo", "--parcels", "20", stdout=again)
    assert otp.secret_base32(TOTPDevice.objects.get(user__username="admin")) in again.getvalue()
    assert TOTPDevice.objects.filter(user__username="admin").count() == 1
