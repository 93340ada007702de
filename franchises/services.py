"""Every write to the franchise registry: validate, save and audit in one transaction.

Refusals the statute decides (a transfer over an acquired right, a renewal with debt, a late
hearing request) are recorded as determinations; input that cannot be acted on at all raises
ValidationError and changes nothing.
"""
from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from assessments.rules.deadlines import unmoved_due
from core import workqueue
from core.audit import audit
from core.models import Clock, Flag
from districts.models import Party
from franchises import rules, selectors
from franchises.models import (
    Application,
    Franchise,
    Hearing,
    HolderType,
    MeterReading,
    Proceeding,
    UsageReport,
)

Kind = Application.Kind
Status = Application.Status


# --- Registry -----------------------------------------------------------------------------------------


def _open_clock(*, rule: str, target, franchise: Franchise, start: date, due: date, label: str, start_event: str,
                actor, moves: bool = True) -> Clock:
    return workqueue.clock_open(rule=rule, start_date=start, due_date=due, target=target, label=label,
                                start_event=start_event, moves_past_holidays=moves, office_id=franchise.office_id,
                                office_name=franchise.office.name, actor=actor)


def _meet_clock(*, rule: str, target, on: date, actor, start: date | None = None) -> None:
    """Mark the work-queue clock(s) `rule` open on `target` as done on `on` (MET, or MISSED if late)."""
    clocks = Clock.objects.filter(rule=rule, content_type=ContentType.objects.get_for_model(target),
                                  object_id=target.pk, met_on__isnull=True)
    if start is not None:
        clocks = clocks.filter(start_date=start)
    for clock in clocks:
        workqueue.clock_meet(clock=clock, on=on, actor=actor)


def _refresh_clocks(franchise: Franchise, today: date | None = None, *, actor=None,
                    book: selectors.DeadlineBook | None = None) -> None:
    """Keep the FRA-7 and FRA-10 dates on the record for its page, and the FRA-7 clock (the last
    day to file a renewal) open in core's work queue while the franchise is active.

    The dates are written with a queryset update: derived dates are not a change of the
    franchise's history.
    """
    today = today or timezone.localdate()
    book = book or selectors.DeadlineBook()
    renewal = book.due("FRA-7", franchise.expiry_date).due
    last = selectors.last_use(franchise, today)
    prescription = unmoved_due(book.clock("FRA-10", today), last) if last else None
    values = {"renewal_deadline": renewal, "last_use_on": last, "prescription_on": prescription}
    if any(getattr(franchise, k) != v for k, v in values.items()):
        Franchise.objects.filter(pk=franchise.pk).update(**values)
        for k, v in values.items():
            setattr(franchise, k, v)
    if franchise.status == Franchise.Status.ACTIVE and not selectors.renewal_filed(franchise):
        _open_clock(rule="FRA-7", target=franchise, franchise=franchise, start=franchise.expiry_date, due=renewal,
                    label=f"Solicitud de renovación de la franquicia {franchise.number}",
                    start_event=f"vencimiento de la franquicia el {franchise.expiry_date:%d/%m/%Y}", actor=actor)


def _close_renewal_clocks(franchise: Franchise, on: date, actor, *, keep_current: bool = True) -> None:
    """FRA-7 clocks of earlier terms (the expiry moved) or of a franchise no longer active are moot."""
    clocks = Clock.objects.filter(rule="FRA-7", content_type=ContentType.objects.get_for_model(Franchise),
                                  object_id=franchise.pk, met_on__isnull=True)
    if keep_current and franchise.status == Franchise.Status.ACTIVE:
        clocks = clocks.exclude(start_date=franchise.expiry_date)
    for clock in clocks:
        workqueue.clock_meet(clock=clock, on=on, actor=actor)


@transaction.atomic
def franchise_save(*, actor, instance: Franchise, action: str = "franchise") -> Franchise:
    """Create or edit a franchise: the class is derived (FRA-1), the term validated (FRA-6)."""
    instance.full_clean()
    is_new = instance.pk is None
    instance.save()
    _close_renewal_clocks(instance, timezone.localdate(), actor)
    _refresh_clocks(instance, actor=actor)
    audit(actor=actor, action=f"{action}.{'create' if is_new else 'update'}", target=instance,
          summary=f"{instance.number} ({instance.tariff_class})",
          data={"tariff_class": instance.tariff_class, "status": instance.status})
    return instance


@transaction.atomic
def meter_reading_record(*, actor, franchise: Franchise, month: date, gallons: int,
                         origin: str = MeterReading.Origin.ENTERED) -> MeterReading:
    """FRA-3, FRA-10: one month's reading; the same month read again replaces the figure."""
    reading = MeterReading.objects.filter(franchise=franchise, month=month).first()
    if reading is None:
        reading = MeterReading(franchise=franchise, month=month)
    previous = reading.gallons
    reading.gallons, reading.origin = gallons, origin
    reading.entered_by = actor if getattr(actor, "is_authenticated", False) else None
    reading.full_clean()
    if previous == gallons and reading.pk:
        return reading
    reading.save()
    _refresh_clocks(franchise)
    audit(actor=actor, action="franchise.meter_reading", target=franchise,
          summary=f"{franchise.number} {month:%Y-%m}: {gallons} gal",
          data={"month": month.isoformat(), "gallons": gallons, "previous": previous, "origin": origin})
    return reading


@transaction.atomic
def usage_report_record(*, actor, instance: UsageReport) -> UsageReport:
    instance.entered_by = actor if getattr(actor, "is_authenticated", False) else None
    instance.full_clean()
    instance.save()
    _refresh_clocks(instance.franchise)
    audit(actor=actor, action="franchise.usage_report", target=instance.franchise, summary=str(instance),
          data={"gallons_used": instance.gallons_used, "nonuse_justified": instance.nonuse_justified})
    return instance


def _next_number(year: int) -> str:
    prefix = f"DRNA-FE-{year}-"
    taken = [n.rsplit("-", 1)[1] for n in Franchise.objects.filter(number__startswith=prefix)
             .values_list("number", flat=True)]
    last = max((int(t) for t in taken if t.isdigit()), default=0)
    return f"{prefix}{last + 1:04d}"


# --- Applications -------------------------------------------------------------------------------------


def _recipient_type(party: Party | None, given: str) -> str:
    if given:
        return given
    if party is None:
        return ""
    return HolderType.PERSON if party.kind == Party.Kind.PERSON else HolderType.COMPANY


@transaction.atomic
def application_file(*, actor, franchise: Franchise, kind: str, received_on: date, applicant: Party | None = None,
                     recipient: Party | None = None, recipient_type: str = "", reasons: str = "",
                     requested_gallons: int | None = None, requested_expiry_date: date | None = None,
                     requested_conditions: str = "", permanent_closure: bool = False,
                     documents: dict | None = None, fee_paid: bool = False, controversy: bool = False,
                     changes_conditions: bool = False) -> Application:
    """File a transfer (FRA-5), amendment (FRA-6), renewal (FRA-7) or cancellation (FRA-9).

    Starts the FRA-5 clock (decision due 30 days after receipt, moved past weekends and
    holidays) and, for a renewal, flags one filed after the FRA-7 last day to file.
    """
    franchise = Franchise.objects.select_for_update().get(pk=franchise.pk)
    errors: dict[str, str] = {}
    allowed = {Franchise.Status.ACTIVE} | ({Franchise.Status.SUSPENDED} if kind == Kind.CANCELLATION else set())
    if kind not in Kind.values:
        errors["kind"] = _("Tipo de solicitud desconocido: %(kind)r.") % {"kind": kind}
    elif franchise.status not in allowed:
        errors["franchise"] = _("La franquicia está %(status)s.") % {"status": franchise.get_status_display().lower()}
    elif franchise.applications.filter(kind=kind, status__in=Application.OPEN_STATUSES).exists():
        errors["kind"] = _("Ya hay una solicitud de este tipo en trámite para esta franquicia.")
    recipient_type = _recipient_type(recipient, recipient_type)
    if kind == Kind.TRANSFER:
        if recipient is None:
            errors["recipient"] = _("Indique a quién se transfiere la franquicia.")
        elif recipient.pk == franchise.holder_id:
            errors["recipient"] = _("Quien recibe debe ser distinto del tenedor actual.")
    if kind == Kind.AMENDMENT and requested_gallons is None and requested_expiry_date is None \
            and not requested_conditions.strip():
        errors["requested_conditions"] = _("Indique los cambios específicos que se solicitan (volumen, vigencia "
                                            "u otra condición).")
    if kind == Kind.RENEWAL:
        if requested_expiry_date is None:
            errors["requested_expiry_date"] = _("Indique el nuevo vencimiento solicitado.")
        elif requested_expiry_date <= franchise.expiry_date:
            errors["requested_expiry_date"] = _("El nuevo vencimiento debe ser posterior al vigente.")
    if kind == Kind.AMENDMENT and requested_expiry_date is not None and requested_expiry_date <= franchise.issue_date:
        errors["requested_expiry_date"] = _("El vencimiento debe ser posterior a la expedición.")
    if errors:
        raise ValidationError(errors)

    app = Application(franchise=franchise, kind=kind, received_on=received_on, applicant=applicant or franchise.holder,
                      recipient=recipient if kind == Kind.TRANSFER else None,
                      recipient_type=recipient_type if kind == Kind.TRANSFER else "", reasons=reasons,
                      requested_gallons=requested_gallons, requested_expiry_date=requested_expiry_date,
                      requested_conditions=requested_conditions, permanent_closure=permanent_closure,
                      fee=rules.application_fee(kind), fee_paid=fee_paid, controversy=controversy,
                      changes_conditions=changes_conditions, expiry_at_filing=franchise.expiry_date)
    app.documents = {code: bool((documents or {}).get(code)) for code in app.required_documents}
    if kind == Kind.TRANSFER:
        app.decision_due = selectors.deadline("FRA-5", received_on).due
    if kind == Kind.RENEWAL:
        app.filing_deadline = selectors.deadline("FRA-7", franchise.expiry_date).due
        app.filed_late = received_on > app.filing_deadline
    app.full_clean()
    app.save()
    if kind == Kind.TRANSFER:
        _open_clock(rule="FRA-5", target=app, franchise=franchise, start=received_on, due=app.decision_due,
                    label=f"Decidir la transferencia de la franquicia {franchise.number}",
                    start_event=f"recibo de la solicitud el {received_on:%d/%m/%Y}", actor=actor)
    if kind == Kind.RENEWAL:  # FRA-7's clock is met by the filing: MET in time, MISSED when late
        _meet_clock(rule="FRA-7", target=franchise, on=received_on, actor=actor, start=franchise.expiry_date)
    audit(actor=actor, action="application.file", target=app, summary=f"{app.get_kind_display()} {franchise.number}",
          data={"kind": kind, "received_on": received_on.isoformat(), "fee": str(app.fee),
                "decision_due": app.decision_due.isoformat() if app.decision_due else None,
                "filed_late": app.filed_late})
    return app


@transaction.atomic
def application_review(*, actor, application: Application, documents: dict, fee_paid: bool, controversy: bool,
                       changes_conditions: bool) -> Application:
    """Record the checklist and the facts the decision turns on; the file is now under review."""
    app = Application.objects.select_for_update().get(pk=application.pk)
    if not app.is_open:
        raise ValidationError({"status": _("La solicitud ya fue decidida.")})
    app.documents = {code: bool(documents.get(code)) for code in app.required_documents}
    app.fee_paid, app.controversy, app.changes_conditions = fee_paid, controversy, changes_conditions
    if app.status == Status.RECEIVED:
        app.status = Status.UNDER_REVIEW
    app.save()
    audit(actor=actor, action="application.review", target=app, summary=str(app),
          data={"missing": list(app.missing_documents), "fee_paid": fee_paid, "controversy": controversy,
                "changes_conditions": changes_conditions})
    return app


def _require_complete(app: Application) -> None:
    errors = {}
    if app.missing_documents:
        errors["documents"] = _("Faltan documentos: %(documents)s.") % {
            "documents": "; ".join(str(rules.DOCUMENTS[c]) for c in app.missing_documents)}
    if app.fee > 0 and not app.fee_paid:
        errors["fee_paid"] = _("No se han pagado los derechos de presentación ($%(fee)s).") % {"fee": app.fee}
    if errors:
        raise ValidationError(errors)


def _hearing_held(app: Application) -> bool:
    return app.hearings.filter(accepted=True, held_on__isnull=False).exists()


def _apply_transfer(app: Application, franchise: Franchise, actor) -> dict:
    changes = {"holder": [franchise.holder_id, app.recipient_id],
               "holder_type": [franchise.holder_type, app.recipient_type or franchise.holder_type]}
    franchise.holder = app.recipient
    franchise.holder_type = app.recipient_type or franchise.holder_type
    franchise_save(actor=actor, instance=franchise, action="franchise.transfer")
    return changes


def _apply_amendment(app: Application, franchise: Franchise, actor) -> dict:
    changes = {}
    if app.requested_gallons is not None:
        changes["authorized_gallons"] = [franchise.authorized_gallons, app.requested_gallons]
        franchise.authorized_gallons = app.requested_gallons
    if app.requested_expiry_date is not None:
        changes["expiry_date"] = [franchise.expiry_date.isoformat(), app.requested_expiry_date.isoformat()]
        franchise.expiry_date = app.requested_expiry_date
    if app.requested_conditions.strip():
        changes["special_conditions"] = [franchise.special_conditions, app.requested_conditions]
        franchise.special_conditions = app.requested_conditions
    franchise_save(actor=actor, instance=franchise, action="franchise.amend")  # FRA-6: 10 years at most
    return changes


def _apply_renewal(app: Application, franchise: Franchise, actor) -> dict:
    changes = {"expiry_date": [franchise.expiry_date.isoformat(), app.requested_expiry_date.isoformat()]}
    franchise.expiry_date = app.requested_expiry_date
    if app.requested_conditions.strip():  # FRA-7: special conditions may change at renewal
        changes["special_conditions"] = [franchise.special_conditions, app.requested_conditions]
        franchise.special_conditions = app.requested_conditions
    franchise_save(actor=actor, instance=franchise, action="franchise.renew")
    return changes


def _new_franchise_from_renewal(app: Application, franchise: Franchise, actor, decided_on: date,
                                new_number: str) -> Franchise:
    """FRA-7: over 10 years the renewal is a new franchise, its own 10-year term, linked to the old."""
    issue = max(decided_on, franchise.expiry_date + timedelta(days=1))
    new = Franchise(
        number=new_number or _next_number(issue.year), holder=franchise.holder, holder_type=franchise.holder_type,
        property_parcel=franchise.property_parcel, property_owner=franchise.property_owner,
        source=franchise.source, use=franchise.use,
        authorized_gallons=app.requested_gallons or franchise.authorized_gallons,
        original_issue_date=issue, issue_date=issue, expiry_date=app.requested_expiry_date,
        payment_plan=franchise.payment_plan,
        special_conditions=app.requested_conditions.strip() or franchise.special_conditions,
        exemption=franchise.exemption, exemption_basis=franchise.exemption_basis,
        exemption_resolution=franchise.exemption_resolution, acquired_right=franchise.acquired_right,
        predecessor=franchise, office=franchise.office)
    return franchise_save(actor=actor, instance=new, action="franchise.new_from_renewal")


def _record_notification(app: Application, notified_on: date, method: str, tracking_number: str, actor) -> None:
    """The determination is notified: FRA-11's 30 days for a hearing request start (a work-queue clock)."""
    if app.determination_date and notified_on < app.determination_date:
        raise ValidationError({"notified_on": _("La notificación no puede ser anterior a la determinación.")})
    app.notified_on, app.notification_method, app.tracking_number = notified_on, method, tracking_number
    app.hearing_request_due = selectors.deadline("FRA-11", notified_on).due
    _open_clock(rule="FRA-11", target=app, franchise=app.franchise, start=notified_on, due=app.hearing_request_due,
                label=f"Plazo para solicitar vista: {app.get_kind_display().lower()} {app.franchise.number}",
                start_event=f"notificación de la determinación el {notified_on:%d/%m/%Y}", actor=actor)


@transaction.atomic
def application_decide(*, actor, application: Application, decided_on: date, grant: bool, determination: str = "",
                       outstanding_debt: Decimal | None = None, debt_source: str = "", new_number: str = "",
                       notified_on: date | None = None, notification_method: str = "",
                       tracking_number: str = "") -> Application:
    """Decide an application; the statute turns some requests to grant into other outcomes.

    - transfer (FRA-5): a change of conditions → SENT_TO_AMENDMENT; controversy → HEARING until a
      hearing has been held; over an acquired right not yet transferred → DENIED;
    - renewal (FRA-7): `outstanding_debt` (the caller's figure: billing's provider, or what staff
      checked in the account) is required; any debt → DENIED; over 10 years with the earlier
      franchises → PROCESSED_AS_NEW, creating the new franchise linked by `predecessor`;
    - amendment (FRA-6): applied, never past 10 years from the original issue;
    - cancellation (FRA-9): once verified, the franchise is CANCELLED.
    Granting needs the required documents and the paid fee.
    """
    app = Application.objects.select_for_update().select_related("franchise").get(pk=application.pk)
    franchise = Franchise.objects.select_for_update().get(pk=app.franchise_id)
    app.franchise = franchise
    if not app.is_open:
        raise ValidationError({"status": _("La solicitud ya fue decidida (%(status)s).") % {
            "status": app.get_status_display()}})
    if decided_on < app.received_on:
        raise ValidationError({"decided_on": _("La determinación no puede ser anterior al recibo de la solicitud.")})
    text = determination.strip()
    if not grant and not text:
        raise ValidationError({"determination": _("Explique los fundamentos de la denegación.")})
    if app.kind == Kind.RENEWAL and outstanding_debt is None:
        raise ValidationError({"outstanding_debt": _("Verifique la deuda por uso de agua antes de decidir una "
                                                     "renovación (FRA-7): indique el monto, 0.00 si no hay.")})
    if outstanding_debt is not None and outstanding_debt < 0:
        raise ValidationError({"outstanding_debt": _("La deuda no puede ser negativa.")})

    if not grant:
        outcome = rules.Outcome(Status.DENIED, "", "")
    elif app.kind == Kind.TRANSFER:
        outcome = rules.transfer_outcome(
            controversy=app.controversy, changes_conditions=app.changes_conditions,
            acquired_right=franchise.acquired_right,
            acquired_right_transferred=bool(app.documents.get("ACQUIRED_RIGHT_TRANSFERRED")),
            hearing_held=_hearing_held(app))
    elif app.kind == Kind.RENEWAL:
        outcome = rules.renewal_outcome(outstanding_debt=outstanding_debt,
                                        original_issue_date=franchise.term_start,
                                        requested_expiry=app.requested_expiry_date)
    else:
        outcome = rules.Outcome(Status.GRANTED, "", "FRA-6" if app.kind == Kind.AMENDMENT else "FRA-9")

    if grant:
        # What the person chose is what is recorded: a request to grant that the statute does not allow
        # (documents missing, fee unpaid, a debt, an acquired right not yet transferred) is refused with
        # the reasons, never turned into a denial under a text that says it is granted.
        _require_complete(app)
        if outcome.status == Status.DENIED:
            reason = outcome.reason
            if outcome.rule == "FRA-7":
                reason = _("existe deuda por uso de las aguas ($%(debt)s): la franquicia no se renueva (FRA-7, "
                           "sec. 8.18).") % {"debt": f"{outstanding_debt:,.2f}"}
            raise ValidationError({"grant": _("No se puede conceder: %(reason)s Para denegarla, elija «Denegar» y "
                                              "explique los fundamentos.") % {"reason": reason}})

    changes: dict = {}
    gallons_before, expiry_before = franchise.authorized_gallons, franchise.expiry_date
    if outcome.status in (Status.GRANTED, Status.PROCESSED_AS_NEW):
        if franchise.status != Franchise.Status.ACTIVE and app.kind != Kind.CANCELLATION:
            raise ValidationError({"franchise": _("La franquicia está %(status)s.") % {
                "status": franchise.get_status_display().lower()}})
        if app.kind == Kind.TRANSFER:
            changes = _apply_transfer(app, franchise, actor)
        elif app.kind == Kind.AMENDMENT:
            changes = _apply_amendment(app, franchise, actor)
        elif app.kind == Kind.RENEWAL and outcome.status == Status.GRANTED:
            changes = _apply_renewal(app, franchise, actor)
        elif app.kind == Kind.RENEWAL:
            new = _new_franchise_from_renewal(app, franchise, actor, decided_on, new_number)
            app.resulting_franchise = new
            changes = {"new_franchise": new.number}
        elif app.kind == Kind.CANCELLATION:
            changes = {"status": [franchise.status, Franchise.Status.CANCELLED]}
            franchise.status = Franchise.Status.CANCELLED
            franchise_save(actor=actor, instance=franchise, action="franchise.cancel")

    if outcome.status == Status.HEARING:
        if not app.hearings.filter(origin=Hearing.Origin.CONTROVERSY, held_on__isnull=True).exists():
            Hearing.objects.create(application=app, origin=Hearing.Origin.CONTROVERSY, requested_on=decided_on,
                                   accepted=True)
    else:
        app.determination_date = decided_on
        app.determination = "\n".join(p for p in (text, outcome.reason) if p) or "Concedida."
        app.decided_by = actor if getattr(actor, "is_authenticated", False) else None
    app.status = outcome.status
    if app.kind in (Kind.AMENDMENT, Kind.RENEWAL) and outcome.status == Status.GRANTED:
        # FRA-3 Decision: the years already invoiced are billed or credited pro rata from the
        # decision (new charges; the invoices stay as issued). Imported here: billing depends on
        # the registry, not the other way round.
        from assessments.franchise_billing.services import franchise_terms_corrections
        corrections = franchise_terms_corrections(franchise=franchise, effective_on=decided_on,
                                                  gallons_before=gallons_before, expiry_before=expiry_before,
                                                  actor=actor, application=app)
        if corrections:
            changes["billing"] = [{"kind": c.kind, "fiscal_year": c.fiscal_year, "cause": c.cause,
                                   "amount": str(c.amount)} for c in corrections]
    app.applied_changes = changes
    if outstanding_debt is not None:
        app.outstanding_debt, app.debt_source = outstanding_debt, (debt_source or "staff")[:60]
    if notified_on is not None and app.determination_date:
        _record_notification(app, notified_on, notification_method, tracking_number, actor)
    app.save()
    if app.kind == Kind.TRANSFER:  # the Secretary acted (decided, or found a hearing is needed)
        _meet_clock(rule="FRA-5", target=app, on=decided_on, actor=actor)
    audit(actor=actor, action="application.decide", target=app,
          summary=f"{app.get_kind_display()} {franchise.number}: {app.get_status_display()}",
          data={"grant_requested": grant, "status": app.status, "rule": outcome.rule, "reason": outcome.reason,
                "changes": changes, "outstanding_debt": str(outstanding_debt) if outstanding_debt is not None else None,
                "debt_source": app.debt_source})
    return app


APPLICANT, TRANSFEREE = "APPLICANT", "TRANSFEREE"


@transaction.atomic
def application_notify(*, actor, application: Application, notified_on: date, method: str,
                       tracking_number: str = "", to: str = APPLICANT) -> Application:
    """Record how and when the determination was notified; FRA-11's 30 days start here.

    FRA-5 (sec. 8.16): "El Secretario notificará su determinación por escrito al solicitante y a la
    persona que se le transfiere la franquicia": a transfer's determination is notified to each
    (`to`: APPLICANT or TRANSFEREE), and each notification of a transfer issues the written
    determination as a document addressed to that person.
    """
    app = Application.objects.select_for_update(of=("self",)).select_related(
        "franchise", "applicant", "recipient").get(pk=application.pk)
    errors = {}
    if not app.determination_date:
        errors["notified_on"] = _("La solicitud aún no tiene determinación que notificar.")
    elif notified_on < app.determination_date:
        errors["notified_on"] = _("La notificación no puede ser anterior a la determinación.")
    if method not in Application.NotificationMethod.values:
        errors["method"] = _("Medio de notificación desconocido.")
    elif method == Application.NotificationMethod.CERTIFIED_MAIL and not tracking_number.strip():
        errors["tracking_number"] = _("El correo certificado lleva número de rastreo.")
    if to not in (APPLICANT, TRANSFEREE):
        errors["to"] = _("Destinatario: el solicitante o quien recibe la transferencia.")
    elif to == TRANSFEREE and (app.kind != Kind.TRANSFER or app.recipient_id is None):
        errors["to"] = _("Solo una transferencia se notifica también a quien la recibe (sec. 8.16).")
    if errors:
        raise ValidationError(errors)
    tracking = tracking_number.strip()
    if to == TRANSFEREE:
        app.recipient_notified_on, app.recipient_notification_method = notified_on, method
        app.recipient_tracking_number = tracking
    else:
        _record_notification(app, notified_on, method, tracking, actor)
    app.save()
    if app.kind == Kind.TRANSFER:
        _determination_letter(app, to, notified_on, method, tracking, actor)
    audit(actor=actor, action="application.notify", target=app, summary=str(app),
          data={"to": to, "notified_on": notified_on.isoformat(), "method": method, "tracking_number": tracking,
                "hearing_request_due": app.hearing_request_due.isoformat() if app.hearing_request_due else None})
    return app


def _determination_letter(app: Application, to: str, notified_on: date, method: str, tracking: str, actor):
    """FRA-5: the written determination, addressed to the applicant or to the transferee (office's language)."""
    from core.documents.services import document_render

    party = app.recipient if to == TRANSFEREE else app.applicant
    with translation.override(settings.LANGUAGE_CODE):
        how = Application.NotificationMethod(method).label + (f", {tracking}" if tracking else "")
        context = {
            "office": app.franchise.office, "recipient": party,
            "references": [(_("Franquicia"), app.franchise.number), (_("Solicitud"), f"#{app.pk}"),
                           (_("Notificación"), f"{notified_on:%d/%m/%Y} · {how}")],
            "subject": _("Determinación sobre la transferencia de la franquicia %(n)s (sec. 8.16)") % {
                "n": app.franchise.number},
            "paragraphs": [
                _("Determinación del %(d)s: %(s)s.") % {"d": f"{app.determination_date:%d/%m/%Y}",
                                                          "s": app.get_status_display().lower()},
                app.determination,
                _("Se notifica por escrito al solicitante y a la persona que se le transfiere la franquicia. Quien "
                  "resulte adversamente afectado puede solicitar por escrito una vista administrativa dentro de los "
                  "30 días de esta notificación (sec. 8.22)."),
            ],
        }
        title = (f"Determinación sec. 8.16 al {'cesionario' if to == TRANSFEREE else 'solicitante'} — franquicia "
                 f"{app.franchise.number} — solicitud {app.pk}")[:200]
        return document_render(template_name="documents/letter.html", context=context, kind="LETTER", title=title,
                               owner_party_ids=[party.pk], related=app, actor=actor,
                               language=settings.LANGUAGE_CODE)


# --- Hearings (FRA-5, FRA-8, FRA-11) ------------------------------------------------------------------


@transaction.atomic
def hearing_request(*, actor=None, application_or_proceeding: Application | Proceeding, requested_on: date,
                    notified_on: date, requested_by: Party | None = None) -> Hearing:
    """FRA-11 (sec. 8.22): a written request within 30 days of the notification, the term moved
    forward past weekends and holidays. A late request is recorded as refused, with its due date."""
    subject = application_or_proceeding
    due = selectors.deadline("FRA-11", notified_on).due
    accepted = requested_on <= due
    hearing = Hearing(origin=Hearing.Origin.PARTY_REQUEST, requested_on=requested_on, requested_by=requested_by,
                      notified_on=notified_on, due_on=due, accepted=accepted)
    if isinstance(subject, Application):
        hearing.application = subject
    else:
        hearing.proceeding = subject
    if not accepted:
        hearing.refused_reason = (
            f"Solicitada el {requested_on:%d/%m/%Y}, fuera del término de 30 días desde la notificación del "
            f"{notified_on:%d/%m/%Y}: vencía el {due:%d/%m/%Y} (FRA-11, sec. 8.22).")
    hearing.full_clean()
    hearing.save()
    _meet_clock(rule="FRA-11", target=subject, on=requested_on, actor=actor, start=notified_on)
    if accepted and isinstance(subject, Application) and subject.status in (Status.DENIED, Status.SENT_TO_AMENDMENT):
        Application.objects.filter(pk=subject.pk).update(status=Status.HEARING)
        subject.status = Status.HEARING
    audit(actor=actor, action="hearing.request", target=hearing, summary=str(hearing),
          data={"accepted": accepted, "due": due.isoformat(), "requested_on": requested_on.isoformat()})
    return hearing


@transaction.atomic
def hearing_schedule(*, actor, hearing: Hearing, scheduled_for) -> Hearing:
    if not hearing.accepted:
        raise ValidationError({"scheduled_for": _("No se señala una vista rechazada.")})
    hearing.scheduled_for = scheduled_for
    hearing.save()
    audit(actor=actor, action="hearing.schedule", target=hearing, summary=str(hearing),
          data={"scheduled_for": scheduled_for.isoformat()})
    return hearing


@transaction.atomic
def hearing_record_held(*, actor, hearing: Hearing, held_on: date, summary: str = "") -> Hearing:
    if not hearing.accepted:
        raise ValidationError({"held_on": _("La vista fue rechazada.")})
    if held_on < hearing.requested_on:
        raise ValidationError({"held_on": _("La vista no puede celebrarse antes de solicitarse.")})
    hearing.held_on, hearing.summary = held_on, summary
    hearing.save()
    audit(actor=actor, action="hearing.held", target=hearing, summary=str(hearing),
          data={"held_on": held_on.isoformat()})
    return hearing


# --- Enforcement (FRA-8, FRA-10) -----------------------------------------------------------------------


@transaction.atomic
def proceeding_open(*, actor, franchise: Franchise, cause: str, opened_on: date, detail: str = "",
                    cease_and_desist: bool = False) -> Proceeding:
    """Open a proceeding to modify, suspend or revoke (FRA-8) or to declare prescription (FRA-10).
    A cease-and-desist order may precede the hearing."""
    if franchise.status not in (Franchise.Status.ACTIVE, Franchise.Status.SUSPENDED):
        raise ValidationError({"franchise": _("La franquicia está %(status)s.") % {
            "status": franchise.get_status_display().lower()}})
    p = Proceeding(franchise=franchise, cause=cause, opened_on=opened_on, detail=detail,
                   opened_by=actor if getattr(actor, "is_authenticated", False) else None,
                   cease_and_desist=cease_and_desist, cease_and_desist_on=opened_on if cease_and_desist else None)
    p.full_clean()
    p.save()
    audit(actor=actor, action="proceeding.open", target=p, summary=str(p),
          data={"cause": cause, "cease_and_desist": cease_and_desist})
    return p


SEC_8_19 = ("Se notificará de ésta al tenedor de la franquicia y al dueño de la propiedad mediante correo "
            "certificado con acuse de recibo.")


def _letter_title(proceeding: Proceeding, recipient: str, tracking: str) -> str:
    # Shown on the public verification page: the franchise and the tracking number, never a name.
    who = "tenedor" if recipient == "HOLDER" else "dueño de la propiedad"
    return f"Aviso sec. 8.19 al {who} — franquicia {proceeding.franchise.number} — rastreo {tracking}"[:200]


def _proceeding_letter(proceeding: Proceeding, recipient: str, sent_on: date, tracking: str, actor):
    """FRA-8 (sec. 8.19): the notice itself, a document addressed to the holder or to the property
    owner, stating the cause and the right to a hearing, sent by certified mail with return receipt.
    Written in the office's language (the document's), whoever records the mailing."""
    with translation.override(settings.LANGUAGE_CODE):
        return _proceeding_letter_render(proceeding, recipient, sent_on, tracking, actor)


def _proceeding_letter_render(proceeding: Proceeding, recipient: str, sent_on: date, tracking: str, actor):
    from core.documents.services import document_render

    f = proceeding.franchise
    party = f.holder if recipient == "HOLDER" else f.owner_of_record
    cease = (_(" Se emitió una orden de cese y desista el %(d)s.") % {"d": f"{proceeding.cease_and_desist_on:%d/%m/%Y}"}
             if proceeding.cease_and_desist and proceeding.cease_and_desist_on else "")
    context = {
        "office": f.office, "recipient": party,
        "references": [(_("Franquicia"), f.number), (_("Procedimiento"), f"#{proceeding.pk}"),
                       (_("Envío"), _("Correo certificado con acuse de recibo, rastreo %(t)s") % {"t": tracking}),
                       (_("Fecha de envío"), f"{sent_on:%d/%m/%Y}")],
        "subject": _("Procedimiento para modificar, suspender o revocar la franquicia %(n)s (sec. 8.19)") % {
            "n": f.number},
        "paragraphs": [
            _("El Departamento inició el %(d)s un procedimiento sobre la franquicia %(n)s por la causa siguiente: "
              "%(c)s.") % {"d": f"{proceeding.opened_on:%d/%m/%Y}", "n": f.number,
                           "c": proceeding.get_cause_display().lower()} + cease,
            (proceeding.detail or "").strip(),
            _("El tenedor de la franquicia tiene derecho a una vista administrativa antes de la modificación, "
              "suspensión o revocación (sec. 8.19 y Artículo 13)."),
            _("Este aviso se envía al tenedor de la franquicia y al dueño de la propiedad."),
        ],
        "legal": _("Reglamento para el Aprovechamiento, Uso, Conservación y Administración de las Aguas de Puerto "
                   "Rico, sec. 8.19: «%(t)s»") % {"t": SEC_8_19},
    }
    context["paragraphs"] = [p for p in context["paragraphs"] if p]
    return document_render(template_name="documents/letter.html", context=context, kind="LETTER",
                           title=_letter_title(proceeding, recipient, tracking), owner_party_ids=[party.pk],
                           related=proceeding, actor=actor, language=settings.LANGUAGE_CODE)


@transaction.atomic
def proceeding_notice(*, actor, proceeding: Proceeding, recipient: str, sent_on: date, tracking_number: str,
                      delivered_on: date | None = None) -> Proceeding:
    """FRA-8: notice to the holder and to the property owner by certified mail with return receipt.
    The first record of a mailing issues the notice itself as a document addressed to that person
    (recording the return receipt later issues nothing new)."""
    if recipient not in ("HOLDER", "OWNER"):
        raise ValidationError({"recipient": _("Destinatario: HOLDER o OWNER.")})
    if not tracking_number.strip():
        raise ValidationError({"tracking_number": _("El correo certificado lleva número de rastreo.")})
    if delivered_on and delivered_on < sent_on:
        raise ValidationError({"delivered_on": _("El acuse no puede ser anterior al envío.")})
    prefix = "holder" if recipient == "HOLDER" else "owner"
    if not selectors.proceeding_letters(proceeding).filter(title=_letter_title(proceeding, recipient,
                                                                                tracking_number.strip())).exists():
        _proceeding_letter(proceeding, recipient, sent_on, tracking_number.strip(), actor)
    setattr(proceeding, f"{prefix}_notice_sent_on", sent_on)
    setattr(proceeding, f"{prefix}_notice_tracking", tracking_number.strip())
    setattr(proceeding, f"{prefix}_notice_delivered_on", delivered_on)
    proceeding.save()
    audit(actor=actor, action="proceeding.notice", target=proceeding, summary=str(proceeding),
          data={"recipient": recipient, "sent_on": sent_on.isoformat(), "tracking_number": tracking_number,
                "delivered_on": delivered_on.isoformat() if delivered_on else None})
    return proceeding


OUTCOME_STATUS = {
    Proceeding.Outcome.SUSPENDED: Franchise.Status.SUSPENDED,
    Proceeding.Outcome.REVOKED: Franchise.Status.REVOKED,
    Proceeding.Outcome.EXTINGUISHED: Franchise.Status.EXTINGUISHED,
}


@transaction.atomic
def proceeding_decide(*, actor, proceeding: Proceeding, outcome: str, decided_on: date, text: str,
                      hearing_waived: bool = False) -> Proceeding:
    """FRA-8: modify, suspend or revoke only after notice to the holder and the property owner and
    a hearing (held, or waived by the holder); FRA-10: extinguish for non-use."""
    p = Proceeding.objects.select_for_update().select_related("franchise").get(pk=proceeding.pk)
    if not p.is_open:
        raise ValidationError({"outcome": _("El procedimiento ya fue resuelto.")})
    if outcome not in Proceeding.Outcome.values:
        raise ValidationError({"outcome": _("Resultado desconocido: %(outcome)r.") % {"outcome": outcome}})
    if not text.strip():
        raise ValidationError({"text": _("Escriba la resolución.")})
    if outcome == Proceeding.Outcome.EXTINGUISHED and p.cause != Proceeding.Cause.NON_USE:
        raise ValidationError({"outcome": _("Solo el desuso (FRA-10) extingue la franquicia.")})
    if outcome != Proceeding.Outcome.NONE:
        errors = {}
        franchise = p.franchise
        if not p.holder_notice_sent_on:
            errors["holder_notice_sent_on"] = _("Falta el aviso al tenedor por correo certificado (sec. 8.19).")
        if franchise.property_owner_id and franchise.property_owner_id != franchise.holder_id \
                and not p.owner_notice_sent_on:
            errors["owner_notice_sent_on"] = _("Falta el aviso al dueño de la propiedad por correo certificado "
                                                "(sec. 8.19).")
        held = p.hearings.filter(accepted=True, held_on__isnull=False).exists()
        if not held and not hearing_waived:
            errors["hearing"] = _("El tenedor tiene derecho a una vista previa (sec. 8.19): celébrela o registre "
                                   "la renuncia.")
        if errors:
            raise ValidationError(errors)
    p.outcome, p.outcome_on, p.outcome_text = outcome, decided_on, text.strip()
    p.decided_by = actor if getattr(actor, "is_authenticated", False) else None
    p.save()
    if outcome in OUTCOME_STATUS:
        franchise = p.franchise
        franchise.status = OUTCOME_STATUS[outcome]
        franchise_save(actor=actor, instance=franchise, action=f"franchise.{outcome.lower()}")
    audit(actor=actor, action="proceeding.decide", target=p, summary=str(p),
          data={"outcome": outcome, "hearing_waived": hearing_waived})
    return p


# --- Daily flags (FRA-7, FRA-10; FRA-8 when billing supplies the due dates) ---------------------------


@transaction.atomic
def franchise_flags_record(*, today: date, actor=None, oldest_unpaid_due: dict[int, date] | None = None) -> dict:
    """Raise in core's work queue the flags that hold on `today`; resolve those that no longer do.

    One open flag per kind and franchise (core.workqueue.flag_raise): running twice changes
    nothing. FRA-8 is evaluated only when billing passes each franchise's oldest unpaid due date
    ({franchise id: date}); until then its flags are neither raised nor resolved here.
    """
    current = selectors.franchise_flags(today, oldest_unpaid_due=oldest_unpaid_due)
    computed = {"FRA-7", "FRA-10"} | ({"FRA-8"} if oldest_unpaid_due is not None else set())
    severity = {"FRA-7": Flag.Severity.MEDIUM, "FRA-8": Flag.Severity.HIGH, "FRA-10": Flag.Severity.HIGH}
    ct = ContentType.objects.get_for_model(Franchise)
    keep, raised = set(), 0
    for fl in current:
        already = Flag.objects.filter(kind=fl.kind, content_type=ct, object_id=fl.franchise.pk,
                                      resolved_on__isnull=True).exists()
        flag = workqueue.flag_raise(kind=fl.kind, target=fl.franchise, description=fl.detail, rule=fl.code,
                                    severity=severity[fl.code], opened_on=today, actor=actor)
        raised += 0 if already else 1
        keep.add(flag.pk)
    stale = (Flag.objects.filter(content_type=ct, resolved_on__isnull=True,
                                 kind__in=[selectors.FLAG_KINDS[c] for c in computed])
             .exclude(pk__in=keep))
    resolved = 0
    for flag in stale:
        workqueue.flag_resolve(flag=flag, actor=actor, on=today,
                               resolution=f"Ya no aplica al {today:%d/%m/%Y} (revisión diaria de franquicias).")
        resolved += 1
    book = selectors.DeadlineBook()
    for f in Franchise.objects.filter(status=Franchise.Status.ACTIVE).select_related("office"):
        _refresh_clocks(f, today, actor=actor, book=book)
    return {"raised": raised, "resolved": resolved, "open": len(keep)}
