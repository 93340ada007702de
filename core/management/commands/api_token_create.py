"""Make an API token for an integration and print its key once: `api_token_create USER NAME --scope write`."""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from core.api_tokens import token_create
from core.models import ApiToken


class Command(BaseCommand):
    help = "Crea un token de la API para una integración y muestra la clave una sola vez."

    def add_arguments(self, parser):
        parser.add_argument("username", help="la cuenta cuyo rol usa el token")
        parser.add_argument("name", help="la integración (p. ej. «Banco Popular — archivo diario»)")
        parser.add_argument("--scope", choices=["read", "write"], default="read")

    def handle(self, *args, username, name, scope, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No existe la cuenta «{username}».")
        token, key = token_create(user=user, name=name, scope=ApiToken.Scope[scope.upper()], actor=None)
        self.stdout.write(f"{token.prefix}: {key}")
        self.stderr.write("Guarde la clave ahora: no se vuelve a mostrar.")
