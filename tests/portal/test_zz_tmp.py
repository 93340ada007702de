import pytest
from django.contrib.auth.models import Group
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

def test_one():
    assert Group.objects.filter(name="owner").exists()

def test_two():
    assert Group.objects.filter(name="owner").exists()
