"""In a real browser: a cashier without a device signs in, is sent to enrolment, adds the secret to an
"authenticator" (the test computes its code from the base32 text the page shows), gets the recovery codes once,
then signs in again with a code; a wrong code is refused in Spanish and English (core/otp.py)."""
import os
import re
from base64 import b32decode
from pathlib import Path

import pytest
from django_otp.oath import TOTP

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
SHOTS = Path(os.environ.get("SCREENSHOT_DIR", "/tmp"))


def _password(page, base_url, username):
    page.goto(f"{base_url}/cuentas/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-Test-12345")
    with page.expect_navigation():
        page.click("form.login-form button[type=submit]")


def test_enrolment_then_verification(live_server, page, cashier_user, postgres_only):
    base = live_server.url
    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    _password(page, base, cashier_user.username)
    page.wait_for_url(re.compile(r".*/cuentas/segundo-factor/activar/.*"))
    assert page.locator("h1").inner_text() == "Active el segundo factor"
    assert page.locator("img.otp-qr").evaluate("img => img.naturalWidth > 0")  # the QR is allowed by the CSP
    secret = page.locator("#otp-secret").inner_text().replace(" ", "")
    assert f"secret={secret}" in page.locator("#otp-uri").inner_text()
    page.screenshot(path=str(SHOTS / "totp-enrol.png"), full_page=True)

    # Staff pages are refused until the device is confirmed.
    page.goto(f"{base}/cobros/")
    assert "/cuentas/segundo-factor/" in page.url
    page.goto(f"{base}/cuentas/segundo-factor/activar/")
    app = TOTP(b32decode(secret))
    page.fill("#id_code", f"{app.token():06d}")
    with page.expect_navigation():
        page.click("form.otp-form button[type=submit]")
    codes = page.locator("#recovery-codes li").all_inner_texts()
    assert len(codes) == 10 and len(set(codes)) == 10
    page.screenshot(path=str(SHOTS / "totp-recovery-codes.png"), full_page=True)
    with page.expect_navigation():
        page.click("#otp-continue")
    assert page.url == f"{base}/"

    # Sign out; sign in again: the verification page, a wrong code, then a recovery code.
    page.context.clear_cookies()
    _password(page, base, cashier_user.username)
    page.wait_for_url(re.compile(r".*/cuentas/segundo-factor/\?next=.*"))
    page.fill("#id_code", f"{(app.token() + 1) % 1_000_000:06d}")
    with page.expect_navigation():
        page.click("form.otp-form button[type=submit]")
    assert page.locator("#otp-error").inner_text() == "El código no es correcto o ya se usó."
    page.screenshot(path=str(SHOTS / "totp-verify-wrong.png"), full_page=True)
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": base}])
    page.goto(f"{base}/cuentas/segundo-factor/")  # not a reload: that would send the wrong code again
    assert page.locator("h1").inner_text() == "Confirm it is you"
    page.screenshot(path=str(SHOTS / "totp-verify-en.png"), full_page=True)
    from django_otp.plugins.otp_static.models import StaticDevice

    StaticDevice.objects.filter(user=cashier_user).update(throttling_failure_count=0)
    page.fill("#id_code", codes[0])
    with page.expect_navigation():
        page.click("form.otp-form button[type=submit]")
    assert page.url == f"{base}/"
    assert not violations, violations  # the QR (a data: image) and the pages stay within the CSP


def test_sign_in_completes_the_second_step_for_browser_tests(live_server, page, approver_user, postgres_only):
    """tests/conftest.py's sign_in types the fixtures' authenticator code: twice in a row works too."""
    from tests.conftest import sign_in

    for _ in range(2):
        page.context.clear_cookies()
        sign_in(page, live_server.url, approver_user.username)
        assert page.url == f"{live_server.url}/"
