"""The staff menu lights exactly one entry: the one whose address is the longest prefix of the page's."""
import pytest
from django.test import RequestFactory
from django.urls import reverse

from core.context_processors import navigation


@pytest.mark.django_db
@pytest.mark.parametrize(("url_name", "key"), [("home", "home"), ("rolls:list", "rolls"), ("rolls:aging", "aging"),
                                               ("districts:parcel_list", "parcels")])
def test_one_active_entry(staff_user, url_name, key):
    request = RequestFactory().get(reverse(url_name))
    request.user = staff_user
    assert navigation(request)["nav_active"] == key
