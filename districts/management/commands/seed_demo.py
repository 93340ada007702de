"""`manage.py seed_demo [--parcels N] [--seed S]`: demo districts, register and accounts (districts/demo.py).

Idempotent: only what is missing is created. Refused under production settings. Account
passwords come from DEMO_PASSWORD, or one random password is generated per run, set only on the
accounts this run creates and printed once; existing accounts keep theirs.
"""
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from districts.demo import ACCOUNTS, DEFAULT_PARCELS, DEFAULT_SEED, DemoRefused, seed_demo

PRODUCTION_SETTINGS = "config.settings.production"


class Command(BaseCommand):
    help = "Load the demo districts, offices, parties, parcels and accounts (idempotent; never in production)."

    def add_arguments(self, parser):
        parser.add_argument("--parcels", type=int, default=DEFAULT_PARCELS,
                            help=f"number of demo parcels (default {DEFAULT_PARCELS})")
        parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="random seed (same seed, same data)")

    def handle(self, *args, parcels, seed, **options):
        if not getattr(settings, "DEMO_ACCOUNTS_ENABLED", False) or settings.SETTINGS_MODULE == PRODUCTION_SETTINGS:
            raise CommandError(_("seed_demo no se ejecuta con la configuración de producción: las cuentas de "
                                 "demostración están desactivadas (DEMO_ACCOUNTS_ENABLED=False)."))
        try:
            result = seed_demo(parcels=parcels, seed=seed)
        except DemoRefused as exc:
            raise CommandError(str(exc))

        made = result.created
        if any(made.values()):
            self.stdout.write(_(
                "Datos de demostración creados en %(s).1f s: %(parcels)s parcelas, %(parties)s personas y entidades, "
                "%(ownerships)s titularidades, %(memberships)s inclusiones, %(water_deliveries)s entregas de agua, "
                "%(districts)s distritos, %(offices)s oficinas.") % {"s": result.seconds, **made})
        else:
            self.stdout.write(_("Los datos de demostración ya estaban cargados; no se cambió nada (%(s).1f s).")
                              % {"s": result.seconds})

        users = ", ".join(f"{name} ({role})" for name, role, *_names in ACCOUNTS)
        self.stdout.write(_("Cuentas de demostración: %(users)s.") % {"users": users})
        if result.accounts_created:
            created = ", ".join(result.accounts_created)
            if result.password_from_env:
                self.stdout.write(_("Contraseña de las cuentas nuevas (%(users)s): la de la variable DEMO_PASSWORD.")
                                  % {"users": created})
            else:
                self.stdout.write(self.style.WARNING(_(
                    "Contraseña generada para las cuentas nuevas (%(users)s): %(password)s — se muestra solo esta "
                    "vez; defina DEMO_PASSWORD para escoger una.") % {"users": created, "password": result.password}))
        if result.accounts_existing:
            self.stdout.write(_("Las cuentas que ya existían conservan su contraseña: %(users)s.")
                              % {"users": ", ".join(result.accounts_existing)})
        self._second_factor()

    def _second_factor(self):
        """The demo accounts that must give a second factor share one authenticator secret, printed on every run
        so a person adds it to their app once (core/otp.py; README "Security")."""
        from django.contrib.auth.models import User

        from core import otp

        order = [a[0] for a in ACCOUNTS]   # printed in the order of the accounts' list, whatever the database returns
        users = sorted(User.objects.filter(username__in=order), key=lambda u: order.index(u.username))
        device = otp.demo_devices(users)
        if device is None:
            return
        names = ", ".join(u.username for u in users if otp.required_by_role(u))
        self.stdout.write(self.style.WARNING(_(
            "Segundo factor de las cuentas %(users)s: añada a su aplicación de autenticación la clave %(secret)s "
            "(o el URI %(uri)s) y escriba el código de seis dígitos que muestre al entrar.")
            % {"users": names, "secret": otp.secret_base32(device), "uri": otp.demo_uri(device)}))
