"""Re-rank every parcel with active liens (LIEN-2) and keep the legal-review flags in step.

Liens registered in bulk by the rolls (assessments) do not re-rank their parcels one by one;
run this after a roll is finalized, or nightly. Idempotent: a second run changes nothing.
"""
from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from districts.models import Parcel
from liens import selectors, services


class Command(BaseCommand):
    help = "Recompute the lien ranking of every parcel with active liens; raise or resolve LIEN_CONFLICT flags."

    def add_arguments(self, parser):
        parser.add_argument("--parcel", action="append", default=[], metavar="CADASTRE",
                            help="Only this parcel (repeatable).")

    def handle(self, *args, **options):
        if options["parcel"]:
            parcels = list(Parcel.objects.filter(cadastre__in=options["parcel"]).order_by("pk"))
            missing = set(options["parcel"]) - {p.cadastre for p in parcels}
            if missing:
                raise CommandError(f"Unknown cadastre: {', '.join(sorted(missing))}")
        else:
            parcels = selectors.parcels_with_liens().iterator(chunk_size=500)
        ranked = blocked = 0
        for parcel in parcels:
            ranking = services.lien_rank(parcel=parcel, actor=None)
            ranked += 1
            if ranking.blocked:
                blocked += 1
                if options["verbosity"] >= 2:
                    self.stdout.write(f"{parcel.cadastre}: {ranking.blocking_text()}")
        self.stdout.write(self.style.SUCCESS(
            f"{ranked} parcel(s) ranked; {blocked} in conflict, flagged for legal review."))
