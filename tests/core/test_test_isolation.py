"""The suite's own guarantees (tests/conftest.py): each test starts in Spanish, reference rows are there.

The two language tests run in file order: the first switches to English and does not switch back,
the second must still start in Spanish.
"""
from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.utils import translation

from core.roles import ROLE_LABELS
from districts.models import Municipality
from districts.reference import MUNICIPALITIES
from tests.conftest import _ensure_reference_data


def test_1_a_test_switches_to_english_and_leaves_it():
    translation.activate("en")
    assert translation.get_language() == "en"


def test_2_the_next_test_starts_in_spanish():
    assert translation.get_language() == "es"


@pytest.mark.django_db
def test_3_a_page_asked_in_english_does_not_leak(client, staff_user, settings):
    client.force_login(staff_user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get("/")
    assert response.status_code == 200 and response.headers["Content-Language"] == "en"


def test_4_after_an_english_request_still_spanish():
    assert translation.get_language() == "es"


@pytest.mark.django_db
def test_reference_rows_come_back_after_a_flush():
    Group.objects.all().delete()
    Municipality.objects.all().delete()
    ContentType.objects.all().delete()
    _ensure_reference_data()
    assert set(Group.objects.values_list("name", flat=True)) == set(ROLE_LABELS)
    assert Municipality.objects.count() == len(MUNICIPALITIES)
    assert ContentType.objects.filter(app_label="districts", model="parcel").exists()


@pytest.mark.django_db
def test_reference_rows_are_present_at_session_start():
    assert set(Group.objects.values_list("name", flat=True)) >= set(ROLE_LABELS)
    assert Municipality.objects.count() == len(MUNICIPALITIES)
