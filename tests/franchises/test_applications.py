"""Applications: transfer (FRA-5), amendment (FRA-6), renewal (FRA-7), cancellation (FRA-9)."""
from datetime import date
from decimal import Decimal

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError

from core.models import AuditEntry, Clock
from franchises import rules, selectors, services
from franchises.models import Application, Franchise, Hearing
from tests.franchises.conftest import ALL_TRANSFER_DOCS

D = date.fromisoformat
T, A, R, C = "TRANSFER", "AMENDMENT", "RENEWAL", "CANCELLATION"


def file(franchise, kind, actor=None, **kw):
    kw.setdefault("received_on", D("2026-10-27"))
    return services.application_file(actor=actor, franchise=franchise, kind=kind, **kw)


def transfer(franchise, recipient, **kw):
    kw.setdefault("documents", ALL_TRANSFER_DOCS)
    kw.setdefault("fee_paid", True)
    return file(franchise, T, recipient=recipient, **kw)


def decide(app, grant=True, on="2026-11-10", **kw):
    return services.application_decide(actor=kw.pop("actor", None), application=app, decided_on=D(on), grant=grant,
                                       **kw)


def clocks(rule, target):
    return Clock.objects.filter(rule=rule, content_type=ContentType.objects.get_for_model(target), object_id=target.pk)


# --- Transfer (FRA-5) ----------------------------------------------------------------------------------


def test_transfer_filing_sets_fee_checklist_and_the_decision_clock(make_franchise, recipient):
    f = make_franchise()
    app = transfer(f, recipient, received_on=D("2026-10-27"))
    assert app.fee == Decimal("50.00")
    assert app.recipient_type == "PERSON"
    assert app.required_documents == ("FRANCHISE_NUMBER", "HOLDER_NAME", "RECIPIENT_NAME", "REASONS_EVIDENCE",
                                      "OWNER_CONSENT", "SIGNATURES_BOTH")
    assert app.missing_documents == ()
    # Received Oct 27 + 30 days = Thanksgiving (Nov 26, 2026): moved to Friday Nov 27.
    assert app.decision_due == D("2026-11-27")
    clock = clocks("FRA-5", app).get()
    assert (clock.start_date, clock.due_date, clock.status) == (D("2026-10-27"), D("2026-11-27"), "OPEN")


def test_company_recipient_needs_incorporation_and_representative(make_franchise, company):
    app = transfer(make_franchise(), company)
    assert app.recipient_type == "COMPANY"
    assert set(app.missing_documents) == {"INCORPORATION_OR_GOOD_STANDING", "REPRESENTATIVE_NAME_POSITION"}
    other = rules.required_documents(T, recipient_type="OTHER_BODY")
    assert other[-1] == "MEMBERS_RESOLUTION_AFFIDAVIT"


def test_transfer_without_controversy_or_change_is_granted(make_franchise, recipient, staff_user):
    f = make_franchise()
    app = transfer(f, recipient)
    app = decide(app, actor=staff_user)
    f.refresh_from_db()
    assert app.status == "GRANTED"
    assert f.holder == recipient
    assert app.applied_changes["holder"] == [app.applicant_id, recipient.pk]
    assert app.decided_by == staff_user and app.determination_date == D("2026-11-10")
    assert clocks("FRA-5", app).get().status == "MET"
    assert AuditEntry.objects.filter(action="application.decide", actor=staff_user).exists()


def test_transfer_with_changed_conditions_is_sent_to_amendment(make_franchise, recipient, holder):
    f = make_franchise()
    app = decide(transfer(f, recipient, changes_conditions=True))
    f.refresh_from_db()
    assert app.status == "SENT_TO_AMENDMENT"
    assert "enmienda" in app.determination
    assert f.holder == holder


def test_transfer_with_controversy_goes_to_hearing_then_granted_after_it(make_franchise, recipient, holder):
    f = make_franchise()
    app = decide(transfer(f, recipient, controversy=True))
    f.refresh_from_db()
    assert app.status == "HEARING" and f.holder == holder
    assert app.determination_date is None
    hearing = app.hearings.get()
    assert (hearing.origin, hearing.accepted) == (Hearing.Origin.CONTROVERSY, True)

    again = decide(app, on="2026-11-12")  # still no hearing held: stays in hearing, no second hearing
    assert again.status == "HEARING" and again.hearings.count() == 1

    services.hearing_record_held(actor=None, hearing=hearing, held_on=D("2026-12-01"), summary="Sin oposición final.")
    done = decide(app, on="2026-12-10")
    f.refresh_from_db()
    assert done.status == "GRANTED" and f.holder == recipient


def test_transfer_over_acquired_right_refused_unless_the_right_went_first(make_franchise, recipient, holder):
    f = make_franchise(acquired_right=True)
    app = transfer(f, recipient)
    assert "ACQUIRED_RIGHT_TRANSFERRED" in app.required_documents
    app = services.application_review(actor=None, application=app, documents=ALL_TRANSFER_DOCS, fee_paid=True,
                                      controversy=False, changes_conditions=False)
    with pytest.raises(ValidationError) as exc:   # asked to grant: refused with the reason, not recorded denied
        decide(app)
    assert "derecho adquirido" in exc.value.message_dict["documents"][0]
    app.refresh_from_db()
    f.refresh_from_db()
    assert (app.status, app.determination, f.holder) == ("UNDER_REVIEW", "", holder)
    refused = decide(app, grant=False, determination="Falta la transferencia previa del derecho adquirido.")
    assert refused.status == "DENIED"

    second = transfer(f, recipient, documents={**ALL_TRANSFER_DOCS, "ACQUIRED_RIGHT_TRANSFERRED": True})
    assert decide(second).status == "GRANTED"


@pytest.mark.parametrize(("docs", "fee_paid", "field"), [
    ({k: v for k, v in ALL_TRANSFER_DOCS.items() if k != "OWNER_CONSENT"}, True, "documents"),
    (ALL_TRANSFER_DOCS, False, "fee_paid"),
])
def test_transfer_cannot_be_granted_incomplete_and_nothing_changes(make_franchise, recipient, holder, docs, fee_paid,
                                                                   field):
    f = make_franchise()
    app = transfer(f, recipient, documents=docs, fee_paid=fee_paid)
    with pytest.raises(ValidationError) as exc:
        decide(app)
    assert field in exc.value.message_dict
    app.refresh_from_db()
    f.refresh_from_db()
    assert (app.status, f.holder, app.determination_date) == ("RECEIVED", holder, None)


def test_transfer_filing_refuses_bad_input(make_franchise, holder):
    f = make_franchise()
    with pytest.raises(ValidationError) as exc:
        file(f, T)
    assert "recipient" in exc.value.message_dict
    with pytest.raises(ValidationError):
        file(f, T, recipient=holder)
    assert not Application.objects.exists()


def test_one_open_application_of_a_kind_at_a_time(make_franchise, recipient):
    f = make_franchise()
    transfer(f, recipient)
    with pytest.raises(ValidationError):
        transfer(f, recipient)


def test_denial_needs_reasons(make_franchise, recipient):
    app = transfer(make_franchise(), recipient)
    with pytest.raises(ValidationError):
        decide(app, grant=False)
    denied = decide(app, grant=False, determination="No se justifica por el interés público.")
    assert denied.status == "DENIED"
    with pytest.raises(ValidationError):  # decided once
        decide(denied)


# --- Amendment (FRA-6) ---------------------------------------------------------------------------------


def test_amendment_changes_volume_and_is_capped_at_ten_years(make_franchise):
    f = make_franchise(issue=D("2020-01-15"), expiry=D("2026-01-14"))
    app = file(f, A, received_on=D("2025-06-01"), requested_gallons=15_000_000, fee_paid=True,
               documents={"OFFICIAL_FORM": True, "SPECIFIC_CHANGES": True})
    assert app.fee == Decimal("50.00")
    granted = decide(app, on="2025-07-01")
    f.refresh_from_db()
    assert granted.status == "GRANTED" and f.authorized_gallons == 15_000_000

    too_long = file(f, A, received_on=D("2025-08-01"), requested_expiry_date=D("2030-01-16"), fee_paid=True,
                    documents={"OFFICIAL_FORM": True, "SPECIFIC_CHANGES": True})
    with pytest.raises(ValidationError) as exc:
        decide(too_long, on="2025-08-15")
    assert "10 años" in exc.value.message_dict["expiry_date"][0]
    f.refresh_from_db()
    too_long.refresh_from_db()
    assert f.expiry_date == D("2026-01-14") and too_long.status == "RECEIVED"

    ok = services.application_decide(actor=None, application=too_long, decided_on=D("2025-08-15"), grant=False,
                                     determination="Excede el término de 10 años.")
    assert ok.status == "DENIED"


# --- Renewal (FRA-7) -----------------------------------------------------------------------------------


def renewal(f, received="2027-10-01", expiry="2029-06-30", **kw):
    return file(f, R, received_on=D(received), requested_expiry_date=D(expiry),
                documents={"RENEWAL_APPLICATION": True}, **kw)


def test_renewal_refused_with_outstanding_debt(make_franchise):
    f = make_franchise(issue=D("2020-01-15"), expiry=D("2028-01-14"))
    app = renewal(f)
    assert app.fee == Decimal("0.00")
    with pytest.raises(ValidationError) as exc:  # the debt must be checked
        decide(app, on="2027-10-15")
    assert "outstanding_debt" in exc.value.message_dict
    with pytest.raises(ValidationError) as exc:   # asked to grant with a debt: refused, nothing recorded
        decide(app, on="2027-10-15", outstanding_debt=Decimal("125.40"))
    assert "deuda" in exc.value.message_dict["grant"][0] and "$125.40" in exc.value.message_dict["grant"][0]
    app.refresh_from_db()
    assert (app.status, app.determination_date) == ("RECEIVED", None)
    refused = decide(app, on="2027-10-15", outstanding_debt=Decimal("125.40"), grant=False,
                     determination="Existe deuda por uso de las aguas ($125.40) (FRA-7).")
    f.refresh_from_db()
    assert refused.status == "DENIED"
    assert "deuda" in refused.determination and "$125.40" in refused.determination
    assert refused.outstanding_debt == Decimal("125.40") and refused.debt_source == "staff"
    assert f.expiry_date == D("2028-01-14")


def test_renewal_within_ten_years_extends_the_franchise(make_franchise):
    f = make_franchise(issue=D("2020-01-15"), expiry=D("2028-01-14"))
    app = renewal(f, expiry="2030-01-15", requested_conditions="Informe trimestral de uso.")
    granted = decide(app, on="2027-10-15", outstanding_debt=Decimal("0.00"))
    f.refresh_from_db()
    assert granted.status == "GRANTED"
    assert (f.expiry_date, f.special_conditions) == (D("2030-01-15"), "Informe trimestral de uso.")
    assert granted.resulting_franchise is None


def test_renewal_over_ten_years_is_processed_as_a_new_franchise(make_franchise):
    f = make_franchise(number="DRNA-FE-2020-0042", issue=D("2020-01-15"), expiry=D("2028-01-14"))
    app = renewal(f, expiry="2033-01-14")  # 13 years from the original issue
    result = decide(app, on="2027-10-15", outstanding_debt=Decimal("0"))
    f.refresh_from_db()
    new = result.resulting_franchise
    assert result.status == "PROCESSED_AS_NEW"
    assert "franquicia nueva" in result.determination
    assert new.predecessor == f and new.number == "DRNA-FE-2028-0001"
    assert (new.issue_date, new.original_issue_date, new.expiry_date) == (D("2028-01-15"), D("2028-01-15"),
                                                                          D("2033-01-14"))
    assert (new.tariff_class, new.holder, new.source, new.use) == (f.tariff_class, f.holder, f.source, f.use)
    assert f.expiry_date == D("2028-01-14") and f.status == "ACTIVE"
    assert selectors.renewal_filed(f)


def test_renewal_counts_earlier_franchises_from_the_original_issue(make_franchise):
    f = make_franchise(original_issue_date=D("2017-01-15"), issue=D("2022-01-15"), expiry=D("2027-01-14"))
    app = renewal(f, received="2026-09-01", expiry="2027-06-30")  # 10 years from 2017-01-15 is 2027-01-15
    assert decide(app, on="2026-09-15", outstanding_debt=Decimal("0")).status == "PROCESSED_AS_NEW"


def test_renewal_filed_less_than_90_days_before_expiry_is_flagged(make_franchise):
    # Expiry 2027-02-27 (Saturday): 90 days before is Sunday 2026-11-29, moved back to Friday 2026-11-27.
    f = make_franchise(issue=D("2020-03-01"), expiry=D("2027-02-27"))
    on_time = renewal(f, received="2026-11-27", expiry="2029-06-30")
    assert (on_time.filing_deadline, on_time.filed_late) == (D("2026-11-27"), False)
    assert clocks("FRA-7", f).get(start_date=D("2027-02-27")).status == "MET"

    g = make_franchise(issue=D("2020-03-01"), expiry=D("2027-02-27"))
    late = renewal(g, received="2026-11-30", expiry="2029-06-30")
    assert (late.filing_deadline, late.filed_late) == (D("2026-11-27"), True)
    assert clocks("FRA-7", g).get(start_date=D("2027-02-27")).status == "MISSED"


# --- Cancellation (FRA-9) ------------------------------------------------------------------------------


def test_cancellation_needs_closure_evidence_then_cancels(make_franchise):
    f = make_franchise()
    app = file(f, C, permanent_closure=True,
               documents={"SECTION_2_14": True, "CLOSURE_LETTER": True, "OWNER_COPY_CERTIFIED_MAIL": True})
    assert app.missing_documents == ("SEALING_REPORT",)
    with pytest.raises(ValidationError):
        decide(app)
    app = services.application_review(actor=None, application=app,
                                      documents=dict.fromkeys(app.required_documents, True), fee_paid=False,
                                      controversy=False, changes_conditions=False)
    assert app.status == "UNDER_REVIEW"
    assert decide(app).status == "GRANTED"
    f.refresh_from_db()
    assert f.status == Franchise.Status.CANCELLED
    with pytest.raises(ValidationError):  # no more applications on a cancelled franchise
        file(f, A, requested_gallons=1)


def test_a_transfer_determination_is_notified_in_writing_to_the_applicant_and_the_transferee(
        make_franchise, recipient, staff_user, client):
    """Sec. 8.16: "El Secretario notificará su determinación por escrito al solicitante y a la persona
    que se le transfiere la franquicia." Each notification is recorded on its own and issues the
    written determination addressed to that person."""
    from tests.notices.conftest import pdf_text

    f = make_franchise()
    app = decide(transfer(f, recipient))
    assert app.status == "GRANTED" and app.notification_pending == ["APPLICANT", "TRANSFEREE"]
    app = services.application_notify(actor=None, application=app, notified_on=D("2026-11-12"),
                                      method="CERTIFIED_MAIL", tracking_number="9407 1", to="APPLICANT")
    app = services.application_notify(actor=None, application=app, notified_on=D("2026-11-13"),
                                      method="PERSONAL", to="TRANSFEREE")
    assert (app.notified_on, app.recipient_notified_on, app.recipient_notification_method) == (
        D("2026-11-12"), D("2026-11-13"), "PERSONAL")
    assert app.notification_pending == []
    letters = list(selectors.application_letters(app))
    assert len(letters) == 2
    applicant_text, transferee_text = (pdf_text(d) for d in letters)
    assert app.applicant.display_name in applicant_text and recipient.display_name in transferee_text
    assert "al solicitante y a la persona que se le transfiere la franquicia" in transferee_text
    with pytest.raises(ValidationError) as exc:
        services.application_notify(actor=None, application=decide(file(make_franchise(), R,
                                    requested_expiry_date=D("2029-06-30"), documents={"RENEWAL_APPLICATION": True}),
                                    outstanding_debt=Decimal("0")),
                                    notified_on=D("2026-11-12"), method="PERSONAL", to="TRANSFEREE")
    assert "to" in exc.value.message_dict
    client.force_login(staff_user)
    page = client.get(f"/franquicias/solicitudes/{app.pk}/").content.decode()
    assert "Notificada a quien recibe (sec. 8.16)" in page and "13/11/2026" in page
    form = client.get(f"/franquicias/solicitudes/{app.pk}/notificar/").content.decode()
    assert 'name="to"' in form
