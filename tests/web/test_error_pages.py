"""Issue #17: 403, 404 and 500 are styled pages in the user's language, with the navigation and a way
back; with DEBUG off (as in production) nobody sees Django's debug page. The 500 page renders with no
request, user or database (templates/base_error.html)."""
from __future__ import annotations

import pytest
from django.conf import settings
from django.template import loader
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

DEBUG_PAGE = ("Traceback", "technical_500", "You're seeing this error because you have", "Using the URLconf")


def _client(user=None, language="es") -> Client:
    client = Client(raise_request_exception=False)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    if user is not None:
        client.force_login(user)
    return client


def _styled(html: str) -> None:
    assert 'href="/static/css/app.css"' in html or "app.css" in html
    assert 'class="skip-link"' in html and 'id="contenido"' in html
    assert not any(marker in html for marker in DEBUG_PAGE)


def test_production_settings_never_show_the_debug_page():
    """Production reads every secret from the environment, so its settings are read here as text."""
    from pathlib import Path

    text = (Path(settings.BASE_DIR) / "config" / "settings" / "production.py").read_text()
    assert "\nDEBUG = False\n" in text and "DJANGO_DEBUG" not in text


def test_404_is_styled_with_the_menu_and_a_way_home(settings, staff_user):
    settings.DEBUG = False
    response = _client(staff_user).get("/no-existe/")
    html = response.content.decode()
    assert response.status_code == 404
    _styled(html)
    assert "No encontramos esa página" in html
    assert 'class="sidebar"' in html and "Ir al inicio" in html


def test_404_for_an_owner_leads_to_the_portal_and_for_a_visitor_to_sign_in(settings, owner_user):
    settings.DEBUG = False
    assert "Ir a mi portal" in _client(owner_user).get("/no-existe/").content.decode()
    assert "Entrar" in _client().get("/no-existe/").content.decode()


def test_404_speaks_english(settings, staff_user):
    settings.DEBUG = False
    html = _client(staff_user, "en").get("/no-existe/").content.decode()
    assert "We could not find that page" in html and "Go to the home page" in html


def test_403_is_styled_and_says_why(settings, cashier_user):
    settings.DEBUG = False
    response = _client(cashier_user).post(reverse("rolls:override_decide", args=[1]))
    html = response.content.decode()
    assert response.status_code == 403
    _styled(html)
    assert "no permite" in html and "Ir al inicio" in html


def test_500_is_styled_in_the_users_language(settings, staff_user):
    settings.DEBUG = False
    settings.ROOT_URLCONF = "tests.web.error_urls"
    response = _client(staff_user).get("/__boom__/")
    html = response.content.decode()
    assert response.status_code == 500
    _styled(html)
    assert "Algo falló de nuestro lado" in html and "Ir al inicio" in html
    english = _client(staff_user, "en").get("/__boom__/").content.decode()
    assert "Something went wrong on our side" in english


def test_the_500_page_needs_no_request_and_no_database(django_assert_num_queries):
    with django_assert_num_queries(0):
        html = loader.get_template("500.html").render()
    assert "Algo falló de nuestro lado" in html
