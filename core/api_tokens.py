"""API tokens: scoped, revocable keys for integrations, in place of HTTP Basic passwords.

A key reads `cargos_<prefix>_<secret>`; the prefix finds nothing by itself (it only names the key in
lists and logs), the SHA-256 of the whole key finds the row. A READ token may only use safe methods,
whatever its user's role may do: the scope is checked here, in the one place every API request
passes through, before any view or permission runs.
"""
from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.permissions import SAFE_METHODS

from core import signin
from core.audit import audit
from core.models import ApiToken

KEYWORDS = (b"bearer", b"token")
LAST_USE_GRANULARITY = timedelta(minutes=1)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


@transaction.atomic
def token_create(*, user, name: str, scope: str, actor, expires_at=None) -> tuple[ApiToken, str]:
    """The token and its key, which is shown this once and never stored."""
    if scope not in ApiToken.Scope.values:
        raise ValueError(scope)
    prefix = secrets.token_hex(4)
    key = f"cargos_{prefix}_{secrets.token_urlsafe(32)}"
    token = ApiToken.objects.create(name=name, user=user, scope=scope, prefix=prefix, key_hash=key_hash(key),
                                    created_by=actor, expires_at=expires_at)
    audit(actor=actor, action="api_token.create", target=token,
          summary=f"Token de la API {token.prefix} para {name} ({scope}), actúa como {user.get_username()}")
    return token, key


def token_revoke(*, token: ApiToken, actor) -> None:
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        audit(actor=actor, action="api_token.revoke", target=token, summary=f"Token {token.prefix} revocado")


class ApiTokenAuthentication(BaseAuthentication):
    """`Authorization: Bearer <key>` (or `Token <key>`)."""

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() not in KEYWORDS:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(_("Encabezado Authorization mal formado: «Bearer <token>»."))
        # Keys are guessed here: an address with too many bad tokens is refused, good ones too (core.signin).
        http_request = request._request
        if signin.is_locked(http_request, signin.API_TOKEN):
            raise exceptions.Throttled(detail=_("Demasiados tokens no válidos desde esta dirección; vuelva a "
                                                "intentarlo más tarde."),
                                       wait=settings.AXES_COOLOFF_TIME.total_seconds())
        key = parts[1].decode("latin-1")
        token = (ApiToken.objects.select_related("user").filter(key_hash=key_hash(key)).first()
                 if key.startswith("cargos_") else None)
        now = timezone.now()
        if token is None or token.revoked_at is not None or (token.expires_at and token.expires_at <= now):
            signin.record_failure(http_request, signin.API_TOKEN)
            raise exceptions.AuthenticationFailed(_("Token de la API no válido, revocado o vencido."))
        if not token.user.is_active:
            signin.record_failure(http_request, signin.API_TOKEN)
            raise exceptions.AuthenticationFailed(_("La cuenta del token está desactivada."))
        if request.method not in SAFE_METHODS and token.scope != ApiToken.Scope.WRITE:
            raise exceptions.PermissionDenied(_("Este token solo permite leer."))
        if token.last_used_at is None or now - token.last_used_at >= LAST_USE_GRANULARITY:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now, last_used_ip=request.META.get("REMOTE_ADDR"))
        return token.user, token

    def authenticate_header(self, request):
        return 'Bearer realm="api"'


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """The OpenAPI description of the tokens (a bearer scheme)."""

    target_class = "core.api_tokens.ApiTokenAuthentication"
    name = "apiToken"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer",
                "description": "Token de la API (`cargos_…`), creado por un administrador; alcance READ o WRITE."}
