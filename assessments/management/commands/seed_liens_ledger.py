"""Demo (called by `seed_liens`): one half-paid irrigation charge whose lien secures only what is
still owed (LIEN-4). The charge and its payment go through the ledger's services, so the lien's
"Garantiza" figure is the ledger's own: constituted for $600.00, secures $300.00.

Idempotent: the charge's source is (`liens.demo`, `half-paid`), and the payment's idempotency key is fixed.
"""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.core.management.base import BaseCommand
from django.db import transaction

from assessments.ledger.payments import payment_record
from assessments.ledger.receivables import account_for_parcel, receivable_create
from assessments.models import Fund, Payment, Receivable
from assessments.rolls.billing import FUNDS
from districts.models import District, Membership, Office
from liens.management.commands.seed_liens import pick_parcel

SOURCE = ("liens.demo", "half-paid")
ISSUED_ON = date(2026, 7, 1)
PAID_ON = date(2026, 9, 15)
AMOUNT = Decimal("600.00")
PAID = Decimal("300.00")


class Command(BaseCommand):
    help = "Demo: a half-paid irrigation charge; its lien secures the half still owed (LIEN-4)."

    @transaction.atomic
    def handle(self, *args, **options):
        rec = Receivable.objects.filter(source_type=SOURCE[0], source_id=SOURCE[1]).first()
        if rec is None:
            parcel, _created = pick_parcel("half", set())
            code, name, lien_kind, infrastructure, citation = FUNDS["IRRIGATION"]
            fund = Fund.objects.get_or_create(code=code, defaults={
                "name": name, "lien_kind": lien_kind, "finances_public_infrastructure": infrastructure,
                "citation": citation})[0]
            member = (Membership.objects.filter(parcel=parcel, district__kind=District.Kind.IRRIGATION)
                      .select_related("district__office").first())
            office = (member.district.office if member else None) or Office.objects.get_or_create(
                name="Servicio de Riego (demo)", defaults={"kind": Office.Kind.IRRIGATION})[0]
            rec = receivable_create(
                account=account_for_parcel(parcel), fund=fund, office=office, kind=Receivable.Kind.ROLL_LINE,
                source_type=SOURCE[0],
                source_id=SOURCE[1], installments=[(date(2026, 8, 1), AMOUNT)], issued_on=ISSUED_ON,
                description="Cuota de riego FY2027, mitad pagada (demo LIEN-4)", creates_lien=True, actor=None)
        payment_record(account=rec.account, amount=PAID, method=Payment.Method.TRANSFER, paid_on=PAID_ON,
                       payer="Pago parcial de demostración", idempotency_key="demo-liens-half-paid", batch=None,
                       actor=None, source=Payment.Source.API)
        self.stdout.write(f"half-paid (LIEN-4): parcel {rec.account.parcel.cadastre}, charge {rec.payment_reference}, "
                          f"{AMOUNT} constituted, {PAID} paid on {PAID_ON:%d/%m/%Y}")
