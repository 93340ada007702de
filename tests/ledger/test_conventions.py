"""Issue #17 on the cashier's pages: closing a batch with "500,00" or "abc" says why next to the field."""
import pytest

pytestmark = pytest.mark.django_db


def test_batch_close_with_a_comma_says_why_next_to_the_field(client, account, charge, batch, cashier):
    client.force_login(cashier)
    response = client.post(f"/cobros/lotes/{batch.pk}/", {"counted_CASH": "500,00", "counted_CHECK": "abc"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="id_counted_CASH_error"' in html and "«500,00» es ambiguo" in html
    assert 'id="id_counted_CHECK_error"' in html and "«abc» no es un número" in html
    assert 'value="500,00"' in html                       # what was typed stays in the box
    batch.refresh_from_db()
    assert batch.status == "OPEN"


def test_an_account_statement_date_that_does_not_read_says_why(client, account, charge, staff_user):
    client.force_login(staff_user)
    html = client.get(f"/cobros/cuentas/{account.pk}/", {"as_of": "12/31/2026"}).content.decode()
    assert 'id="id_as_of_error"' in html and "«12/31/2026» no es una fecha" in html
    html = client.get(f"/cobros/cuentas/{account.pk}/", {"as_of": "31/12/2025"}).content.decode()
    assert 'id="id_as_of_error"' not in html and 'value="31/12/2025"' in html
