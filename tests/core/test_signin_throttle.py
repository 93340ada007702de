"""Failed sign-ins are throttled on every door (django-axes; core/signin.py; docs/security/sign-in.md).

Each test performs the attack: 10 failures from one address, then the right secret, refused with 429.
No sleeping: the cool-off is passed by moving the recorded attempt times back, or by axes' reset API.
"""
from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from axes.utils import reset
from django.conf import settings
from django.db.models import F
from django.test import Client
from django.urls import reverse

from core import signin
from core.api_tokens import token_create
from core.models import ApiToken
from tests.core.test_documents import issued, owner_party  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db
PASSWORD = "pw-Test-12345"
LIMIT = 10


def _login(client, username, password, url="/cuentas/login/", **extra):
    return client.post(url, {"username": username, "password": password}, **extra)


def _signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def _wrong_passwords(client, username, n=LIMIT, url="/cuentas/login/", **extra):
    codes = [_login(client, username, "no-es-la-clave", url, **extra).status_code for _ in range(n)]
    assert codes == [200] * (n - 1) + [429], codes    # the failure reaching the limit is answered 429 already
    return codes


def _pass_the_cool_off():
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - settings.AXES_COOLOFF_TIME - timedelta(seconds=1))


def test_the_settings_say_ten_failures_and_fifteen_minutes():
    assert settings.AXES_FAILURE_LIMIT == LIMIT
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"], "ip_address"]
    assert settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"
    assert settings.AXES_RESET_ON_SUCCESS and settings.AXES_ENABLED


def test_ten_wrong_passwords_then_the_right_one_is_refused_at_the_staff_login(client, staff_user):
    _wrong_passwords(client, "ana.staff")
    response = _login(client, "ana.staff", PASSWORD)
    assert response.status_code == 429 and not _signed_in(client)
    html = response.content.decode()
    assert "Demasiados intentos fallidos" in html and reverse("password_reset") in html
    assert int(response["Retry-After"]) > 0
    # Another address is not held back by this one's failures on the user name.
    other = Client(REMOTE_ADDR="10.9.8.7")
    assert _login(other, "ana.staff", PASSWORD).status_code == 302 and _signed_in(other)


def test_ten_wrong_passwords_then_the_right_one_is_refused_at_the_admin_login(client, admin_user):
    url = "/admin/login/?next=/admin/"
    _wrong_passwords(client, "admin", url=url)
    response = _login(client, "admin", "password", url)
    assert response.status_code == 429 and not _signed_in(client)


def test_one_address_trying_many_user_names_is_refused(client, staff_user):
    codes = [_login(client, f"usuario{i}", "no-es-la-clave").status_code for i in range(LIMIT)]
    assert codes[-1] == 429 and set(codes[:-1]) == {200}
    assert _login(client, "ana.staff", PASSWORD).status_code == 429 and not _signed_in(client)
    assert AccessAttempt.objects.filter(ip_address="127.0.0.1").count() == LIMIT


def test_a_forwarded_for_header_does_not_give_a_new_address_outside_production(client, staff_user):
    codes = [_login(client, "ana.staff", "x", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}").status_code for i in range(LIMIT)]
    assert codes[-1] == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"127.0.0.1"}


def test_after_the_cool_off_the_right_password_works(client, staff_user):
    _wrong_passwords(client, "ana.staff")
    assert _login(client, "ana.staff", PASSWORD).status_code == 429
    _pass_the_cool_off()
    assert _login(client, "ana.staff", PASSWORD).status_code == 302 and _signed_in(client)
    assert not AccessAttempt.objects.filter(username="ana.staff").exists()       # the success cleared them


def test_an_administrator_unlocks_with_axes_reset(client, staff_user):
    _wrong_passwords(client, "ana.staff")
    assert reset(ip="127.0.0.1") == 1
    assert _login(client, "ana.staff", PASSWORD).status_code == 302


def test_the_admin_lists_the_attempts_to_delete_them(client, admin_user):
    AccessAttempt.objects.create(username="ana.staff", ip_address="10.1.1.1", user_agent="x", failures_since_start=10,
                                 get_data="", post_data="", http_accept="", path_info="/cuentas/login/")
    client.force_login(admin_user)
    response = client.get("/admin/axes/accessattempt/")
    assert response.status_code == 200 and "10.1.1.1" in response.content.decode()


def test_a_success_resets_the_count(client, staff_user):
    for _ in range(2):
        codes = [_login(client, "ana.staff", "no-es-la-clave").status_code for _ in range(LIMIT - 1)]
        assert set(codes) == {200}
        assert _login(client, "ana.staff", PASSWORD).status_code == 302
        client.logout()
    assert not AccessAttempt.objects.exists()


def test_signing_in_to_ones_own_account_does_not_clear_the_guesses_at_anothers(client, make_user, staff_user):
    make_user("atacante", "owner")
    for _ in range(LIMIT - 1):
        assert _login(client, "ana.staff", "adivina").status_code == 200
    assert _login(client, "atacante", PASSWORD).status_code == 302
    client.logout()
    assert _login(client, "ana.staff", "adivina").status_code == 429
    assert _login(client, "ana.staff", PASSWORD).status_code == 429


def test_the_lockout_page_in_english(client, staff_user):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    _wrong_passwords(client, "ana.staff")
    html = _login(client, "ana.staff", PASSWORD).content.decode()
    assert "Too many failed attempts" in html and "reset your password" in html


# --- the doors that are not a login form ------------------------------------------------------------

def test_guessing_verification_codes_is_refused_then_even_a_real_code(client, issued):  # noqa: F811
    codes = [client.get(reverse("core:verify", args=[f"ABCD-EFGH-JK{c}{c}"])).status_code
             for c in "ABCDEFGHJK"]
    assert codes == [404] * (LIMIT - 1) + [429], codes
    assert client.get(reverse("core:verify", args=[issued.verification_code])).status_code == 429
    assert client.get(reverse("core:verify_form"), {"code": issued.verification_code}).status_code == 429
    assert AccessAttempt.objects.get(username=signin.DOCUMENT_VERIFICATION).failures_since_start == LIMIT
    _pass_the_cool_off()
    assert client.get(reverse("core:verify", args=[issued.verification_code])).status_code == 200


def test_found_codes_do_not_count(client, issued):  # noqa: F811
    for _ in range(LIMIT + 2):
        assert client.get(reverse("core:verify", args=[issued.verification_code])).status_code == 200
    assert not AccessAttempt.objects.exists()


def test_bad_api_tokens_are_refused_then_even_a_good_one(client, staff_user, admin_user):
    _, key = token_create(user=staff_user, name="Banco", scope=ApiToken.Scope.READ, actor=admin_user)
    bad = [client.get("/api/v1/parcels/", HTTP_AUTHORIZATION=f"Bearer cargos_0000_{i}") for i in range(LIMIT)]
    assert [r.status_code for r in bad] == [403] * (LIMIT - 1) + [429]
    assert bad[-1].json()["retry_after"]
    response = client.get("/api/v1/parcels/", HTTP_AUTHORIZATION=f"Bearer {key}")
    assert response.status_code == 429 and "detail" in response.json()
    # The failures were kept although DRF rolled back each request's transaction.
    assert AccessAttempt.objects.get(username=signin.API_TOKEN).failures_since_start == LIMIT
    _pass_the_cool_off()
    assert client.get("/api/v1/parcels/", HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 200


def test_behind_a_trusted_proxy_each_client_is_counted_by_the_address_nginx_saw(settings, staff_user):
    settings.TRUSTED_PROXY_IPS = ["127.0.0.1"]        # production: nginx on the same machine (core/proxy.py)
    through_nginx = Client()                          # REMOTE_ADDR 127.0.0.1, the proxy
    _wrong_passwords(through_nginx, "ana.staff", HTTP_X_REAL_IP="198.51.100.7")
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"198.51.100.7"}
    assert _login(through_nginx, "ana.staff", PASSWORD, HTTP_X_REAL_IP="198.51.100.7").status_code == 429
    # Another client behind the same nginx is not paused by that one's failures.
    assert _login(Client(), "ana.staff", PASSWORD, HTTP_X_REAL_IP="198.51.100.8").status_code == 302
    # A client talking to the application directly cannot choose its address with the header.
    direct = Client(REMOTE_ADDR="203.0.113.9")
    codes = [_login(direct, f"u{i}", "x", HTTP_X_REAL_IP=f"192.0.2.{i}").status_code for i in range(LIMIT)]
    assert codes[-1] == 429
    assert AccessAttempt.objects.filter(ip_address="203.0.113.9").count() == LIMIT
