"""Pure rules of the franchise registry: FRA-5 to FRA-11 (the water regulation, secs. 8.16-8.22;
docs/rules/franchises.md).

No ORM, no settings, no I/O. Services translate rows into these arguments and persist the
results. The tariff class (FRA-1) is derived by `assessments.rules.franchise.tariff_class`,
a pure function re-exported here: pure rule modules carry no Django models, so importing one
from a lower app does not break the layering (core.parameters does the same with
assessments.rules.parameters). Statutory day counts come from the DEADLINES engine
(`assessments.rules.deadlines`, also pure); the Django layer passes clocks and computed dates in.
"""
from __future__ import annotations

import calendar
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# FRA-1 / FRA-2: the one derivation of the class, shared with the tariff engine (see module doc).
from assessments.rules.deadlines import Clock, unmoved_due
from assessments.rules.franchise import EXEMPTIONS, PLANS, SOURCES, USES, tariff_class  # noqa: F401
from core.daycount import add_months

MAX_TERM_YEARS = 10  # sec. 8.12 via 8.17 and 8.18: validity with amendments and renewals
FEE = Decimal("50.00")  # secs. 8.16 (transfer) and 8.17 (amendment): "cincuenta dólares ($50.00)"
FEE_KINDS = frozenset({"TRANSFER", "AMENDMENT"})
ZERO = Decimal("0.00")


# --- FRA-6 / FRA-7: the 10-year validity --------------------------------------------------------

def max_expiry(original_issue_date: date) -> date:
    """FRA-6, FRA-7: the last expiry date a franchise (with amendments and renewals) may have.

    Reading: "no excederá el término de diez (10) años" from the original issue date, so the
    expiry may fall on the 10th anniversary itself (Feb 29 clamps to Feb 28).
    """
    return add_months(original_issue_date, 12 * MAX_TERM_YEARS)


def validity_errors(*, original_issue_date: date | None, issue_date: date | None,
                    expiry_date: date | None) -> dict[str, str]:
    """FRA-6: the franchise's dates, as field → message (Spanish, shown to staff)."""
    errors: dict[str, str] = {}
    if issue_date and expiry_date and expiry_date <= issue_date:
        errors["expiry_date"] = _("La fecha de vencimiento debe ser posterior a la de expedición.")
    if original_issue_date and issue_date and issue_date < original_issue_date:
        errors["original_issue_date"] = _("La expedición original no puede ser posterior a la "
                                          "expedición vigente.")
    if original_issue_date and original_issue_date.year > date.max.year - MAX_TERM_YEARS:  # no 10th anniversary
        errors["original_issue_date"] = _("La fecha %(date)s está fuera de rango.") % {
            "date": original_issue_date.isoformat()}
    elif original_issue_date and expiry_date and expiry_date > max_expiry(original_issue_date):
        errors["expiry_date"] = _(
            "La vigencia con sus enmiendas y renovaciones no puede exceder %(years)s años desde la "
            "expedición original (%(original)s): vence a más tardar el %(latest)s (FRA-6, sec. 8.17)."
        ) % {"years": MAX_TERM_YEARS, "original": original_issue_date.isoformat(),
             "latest": max_expiry(original_issue_date).isoformat()}
    return errors


# --- FRA-5, FRA-6, FRA-7, FRA-9: what an application must bring -----------------------------------

DOCUMENTS = {
    # FRA-5 (sec. 8.16)
    "FRANCHISE_NUMBER": gettext_lazy("Número de la franquicia"),
    "HOLDER_NAME": gettext_lazy("Nombre del tenedor"),
    "RECIPIENT_NAME": gettext_lazy("Nombre de quien recibe la franquicia"),
    "REASONS_EVIDENCE": gettext_lazy("Razones que fundamentan la solicitud y evidencia"),
    "OWNER_CONSENT": gettext_lazy("Consentimiento escrito del dueño de la propiedad"),
    "SIGNATURES_BOTH": gettext_lazy("Firmas de quien transfiere y de quien recibe"),
    "INCORPORATION_OR_GOOD_STANDING": gettext_lazy("Certificado de incorporación o de vigencia corporativa"),
    "REPRESENTATIVE_NAME_POSITION": gettext_lazy(
        "Nombre y puesto del representante (o contrato que acredita la representación)"),
    "MEMBERS_RESOLUTION_AFFIDAVIT": gettext_lazy(
        "Resolución de los miembros autorizando la solicitud, mediante afidávit"),
    "ACQUIRED_RIGHT_TRANSFERRED": gettext_lazy("Transferencia previa del derecho adquirido (sec. 6.14)"),
    # FRA-6 (sec. 8.17)
    "OFFICIAL_FORM": gettext_lazy("Formulario oficial"),
    "SPECIFIC_CHANGES": gettext_lazy("Cambios específicos que se solicitan"),
    # FRA-7 (sec. 8.18)
    "RENEWAL_APPLICATION": gettext_lazy("Solicitud de renovación con la información actualizada"),
    # FRA-9 (sec. 8.20)
    "SECTION_2_14": gettext_lazy("Cumplimiento de la sección 2.14"),
    "CLOSURE_LETTER": gettext_lazy("Carta indicando las acciones tomadas para cerrar el sistema de extracción"),
    "OWNER_COPY_CERTIFIED_MAIL": gettext_lazy(
        "Copia al dueño de la propiedad por correo certificado con acuse de recibo"),
    "SEALING_REPORT": gettext_lazy("Informe de terminación de obras del sellado (sec. 7.13)"),
}
KINDS = ("TRANSFER", "AMENDMENT", "RENEWAL", "CANCELLATION")
PARTY_TYPES = ("PERSON", "COMPANY", "OTHER_BODY")


def required_documents(kind: str, *, recipient_type: str | None = None, acquired_right: bool = False,
                       permanent_closure: bool = False) -> tuple[str, ...]:
    """FRA-5, FRA-6, FRA-7, FRA-9: the checklist of an application, in the statute's order."""
    if kind == "TRANSFER":
        docs = ["FRANCHISE_NUMBER", "HOLDER_NAME", "RECIPIENT_NAME", "REASONS_EVIDENCE", "OWNER_CONSENT",
                "SIGNATURES_BOTH"]
        if recipient_type == "COMPANY":
            docs += ["INCORPORATION_OR_GOOD_STANDING", "REPRESENTATIVE_NAME_POSITION"]
        elif recipient_type == "OTHER_BODY":
            docs += ["MEMBERS_RESOLUTION_AFFIDAVIT"]
        if acquired_right:
            docs.append("ACQUIRED_RIGHT_TRANSFERRED")
        return tuple(docs)
    if kind == "AMENDMENT":
        return ("OFFICIAL_FORM", "SPECIFIC_CHANGES")
    if kind == "RENEWAL":
        return ("RENEWAL_APPLICATION",)
    if kind == "CANCELLATION":
        docs = ["SECTION_2_14", "CLOSURE_LETTER", "OWNER_COPY_CERTIFIED_MAIL"]
        if permanent_closure:
            docs.append("SEALING_REPORT")
        return tuple(docs)
    raise ValueError(f"unknown application kind {kind!r}")


def missing_documents(required: Iterable[str], provided: Mapping[str, bool]) -> tuple[str, ...]:
    return tuple(code for code in required if not provided.get(code))


def application_fee(kind: str) -> Decimal:
    """FRA-5, FRA-6: $50 for filing a transfer or an amendment; nothing for the others."""
    return FEE if kind in FEE_KINDS else ZERO


# --- Decisions ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Outcome:
    status: str  # the application's status after the decision
    reason: str  # why, naming the rule; empty when granted plainly
    rule: str


def transfer_outcome(*, controversy: bool, changes_conditions: bool, acquired_right: bool,
                     acquired_right_transferred: bool, hearing_held: bool) -> Outcome:
    """FRA-5 (sec. 8.16): what a request to grant a transfer comes to.

    A change in the franchise's conditions needs an amendment (FRA-6) first; controversy or
    opposition needs a hearing (granted only once it has been held); a franchise over an
    acquired right needs the right itself transferred first (sec. 6.14).
    """
    if changes_conditions:
        return Outcome("SENT_TO_AMENDMENT", "La transferencia implica un cambio en las condiciones de la franquicia: "
                                            "debe solicitarse una enmienda (FRA-6, sec. 8.17).", "FRA-5")
    if controversy and not hearing_held:
        return Outcome("HEARING", "Existe controversia u oposición: se celebrará vista administrativa (sec. 8.16).",
                       "FRA-5")
    if acquired_right and not acquired_right_transferred:
        return Outcome("DENIED", "La franquicia recae sobre un derecho adquirido: debe transferirse primero el "
                                 "derecho adquirido (sec. 6.14).", "FRA-5")
    return Outcome("GRANTED", "", "FRA-5")


def renewal_outcome(*, outstanding_debt: Decimal, original_issue_date: date, requested_expiry: date) -> Outcome:
    """FRA-7 (sec. 8.18): refused while any debt for water use is outstanding; processed as a new
    franchise when the total term including earlier franchises would exceed 10 years."""
    if outstanding_debt > 0:
        return Outcome("DENIED", f"Existe deuda por concepto de uso de las aguas (${outstanding_debt:,.2f}): la "
                                 "franquicia no será renovada (FRA-7, sec. 8.18).", "FRA-7")
    if requested_expiry > max_expiry(original_issue_date):
        return Outcome("PROCESSED_AS_NEW", f"La renovación, con las franquicias anteriores, excede {MAX_TERM_YEARS} "
                                           "años: se tramita como franquicia nueva (FRA-7, sec. 8.18).", "FRA-7")
    return Outcome("GRANTED", "", "FRA-7")


# --- Clocks and flags --------------------------------------------------------------------------------

def month_end(month: date) -> date:
    return month.replace(day=calendar.monthrange(month.year, month.month)[1])


def last_use_day(*, used_months: Iterable[date], used_periods_end: Iterable[date], monitored: bool,
                 issue_date: date) -> date | None:
    """FRA-10: the last day with use of the authorized flow.

    A monthly reading with gallons > 0 counts as use up to the month's last day (a reading does
    not say which day); a usage report with use, or a justified non-use, counts up to its
    period's end. With readings or reports but no use in any of them, non-use runs from the
    issue date. With no readings or reports at all nothing is known: None (no flag).
    """
    candidates = [month_end(m) for m in used_months] + list(used_periods_end)
    if candidates:
        return max(candidates)
    return issue_date if monitored else None


def prescription_flag(last_use: date | None, today: date, clock: Clock) -> date | None:
    """FRA-10: the flag's date (last day with use + 12 calendar months, unmoved) once it is due."""
    if last_use is None:
        return None
    due = unmoved_due(clock, last_use)
    return due if due <= today else None


def renewal_flag(*, last_day_to_file: date, renewal_filed: bool, today: date) -> date | None:
    """FRA-7: flagged from the last day to file (expiry − 90 days, moved back to a business day by
    the DEADLINES engine) while no renewal has been filed for the current term; it stays raised
    past the expiry, until staff update the registry. Returns the last day to file, or None."""
    if renewal_filed:
        return None
    return last_day_to_file if today >= last_day_to_file else None


def arrears_flag(oldest_unpaid_due: date | None, today: date, clock: Clock) -> date | None:
    """FRA-8 (sec. 8.19): payments in arrears six months or more are a cause to modify, suspend or
    revoke. Given the oldest unpaid tariff due date (from billing), the flag's date (due + 6
    calendar months, unmoved) once reached, else None."""
    if oldest_unpaid_due is None:
        return None
    flagged_on = unmoved_due(clock, oldest_unpaid_due)
    return flagged_on if flagged_on <= today else None
