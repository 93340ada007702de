"""`manage.py issue_demo_notices`: the notices of the demo data (idempotent; never in production).

The demo owner's receivables get their notices rendered now, so the portal has PDFs to show.
Every other receivable without a notice is numbered here when tasks run in-process (`make run`
without Redis: each PDF is rendered at its first download, so the command stays quick), or,
with workers, every billing run that has a charge without a rendered notice is queued to them.
"""
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q

from assessments.models import Receivable
from assessments.notices import services
from assessments.notices.models import Notice
from districts.demo import OWNER_REF
from districts.models import Party
from districts.selectors import current_ownerships

PRODUCTION_SETTINGS = "config.settings.production"


class Command(BaseCommand):
    help = "Issue the demo's notices: the demo owner's rendered now, the rest queued or numbered (idempotent)."

    def handle(self, *args, **options):
        if not getattr(settings, "DEMO_ACCOUNTS_ENABLED", False) or settings.SETTINGS_MODULE == PRODUCTION_SETTINGS:
            raise CommandError("issue_demo_notices no se ejecuta con la configuración de producción.")
        from config.celery import app

        owner = Party.objects.filter(ref=OWNER_REF).first()
        mine = Receivable.objects.none()
        if owner is not None:
            parcels = current_ownerships().filter(party=owner).values("parcel_id")
            mine = Receivable.objects.filter(Q(account__parcel_id__in=parcels) | Q(account__party=owner))
        rendered = 0
        for receivable in mine.order_by("pk"):
            notice = services.notice_issue(receivable=receivable, actor=None)
            rendered += notice.document_id is not None
        numbered = queued = 0
        if app.conf.task_always_eager:
            # no worker (`make run`): number what has no notice; each PDF is rendered at its first download
            done = Notice.objects.exclude(status=Notice.Status.REPLACED).values("receivable_id")
            for source_type in sorted(set(Receivable.objects.exclude(pk__in=done)
                                          .values_list("source_type", flat=True))):
                numbered += services.notices_issue_for_source(source_type=source_type, render=False).numbered
        else:
            # workers: every billing run with a charge whose notice is missing or has no PDF yet
            from assessments.notices.tasks import notices_issue_for_source_task

            for source_type in services.sources_missing_notices():
                notices_issue_for_source_task.delay(source_type)
                queued += 1
        total = Notice.objects.count()
        if not Receivable.objects.exists():
            self.stdout.write("No hay cargos facturados todavía: los avisos se emiten al facturar un padrón.")
        self.stdout.write(f"Avisos del dueño de demostración con PDF: {rendered}. Avisos numerados ahora "
                          f"(PDF al descargarlos): {numbered}. Facturaciones enviadas a los workers: {queued}. "
                          f"Avisos en total: {total}.")
