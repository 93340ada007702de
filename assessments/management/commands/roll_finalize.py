from django.core.management.base import BaseCommand, CommandError

from assessments.management.commands._roll_common import add_roll_arguments, find_roll, system_user
from assessments.rolls import services


class Command(BaseCommand):
    help = "Finalize a certified roll: it becomes immutable, each line is billed and its lien registered."

    def add_arguments(self, parser):
        add_roll_arguments(parser)

    def handle(self, *args, district, fiscal_year, **options):
        try:
            outcome = services.roll_finalize(roll=find_roll(district, fiscal_year), actor=system_user())
        except services.RollError as exc:
            raise CommandError("; ".join(exc.messages)) from None
        self.stdout.write(("Finalizado: " if outcome.changed else "Sin cambios: ") + outcome.message)
