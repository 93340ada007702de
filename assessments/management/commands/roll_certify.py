import sys

from django.core.management.base import BaseCommand, CommandError

from assessments.management.commands._roll_common import add_roll_arguments, find_roll, system_user
from assessments.rolls import services


class Command(BaseCommand):
    help = "Certify a draft roll and bill its lines (idempotent), printing the progress."

    def add_arguments(self, parser):
        add_roll_arguments(parser)

    def handle(self, *args, district, fiscal_year, **options):
        def echo(done, total):
            sys.stderr.write(f"\r  {done:,}/{total:,} líneas facturadas ({100 * done // max(total, 1)} %)")
            sys.stderr.flush()

        try:
            outcome = services.roll_certify(roll=find_roll(district, fiscal_year), actor=system_user(), echo=echo)
        except services.RollError as exc:
            raise CommandError("; ".join(exc.messages)) from None
        sys.stderr.write("\n")
        self.stdout.write(("Certificado: " if outcome.changed else "Sin cambios: ") + outcome.message)
