"""Sessions end after 30 minutes idle and 12 hours in all (core.sessions); the clock is the session's
own timestamps, moved back by the test, never a wait."""
import time

import pytest

from core.sessions import LAST_SEEN, STARTED

pytestmark = pytest.mark.django_db


def _age(client, **seconds_ago):
    session = client.session
    now = int(time.time())
    for key, ago in seconds_ago.items():
        session[{"started": STARTED, "last": LAST_SEEN}[key]] = now - ago
    session.save()


def test_sign_in_marks_the_start(client, staff_user):
    client.force_login(staff_user)
    assert client.session[STARTED] and client.session[LAST_SEEN]
    assert client.get("/").status_code == 200


def test_29_minutes_idle_keeps_the_session(client, staff_user):
    client.force_login(staff_user)
    _age(client, last=29 * 60)
    assert client.get("/").status_code == 200
    assert int(time.time()) - client.session[LAST_SEEN] < 60    # the visit counts as activity


def test_31_minutes_idle_signs_out_with_a_message(client, staff_user):
    client.force_login(staff_user)
    _age(client, last=31 * 60)
    response = client.get("/", follow=True)
    assert response.redirect_chain and "/cuentas/login/" in response.redirect_chain[-1][0]
    assert "30 minutos sin actividad" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_12_hours_in_all_ends_even_an_active_session(client, staff_user):
    client.force_login(staff_user)
    _age(client, started=12 * 3600 + 5, last=10)
    assert client.get("/").status_code == 302
    assert "_auth_user_id" not in client.session


def test_the_api_answers_403_after_the_idle_limit(client, staff_user):
    client.force_login(staff_user)
    assert client.get("/api/v1/parcels/").status_code == 200
    _age(client, last=31 * 60)
    assert client.get("/api/v1/parcels/").status_code in (401, 403)


def test_cookie_lives_12_hours_at_most(settings):
    assert settings.SESSION_COOKIE_AGE == 12 * 3600 and settings.SESSION_IDLE_SECONDS == 30 * 60
