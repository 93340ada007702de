"""`manage.py seed_improvement`: demo SID and TID records (districts/improvement/seed.py). Idempotent."""
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Demo data for the improvement districts: a SID resolution with batches, a TID ordinance with its account."

    def handle(self, *args, **options):
        from districts.improvement.seed import seed

        result = seed()
        sid, tid = result["sid"], result["tid"]
        self.stdout.write(self.style.SUCCESS(
            f"SID: {sid} ({sid.charges.count()} cargos, {sid.batches.count()} lotes). "
            f"TID: {tid} ({tid.get_status_display()})."))
