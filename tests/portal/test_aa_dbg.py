import pytest
from django.db import connection
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

def test_dbg():
    from django.contrib.contenttypes.models import ContentType
    print("\nSERIALIZED:", hasattr(connection, "_test_serialized_contents"), len(getattr(connection, "_test_serialized_contents", "") or ""), ContentType.objects.count(), ContentType.objects.order_by("-id").first().id)
