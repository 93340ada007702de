import sys

from django.core.management.base import BaseCommand, CommandError

from assessments.management.commands._roll_common import add_roll_arguments, system_user
from assessments.rolls import services


class Command(BaseCommand):
    help = "Generate (or regenerate while draft) the roll of an irrigation district for a fiscal year."

    def add_arguments(self, parser):
        add_roll_arguments(parser)

    def handle(self, *args, district, fiscal_year, **options):
        def echo(done, total):
            sys.stderr.write(f"\r  {done:,}/{total:,} parcelas ({100 * done // max(total, 1)} %)")
            sys.stderr.flush()

        try:
            outcome = services.roll_generate(district_code=district, fiscal_year=fiscal_year, actor=system_user(),
                                             echo=echo)
        except services.RollError as exc:
            raise CommandError("; ".join(exc.messages)) from None
        sys.stderr.write("\n")
        self.stdout.write(("Generado: " if outcome.changed else "Sin cambios: ") + outcome.message)
