"""Roles are Django groups. Pages and endpoints check them through the helpers here."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

ADMINISTRATOR = "administrator"
STAFF = "staff"
CASHIER = "cashier"
APPROVER = "approver"
LEGAL_REVIEWER = "legal_reviewer"
AUDITOR = "auditor"
OWNER = "owner"

ROLE_LABELS = {
    ADMINISTRATOR: _("Administrador"),
    STAFF: _("Personal"),
    CASHIER: _("Cajero"),
    APPROVER: _("Aprobador"),
    LEGAL_REVIEWER: _("Revisor legal"),
    AUDITOR: _("Auditor"),
    OWNER: _("Dueño"),
}
# Everyone who works in the office sees the staff pages; the auditor only reads.
STAFF_ROLES = frozenset({ADMINISTRATOR, STAFF, CASHIER, APPROVER, LEGAL_REVIEWER, AUDITOR})
WRITER_ROLES = STAFF_ROLES - {AUDITOR}


def roles_of(user) -> frozenset[str]:
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return frozenset()
    cached = getattr(user, "_role_cache", None)
    if cached is None:
        cached = frozenset(user.groups.values_list("name", flat=True))
        if user.is_superuser:
            cached |= {ADMINISTRATOR}
        user._role_cache = cached
    return cached


def has_role(user, *roles: str) -> bool:
    return bool(roles_of(user) & set(roles))


def is_staff_member(user) -> bool:
    return bool(roles_of(user) & STAFF_ROLES)


def can_write(user) -> bool:
    return bool(roles_of(user) & WRITER_ROLES)


def is_owner(user) -> bool:
    return OWNER in roles_of(user) and not is_staff_member(user)


# --- the role matrix (docs/security/roles.md) ---------------------------------------------------
# Every write route declares one of these actions (views: `required_action` / `required_actions` of
# core.mixins; API: core.permissions.HasAction); `can(user, action)` is the only question asked.
READ = "read"              # look, and operations that change nothing (previews, computations, debt PDFs)
DRAFT = "draft"            # register edits, imports, roll generation, notices, drafting decisions/resolutions
REQUEST = "request"        # ask for a change a second person approves: roll-line changes, adjustments, refunds
APPROVE = "approve"        # approve or reject those requests
CERTIFY = "certify"        # certify a roll (bills every line)
FINALIZE = "finalize"      # finalize a roll (liens) and run billing (franchise invoices, improvement charges)
DECIDE = "decide"          # decide franchise applications and proceedings
RULE = "rule"              # legal rulings on lien rank
PAY = "pay"                # the cash window: payments, receipts, batches, bank files, transfers
ADJUST = "adjust"          # entries with no approval step: returned payments, TID account entries
REFUND = "refund"          # SID refunds ordered by law when a project was not carried out
ISSUE = "issue"            # certificates and seizure figures on liens
ASSIGN = "assign"          # the work queue: assign flags and items, one's own calendar link
INVITE = "invite"          # owners' portal invitations
ADMINISTER = "administer"  # the admin site, users and roles

PERMISSIONS: dict[str, frozenset[str]] = {
    READ: STAFF_ROLES,
    DRAFT: frozenset({ADMINISTRATOR, STAFF}),
    REQUEST: frozenset({ADMINISTRATOR, STAFF}),
    APPROVE: frozenset({ADMINISTRATOR, APPROVER}),
    CERTIFY: frozenset({ADMINISTRATOR, APPROVER}),
    FINALIZE: frozenset({ADMINISTRATOR, APPROVER}),
    DECIDE: frozenset({ADMINISTRATOR, APPROVER}),
    RULE: frozenset({ADMINISTRATOR, LEGAL_REVIEWER}),
    PAY: frozenset({ADMINISTRATOR, CASHIER}),
    ADJUST: frozenset({ADMINISTRATOR, STAFF}),
    REFUND: frozenset({ADMINISTRATOR, STAFF}),
    ISSUE: WRITER_ROLES,
    ASSIGN: WRITER_ROLES,
    INVITE: frozenset({ADMINISTRATOR, STAFF}),
    ADMINISTER: frozenset({ADMINISTRATOR}),
}

# "Su rol (Cajero) no permite <…>." — what each action is, for refusals.
ACTION_LABELS = {
    READ: _("consultar esta información"),
    DRAFT: _("preparar o editar registros"),
    REQUEST: _("solicitar cambios, ajustes o reembolsos"),
    APPROVE: _("aprobar o rechazar solicitudes"),
    CERTIFY: _("certificar padrones"),
    FINALIZE: _("finalizar padrones ni facturar"),
    DECIDE: _("decidir solicitudes ni procedimientos de franquicias"),
    RULE: _("emitir resoluciones legales sobre gravámenes"),
    PAY: _("registrar pagos ni operar la caja"),
    ADJUST: _("registrar ajustes a cuentas"),
    REFUND: _("registrar reembolsos"),
    ISSUE: _("emitir certificaciones"),
    ASSIGN: _("asignar trabajo"),
    INVITE: _("invitar dueños al portal"),
    ADMINISTER: _("administrar el sistema"),
}


def can(user, action: str | None) -> bool:
    """May `user` do `action`? An action nobody declared is the administrator's alone."""
    mine = roles_of(user)
    if ADMINISTRATOR in mine:
        return True
    return bool(mine & PERMISSIONS.get(action, frozenset())) if action else False


def refusal(user, action: str | None) -> str:
    """Why `user` may not do `action`, in the user's words: "Su rol (Cajero) no permite certificar padrones."."""
    from django.utils.translation import gettext

    mine = sorted(roles_of(user) & STAFF_ROLES)
    names = ", ".join(str(ROLE_LABELS[r]) for r in mine) or gettext("sin rol")
    what = ACTION_LABELS.get(action) if action else None
    if what is None:
        return gettext("Su rol (%(roles)s) no permite esta operación.") % {"roles": names}
    return gettext("Su rol (%(roles)s) no permite %(what)s.") % {"roles": names, "what": what}
