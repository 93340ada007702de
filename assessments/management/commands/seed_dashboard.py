"""Demo data for the staff dashboard (issue #10): something due this week, and items assigned to
the demo users, so the home page answers "what must I do this week" on the demo data.

Idempotent: the transfer is filed once (the franchise then has an application in progress) and
assigning an item to the user who already has it changes nothing. Run after the other seeds.
The demo staff user works at the office of their first item (StaffOffice), once: the calendar
then offers "Mi oficina", and that office's unassigned items go to them.
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from core import roles
from core.dashboard.registry import collect
from core.dashboard.services import item_assign
from core.daycount import add_days
from districts.models import Office, Party, StaffOffice
from franchises import services as franchise_services
from franchises.models import Application, Franchise

TRANSFER_DOCUMENTS = {"FRANCHISE_NUMBER": True, "HOLDER_NAME": True, "RECIPIENT_NAME": True,
                      "REASONS_EVIDENCE": True, "SIGNATURES_BOTH": True}
# Demo users (seed_demo) and what each takes: the kinds of items their role answers for.
DEMO_DISTRICT = "riego-costa-sur"     # the demo irrigation district (districts/demo.py)
TAKES = [("staff", ("clock", "franchise")), ("legal", ("lien",)), ("cashier", ("delinquent",)),
         ("approver", ("roll",))]


class Command(BaseCommand):
    help = "Demo: a transfer whose FRA-5 decision falls due this week, and dashboard items assigned to demo users."

    @transaction.atomic
    def handle(self, *args, **options):
        today = timezone.localdate()
        filed = self._transfer_due_this_week(today)
        users = {u.username: u for u in get_user_model().objects.filter(username__in=[u for u, _ in TAKES])}
        actor = get_user_model().objects.filter(groups__name=roles.ADMINISTRATOR).first()
        assigned = 0
        items = sorted(collect(today=today), key=lambda i: (i.due_date is None, i.due_date, i.key))
        for username, kinds in TAKES:
            user = users.get(username)
            if user is None or not roles.can_write(user):
                continue
            # Two per user: enough to show "Mío" on the home page, leaving the rest to assign by hand.
            for item in [i for i in items if i.kind in kinds and i.assignee_id in (None, user.pk)][:2]:
                if item.assignee_id != user.pk:
                    item_assign(item_key=item.key, user=user, actor=actor, today=today)
                    assigned += 1
        office = self._staff_office(users.get("staff"), items)
        self.stdout.write(f"seed_dashboard: transfer filed {'yes' if filed else 'no (already there)'}; "
                          f"{assigned} items assigned; staff office: {office or '-'}.")

    def _staff_office(self, user, items) -> Office | None:
        """The demo staff user's office: the demo irrigation district's office (the staff user is
        the irrigation service's clerk), else the one of their first item with an office, else the
        first office; a user who already has an office keeps theirs."""
        if user is None:
            return None
        current = StaffOffice.objects.filter(user=user).select_related("office").first()
        if current is not None:
            return current.office
        office_ids = [i.office_id for i in items if i.office_id and i.kind in dict(TAKES)["staff"]]
        office = (Office.objects.filter(districts__code=DEMO_DISTRICT).first()
                  or Office.objects.filter(pk__in=office_ids[:1]).first() or Office.objects.order_by("name").first())
        if office is not None:
            StaffOffice.objects.get_or_create(user=user, office=office)
        return office

    def _transfer_due_this_week(self, today) -> bool:
        """File a transfer received 25 days ago: its FRA-5 decision (30 days, moved past holidays)
        falls due within the week."""
        franchise = (Franchise.objects.filter(status=Franchise.Status.ACTIVE, applications__isnull=True)
                     .exclude(number="DRNA-FE-2019-0077").order_by("number").first())
        if franchise is None or Application.objects.filter(reasons__startswith="[demo tablero]").exists():
            return False
        recipient = Party.objects.exclude(pk=franchise.holder_id).filter(ref__startswith="FRA-DEMO").first()
        if recipient is None:
            return False
        franchise_services.application_file(
            actor=None, franchise=franchise, kind=Application.Kind.TRANSFER, received_on=add_days(today, -25),
            recipient=recipient, reasons="[demo tablero] Venta de la finca y del pozo.",
            documents=TRANSFER_DOCUMENTS, fee_paid=True)
        return True
