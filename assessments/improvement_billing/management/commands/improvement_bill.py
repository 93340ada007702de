"""`manage.py improvement_bill --district CODE --fiscal-year Y`: bill a SID or TID district's
benefit charges for one fiscal year (idempotent; says what it did or why it refused)."""
from datetime import date

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from assessments.improvement_billing import services
from assessments.improvement_billing.models import BillingRun
from districts.models import District


class Command(BaseCommand):
    help = "Factura los cargos por beneficio de un distrito SID o TID para un año fiscal (SID-1, TID-2)."

    def add_arguments(self, parser):
        parser.add_argument("--district", required=True, help="Código del distrito.")
        parser.add_argument("--fiscal-year", required=True, type=int)
        parser.add_argument("--issued-on", type=date.fromisoformat, default=None, help="AAAA-MM-DD (hoy).")

    def handle(self, *args, **options):
        district = District.objects.filter(code=options["district"]).first()
        if district is None:
            raise CommandError(f"district: no existe el distrito {options['district']!r}.")
        try:
            run = services.improvement_bill(district=district, fiscal_year=options["fiscal_year"], actor=None,
                                            issued_on=options["issued_on"], trigger=BillingRun.Trigger.COMMAND)
        except services.BillingRefused as exc:
            raise CommandError(f"Rechazado ({exc.reason}): {exc.text} Se abrió un asunto en la cola de trabajo.") \
                from None
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from None
        self.stdout.write(self.style.SUCCESS(
            f"{run}: {run.created_now} cargos nuevos por ${run.created_total_now:,.2f}; "
            f"en total {run.charges_count} cargos por ${run.charges_total:,.2f} ({run.source_type})."))
