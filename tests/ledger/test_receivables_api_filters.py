"""Issue #18 (schemathesis): `/api/v1/receivables/?status=AAA` answered 200 with no rows, as if no charge
had that status, where the schema lists the statuses: a typo read as "none". It is a 400 naming them."""
import pytest

pytestmark = pytest.mark.django_db


def test_an_unknown_status_is_refused(postgres_only, staff_client):
    response = staff_client.get("/api/v1/receivables/?status=AAA")
    assert response.status_code == 400
    assert "OPEN" in response.json()["status"][0]


def test_a_known_or_empty_status_filters(postgres_only, staff_client):
    from assessments.models import Receivable

    for status in [Receivable.Status.values[0], ""]:
        assert staff_client.get(f"/api/v1/receivables/?status={status}").status_code == 200
