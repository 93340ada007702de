"""Guessing the activation codes printed on notices is throttled like a password (core/signin.py)."""
from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import F

from core import signin
from tests.portal.test_portal import _activate, diego  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db
LIMIT = 10


def test_eleven_wrong_codes_then_the_right_one_is_refused(diego, client):  # noqa: F811
    party, parcel, notice, code = diego
    codes = [_activate(client, f"ABCD-EFGH-JK{c}{c}", parcel.cadastre).status_code for c in "ABCDEFGHJK"]
    assert codes == [200] * (LIMIT - 1) + [429], codes
    response = _activate(client, code, parcel.cadastre)
    assert response.status_code == 429 and "Demasiados intentos fallidos" in response.content.decode()
    assert not User.objects.filter(username="diego.ortiz").exists()
    attempt = AccessAttempt.objects.get(username=signin.PORTAL_ACTIVATION)
    assert attempt.failures_since_start == LIMIT and code not in attempt.post_data and "Lluvia" not in attempt.post_data
    assert client.get("/portal/activar/").status_code == 200          # the form itself still shows
    # After the cool-off the owner activates with the right code.
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - settings.AXES_COOLOFF_TIME)
    response = _activate(client, code, parcel.cadastre)
    assert response.status_code == 302 and User.objects.filter(username="diego.ortiz").exists()


def test_a_taken_user_name_or_a_weak_password_is_not_a_failed_guess(diego, client):  # noqa: F811
    party, parcel, notice, code = diego
    for _ in range(LIMIT + 1):   # ana.duena is the world's owner account
        assert "username" in _activate(client, code, parcel.cadastre, username="ana.duena").context["form"].errors
        assert "password1" in _activate(client, code, parcel.cadastre, password="123").context["form"].errors
    assert not AccessAttempt.objects.exists()
