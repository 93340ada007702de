"""Integrations use scoped, revocable API tokens; HTTP Basic authentication is off."""
import base64
from datetime import timedelta

import pytest
from django.utils import timezone

from core.api_tokens import token_create, token_revoke
from core.models import ApiToken, AuditEntry

pytestmark = pytest.mark.django_db
WRITE_URL = "/api/v1/franchises/applications/"


def _bearer(key):
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def test_basic_authentication_is_refused_even_with_the_right_password(client, staff_user):
    header = base64.b64encode(b"ana.staff:pw-Test-12345").decode()
    response = client.get("/api/v1/parcels/", HTTP_AUTHORIZATION=f"Basic {header}")
    assert response.status_code in (401, 403)


def test_a_read_token_reads_and_records_its_last_use(client, staff_user, admin_user):
    token, key = token_create(user=staff_user, name="Banco", scope=ApiToken.Scope.READ, actor=admin_user)
    assert key.startswith(f"cargos_{token.prefix}_") and key not in token.key_hash
    response = client.get("/api/v1/parcels/", **_bearer(key))
    assert response.status_code == 200
    token.refresh_from_db()
    assert token.last_used_at is not None and token.last_used_ip == "127.0.0.1"
    assert AuditEntry.objects.filter(action="api_token.create").exists()


def test_a_read_token_cannot_write_whatever_its_users_role(client, staff_user, admin_user):
    _, key = token_create(user=staff_user, name="Consulta", scope=ApiToken.Scope.READ, actor=admin_user)
    response = client.post(WRITE_URL, {}, content_type="application/json", **_bearer(key))
    assert response.status_code == 403 and "solo permite leer" in response.content.decode()


def test_a_write_token_reaches_validation(client, staff_user, admin_user):
    _, key = token_create(user=staff_user, name="AAA", scope=ApiToken.Scope.WRITE, actor=admin_user)
    response = client.post(WRITE_URL, {}, content_type="application/json", **_bearer(key))
    assert response.status_code == 400


@pytest.mark.parametrize("state", ["revoked", "expired", "wrong", "inactive"])
def test_refused_tokens_answer_401(client, staff_user, admin_user, state):
    token, key = token_create(user=staff_user, name="X", scope=ApiToken.Scope.WRITE, actor=admin_user)
    if state == "revoked":
        token_revoke(token=token, actor=admin_user)
    elif state == "expired":
        ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    elif state == "wrong":
        key = key[:-2] + "xx"
    else:
        staff_user.is_active = False
        staff_user.save()
    response = client.get("/api/v1/parcels/", **_bearer(key))
    # 403 rather than 401: the session scheme comes first, and DRF answers by the first scheme.
    assert response.status_code == 403 and "no válido, revocado o vencido" in response.content.decode() or (
        state == "inactive" and "desactivada" in response.content.decode())


def test_admin_makes_a_token_shows_the_key_once_and_lists_its_last_use(client, admin_user, staff_user):
    client.force_login(admin_user)
    response = client.post("/admin/core/apitoken/add/", {"name": "Banco Popular", "user": staff_user.pk,
                                                         "scope": "WRITE", "expires_at_0": "", "expires_at_1": ""},
                           follow=True)
    assert response.status_code == 200
    token = ApiToken.objects.get(name="Banco Popular")
    page = response.content.decode()
    assert "no se volverá a mostrar" in page and f"cargos_{token.prefix}_" in page
    listing = client.get("/admin/core/apitoken/").content.decode()
    assert "Banco Popular" in listing and token.prefix in listing and "ltimo uso" in listing


def test_the_command_prints_the_key_once(staff_user, capsys):
    from django.core.management import call_command

    call_command("api_token_create", "ana.staff", "Municipio de Ponce", "--scope", "write")
    out = capsys.readouterr().out
    token = ApiToken.objects.get(name="Municipio de Ponce")
    assert token.scope == "WRITE" and f"cargos_{token.prefix}_" in out
