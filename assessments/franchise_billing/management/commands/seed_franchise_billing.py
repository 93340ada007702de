"""Demo franchise billing over `seed_franchises`: FY2027 tariff invoices for every demo franchise,
metered bills for the GROUND_INDUSTRIAL readings, a few payments (so FRA-4 has numbers), one
transfer to the AAA (the last fiscal quarter ended), and the FRA-8 arrears run.

Idempotent: invoices and bills are found by their natural keys, payments by their idempotency
keys, the transfer by its period; a second run changes nothing. Payments dated after today are
left for a later run.
"""
from __future__ import annotations

import zlib
from datetime import date, timedelta
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from assessments.franchise_billing import rules, selectors, services
from assessments.franchise_billing.models import AaaTransfer, FranchiseCharge, InvoiceRun
from assessments.ledger.payments import payment_record
from assessments.ledger.receivables import account_for_party
from assessments.models import Payment
from core.fiscal import first_of_next_month, fiscal_year_of
from franchises.management.commands.seed_franchises import FRANCHISES
from franchises.management.commands.seed_franchises import Command as SeedFranchises
from franchises.models import Franchise

FISCAL_YEAR = 2027
DEMO_NUMBERS = [row[0] for row in FRANCHISES]
RENEWED = SeedFranchises.RENEWED  # FRA-3: renewed as a new franchise; billed up to its expiry, its renewal after
# Tariff invoices paid (franchise number, paid on, "ALL" or the first installment only).
TARIFF_PAYMENTS = [
    ("DRNA-FE-2021-0113", date(2026, 6, 25), "FIRST"),   # BRACKISH, semiannual
    ("DRNA-FE-2017-0150", date(2026, 6, 28), "ALL"),     # DOMESTIC, annual
    ("DRNA-FE-2019-0077", date(2026, 7, 1), "FIRST"),    # SURFACE_INDUSTRIAL, semiannual
    ("DRNA-FE-2018-0021", date(2026, 8, 10), "ALL"),     # INSTITUTIONAL, annual
    ("DRNA-FE-2022-0031", date(2026, 9, 3), "ALL"),      # RECREATIONAL, annual
]
# The bottler pays every metered bill but the last two (still within their 30 days or just late); the
# idle hotel (FRA-10's demo) pays none of its old bills: FRA-8 flags it, six months after the oldest due date.
METERED_PAID_ALL_BUT_LAST = "DRNA-FE-2019-0042"


class Command(BaseCommand):
    help = "Demo franchise billing: FY2027 invoices, metered bills, a few payments, an AAA transfer (idempotent)."

    @transaction.atomic
    def handle(self, *args, **options):
        today = timezone.localdate()
        # seed_franchises is idempotent: run it too when a demo added later (the renewal chain) is missing.
        if Franchise.objects.filter(number__in=[*DEMO_NUMBERS, RENEWED]).count() < len(DEMO_NUMBERS) + 1:
            call_command("seed_franchises", verbosity=0)
        run = services.franchise_invoices_generate(fiscal_year=FISCAL_YEAR, actor=None,
                                                   issued_on=min(date(FISCAL_YEAR - 1, 6, 1), today),
                                                   trigger=InvoiceRun.Trigger.COMMAND, record_empty=False)
        bills = 0
        for f in Franchise.objects.filter(number__in=DEMO_NUMBERS, tariff_class="GROUND_INDUSTRIAL", exemption=""):
            for reading in selectors.unbilled_readings(f, today):
                billed_on = min(first_of_next_month(reading.month), today)
                bills += services.meter_bill_create(reading=reading, actor=None, billed_on=billed_on) is not None
        payments = self._tariff_payments(today) + self._metered_payments(today)
        transfer = self._transfer(today)
        flags = services.franchise_arrears_flags_run(today=today)
        self.stdout.write(self.style.SUCCESS(
            f"seed_franchise_billing: FY{FISCAL_YEAR} {run.created_count} new invoices ({run.created_total}); "
            f"{bills} new metered bills; {payments} new payments; AAA transfer {transfer}; flags {flags}"))

    def _pay(self, charge: FranchiseCharge, amount: Decimal, paid_on: date, key: str) -> int:
        if paid_on > timezone.localdate() or amount <= 0:
            return 0
        key = f"seed-fbill:{key}"
        if Payment.objects.filter(idempotency_key=key).exists():
            return 0
        holder = charge.receivable.account.party
        payment_record(account=account_for_party(holder), amount=amount, method=Payment.Method.CHECK,
                       paid_on=paid_on, payer=holder, idempotency_key=key, batch=None, actor=None,
                       check_number=f"{zlib.crc32(key.encode()) % 900000 + 100000}", source=Payment.Source.API,
                       memo=f"Pago de demostración — {charge.receivable.description}"[:300])
        return 1

    def _tariff_payments(self, today: date) -> int:
        made = 0
        for number, paid_on, what in TARIFF_PAYMENTS:
            charge = (FranchiseCharge.objects.filter(franchise__number=number, kind=FranchiseCharge.Kind.TARIFF,
                                                     fiscal_year=FISCAL_YEAR).select_related("receivable").first())
            if charge is None:
                continue
            insts = list(charge.receivable.installments.order_by("seq"))
            amount = insts[0].amount if what == "FIRST" else charge.receivable.amount
            made += self._pay(charge, amount, paid_on, f"{charge.receivable.source_id}:{what}")
        return made

    def _metered_payments(self, today: date) -> int:
        made = 0
        charges = list(FranchiseCharge.objects.filter(franchise__number=METERED_PAID_ALL_BUT_LAST,
                                                      kind=FranchiseCharge.Kind.METERED)
                       .select_related("receivable").order_by("month"))
        for c in charges[:-2]:
            due = c.receivable.installments.get().due_date
            made += self._pay(c, c.receivable.amount, due - timedelta(days=3), c.receivable.source_id)
        return made

    @staticmethod
    def last_ended_quarter(today: date) -> rules.Period:
        """The fiscal quarter before today's (FY2027-Q1, July-September 2026, on 2026-12-01)."""
        fy, q = fiscal_year_of(today), (today.month - 7) % 12 // 3 + 1
        fy, q = (fy - 1, 4) if q == 1 else (fy, q - 1)
        return rules.period_from_label(f"FY{fy}-Q{q}")

    def _transfer(self, today: date) -> str:
        period = self.last_ended_quarter(today)
        found = AaaTransfer.objects.filter(period_label=period.label).first()
        if found is not None:
            return f"{found.period_label} {found.transferred} (existing)"
        transferred_on = min(period.end + timedelta(days=15), today)
        try:
            t = services.aaa_transfer_record(period=period, transferred_on=transferred_on, actor=None,
                                             reference=f"ACH-AAA-{transferred_on:%Y%m%d}",
                                             notes="Demostración (FRA-4).")
        except ValidationError as exc:
            return "; ".join(exc.messages)
        return f"{t.period_label} {t.transferred}"
