"""Writes of the dashboard: assigning an item, issuing and revoking calendar links, sending the
daily digest. Keyword-only arguments, one transaction, an audit entry per change; each can run
twice and change nothing the second time."""
from __future__ import annotations

import re
import secrets
from datetime import date, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from core import roles
from core.audit import audit
from core.dashboard import selectors
from core.dashboard.registry import collect, display_name
from core.models import Assignment, Clock, DigestSent, Flag, StaffCalendar
from core.workqueue import flag_assign

KEY_RE = re.compile(r"^[a-z_]+(:[a-z0-9_]+)+$")


def _check_assignee(user) -> None:
    if user is not None and (not user.is_active or not roles.can_write(user)):
        raise ValidationError(
            {"user": _("Solo el personal que puede actuar sobre los registros puede recibir asuntos.")})


@transaction.atomic
def item_assign(*, item_key: str, user, actor, today: date | None = None) -> Assignment | None:
    """Assign the dashboard item `item_key` to `user` (None: nobody). A clock or flag also gets
    the assignee on its own row, so the work-queue lists agree with the dashboard."""
    if not KEY_RE.match(item_key or ""):
        raise ValidationError({"item_key": _("Asunto desconocido: %(key)r.") % {"key": item_key}})
    _check_assignee(user)
    today = today or timezone.localdate()
    kind, __, rest = item_key.partition(":")
    target, title = None, item_key
    if kind == "clock":
        target = Clock.objects.select_for_update().filter(pk=int(rest) if rest.isdigit() else 0,
                                                          met_on__isnull=True).first()
        if target is None:
            raise ValidationError({"item_key": _("El plazo %(id)s no existe o ya se cumplió.") % {"id": rest}})
        title = f"{target.rule} {target.label}"
        if target.responsible_user_id != (user.pk if user else None):
            Clock.objects.filter(pk=target.pk).update(responsible_user=user, updated_at=timezone.now())
    elif kind == "flag":
        target = Flag.objects.filter(pk=int(rest) if rest.isdigit() else 0, resolved_on__isnull=True).first()
        if target is None:
            raise ValidationError({"item_key": _("El asunto %(id)s no existe o ya se resolvió.") % {"id": rest}})
        flag_assign(flag=target, user=user, actor=actor)  # audits the flag's own change
        title = f"{target.get_kind_display()}: {target.record_label}"
    else:
        pending = {i.key: i for i in collect(today=today, until=today + timedelta(days=selectors.FEED_DAYS))}
        if item_key not in pending:
            raise ValidationError({"item_key": _("El asunto %(key)s ya no está pendiente.") % {"key": item_key}})
        title = f"{pending[item_key].title} ({pending[item_key].office_name or pending[item_key].district_name})"
    current = Assignment.objects.select_for_update().filter(item_key=item_key).first()
    if user is None:
        if current is not None:
            current.delete()
            audit(actor=actor, action="dashboard.unassign", target=target,
                  summary=f"Sin asignar: {title}", data={"item_key": item_key, "before": current.user_id})
        return None
    if current is not None and current.user_id == user.pk:
        return current
    before = current.user_id if current else None
    assignment, __ = Assignment.objects.update_or_create(
        item_key=item_key, defaults={"user": user, "assigned_by": actor, "at": timezone.now()})
    audit(actor=actor, action="dashboard.assign", target=target,
          summary=f"Asignado a {display_name(user)}: {title}",
          data={"item_key": item_key, "before": before, "assigned_to": user.pk})
    return assignment


@transaction.atomic
def calendar_token_issue(*, user) -> StaffCalendar:
    """Give the user a new private iCal link; the previous one (if any) stops working."""
    cal, __ = StaffCalendar.objects.select_for_update().get_or_create(user=user)
    cal.token, cal.created_at, cal.revoked_at = secrets.token_urlsafe(32), timezone.now(), None
    cal.save()
    audit(actor=user, action="calendar.token_issue", target=cal, summary="Enlace de calendario personal renovado")
    return cal


@transaction.atomic
def calendar_token_revoke(*, user) -> StaffCalendar | None:
    cal = StaffCalendar.objects.select_for_update().filter(user=user).first()
    if cal is None or cal.token is None:
        return cal
    cal.token, cal.revoked_at = None, timezone.now()
    cal.save(update_fields=["token", "revoked_at"])
    audit(actor=user, action="calendar.token_revoke", target=cal, summary="Enlace de calendario personal revocado")
    return cal


def digest_send(*, user, today: date, base_url: str = "") -> bool:
    """E-mail `user` what comes due in the next 7 days and what is overdue, once per day.

    The DigestSent row and the e-mail share one transaction: a second delivery (or a second
    worker at the same moment) finds the row and sends nothing; a failed send leaves no row, so
    the retry sends it. Nothing to report: no e-mail.
    """
    if DigestSent.objects.filter(user=user, date=today).exists():
        return False
    rows = selectors.digest_items(user, today)
    if not rows:
        return False
    try:
        with transaction.atomic():
            DigestSent.objects.create(user=user, date=today, item_count=len(rows))
            _send_digest(user, rows, today, base_url)
    except IntegrityError:
        return False
    return True


def _send_digest(user, rows, today: date, base_url: str) -> None:
    from core.dashboard.items import OVERDUE, window

    with translation.override("es"):
        context = {"user": user, "today": today, "base_url": base_url.rstrip("/"),
                   "overdue": [i for i in rows if window(i.due_date, today) == OVERDUE],
                   "week": [i for i in rows if window(i.due_date, today) != OVERDUE]}
        subject = render_to_string("core/dashboard/digest_subject.txt", context).strip()
        text = render_to_string("core/dashboard/digest_email.txt", context)
        html = render_to_string("core/dashboard/digest_email.html", context)
    message = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [user.email])
    message.attach_alternative(html, "text/html")
    message.send()


def digests_send_all(*, today: date, base_url: str = "") -> int:
    """The daily digest for every staff member with an e-mail address; returns how many were sent."""
    return sum(1 for user in selectors.digest_recipients() if digest_send(user=user, today=today, base_url=base_url))
