"""`manage.py seed_improvement_billing`: bill the demo SID and TID districts (`seed_improvement`)
for the current fiscal year, record a few owners' payments and feed the collections to SID-3
batches and TID-5 deposits. Idempotent: billing finds its receivables, payments their
idempotency keys, the feed its ledger entries."""
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from assessments.improvement_billing import services
from assessments.improvement_billing.models import BillingRun
from assessments.ledger.payments import payment_record
from assessments.models import Payment, Receivable
from core.fiscal import fiscal_year_of
from districts.models import District

PAID_SHARE = Decimal("0.5")   # the demo's first two charges of each district pay half


class Command(BaseCommand):
    help = "Demo: factura los distritos SID y TID de demostración, registra pagos y traslada los recaudos."

    @transaction.atomic
    def handle(self, *args, **options):
        today = timezone.localdate()
        fy = fiscal_year_of(today)
        for kind in (District.Kind.SID, District.Kind.TID):
            district = District.objects.filter(kind=kind).order_by("id").first()
            if district is None:
                self.stdout.write(f"{kind}: no hay distrito de demostración (corra seed_improvement).")
                continue
            try:
                run = services.improvement_bill(district=district, fiscal_year=fy, actor=None, today=today,
                                                trigger=BillingRun.Trigger.COMMAND)
            except ValidationError as exc:
                self.stdout.write(f"{district.code} FY{fy}: {'; '.join(exc.messages)}")
                continue
            self.stdout.write(f"{run}: {run.created_now} cargos nuevos; {run.charges_count} en total "
                              f"(${run.charges_total:,.2f}).")
            for rec in Receivable.objects.filter(source_type=run.source_type).order_by("pk")[:2]:
                amount = (rec.amount * PAID_SHARE).quantize(Decimal("0.01"))
                payment_record(account=rec.account, amount=amount, method=Payment.Method.TRANSFER, paid_on=today,
                               payer="Pago de demostración", idempotency_key=f"demo-improvement-{rec.pk}",
                               batch=None, actor=None, source=Payment.Source.API)
        report = services.collections_feed(on=today)
        self.stdout.write(self.style.SUCCESS(
            f"Recaudos trasladados: {report['fed']} asientos (${Decimal(report['amount']):,.2f}); "
            f"lotes SID-3 nuevos {report['batches_created']}, ampliados {report['batches_extended']}; "
            f"depósitos TID-5 {report['deposits']}."))
