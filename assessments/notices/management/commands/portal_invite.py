"""`manage.py portal_invite <party> <username> [--base-url URL]`: create a party's owners' portal
account (staff's way, without an activation code) and print the link where the owner sets their
password. <party> is the party's `ref` or its id."""
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from assessments.portal.services import owner_account_create
from core.documents.services import public_base_url
from districts.models import Party


class Command(BaseCommand):
    help = "Create an owner's portal account for a party and print the link to set its password."

    def add_arguments(self, parser):
        parser.add_argument("party", help="the party's ref (e.g. P-D0001) or id")
        parser.add_argument("username")
        parser.add_argument("--base-url", default="", help="public address of the site (default: the documents' one)")

    def handle(self, *args, party, username, base_url, **options):
        lookup = Q(ref=party) | (Q(pk=int(party)) if party.isdigit() else Q(pk=None))
        found = Party.objects.filter(lookup).first()
        if found is None:
            raise CommandError(f"No existe la persona o entidad «{party}».")
        try:
            user = owner_account_create(party=found, username=username, actor=None)
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages))
        uid = urlsafe_base64_encode(force_bytes(user.pk))
        token = default_token_generator.make_token(user)
        link = (base_url.rstrip("/") or public_base_url()) + reverse("password_reset_confirm", args=[uid, token])
        self.stdout.write(f"Cuenta del portal creada para {found.display_name}: usuario «{user.username}».")
        self.stdout.write(f"Enlace para escoger la contraseña (entréguelo solo al dueño): {link}")
