"""List (and with --apply, credit) the days tariff invoices billed past a franchise's expiry.

Invoices issued before FRA-3's periods were checked billed whole fiscal years; sec. 8.14 a bills
only the water whose use is authorized. Each credit is a new entry (the invoices stay as issued).
"""
from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db import transaction

from assessments.franchise_billing import services
from assessments.franchise_billing.models import FranchiseCharge
from franchises.models import Franchise


class Command(BaseCommand):
    help = "Credit the days franchise tariff invoices billed past the expiry (FRA-3). Dry run unless --apply."

    def add_arguments(self, parser):
        parser.add_argument("--apply", action="store_true", help="Post the credits (default: list them only).")

    def handle(self, *args, apply: bool = False, **options):
        ids = (FranchiseCharge.objects.filter(kind=FranchiseCharge.Kind.TARIFF).values_list("franchise_id", flat=True)
               .distinct())
        total, count = 0, 0
        with transaction.atomic():
            for f in Franchise.objects.filter(pk__in=ids).order_by("number"):
                for c in services.franchise_overbilling_credits(franchise=f, actor=None):
                    count += 1
                    total += c.amount
                    self.stdout.write(f"{f.number} FY{c.fiscal_year} {c.period_start:%d/%m/%Y}–{c.period_end:%d/%m/%Y}"
                                      f" {c.amount}")
            if not apply:
                transaction.set_rollback(True)
        verb = "credited" if apply else "would be credited (dry run; --apply to post)"
        self.stdout.write(self.style.SUCCESS(f"franchise_overbilling_credits: {count} credits, {total} {verb}"))
