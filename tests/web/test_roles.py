"""Roles mean what they say: every write route and API operation, as every role, against the role matrix
(core.roles.PERMISSIONS, docs/security/roles.md).

The routes come from the URLconf (tests/web/routes.py); each view's declared action is read from the view
itself, so a new write view that declares none fails here. A role the matrix allows gets anything but 403
on a POST with an empty body (400, 200, 302, 404: the view ran); a role it refuses gets 403, and an
owner is sent to the portal (pages) or refused (API)."""
from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from rest_framework.views import APIView

from core import roles
from core.mixins import StaffRequiredMixin
from core.permissions import HasAction, required_action
from tests.franchises.conftest import drna, holder, make_franchise, recipient  # noqa: F401 (fixtures)
from tests.rolls.conftest import irrigation_figures, irrigation_register  # noqa: F401 (fixtures)
from tests.web.routes import named_patterns

STAFF = sorted(roles.STAFF_ROLES)
# Writes outside the office's matrix: signing in and out, one's own password and second factor, the language; the
# owners' portal (its own permission: the owner's own notices and language).
NOT_OFFICE = {"login", "logout", "password_change", "password_reset", "password_reset_confirm", "set_language",
              "core:verify_form", "core:verify", "otp_verify", "otp_enrol", "otp_recovery_codes"}
OWNER_PORTAL = ("portal:", "api:portal:")
WRITE_METHODS = ("post", "put", "patch", "delete")


def _view_class(pattern):
    cb = pattern.callback
    return getattr(cb, "view_class", None) or getattr(cb, "cls", None)


def _kwargs(pattern, **override):
    kwargs = {k: ("x" if k in ("code", "slug", "calculation") else 1) for k in pattern.pattern.regex.groupindex}
    return {**kwargs, **override}


def _write_routes():
    """(id, route name, kwargs, view class, method, is_api) for every write of the office."""
    out, seen = [], set()
    for _ns, p, name in named_patterns():
        if name.startswith(("admin:",) + OWNER_PORTAL) and name != "portal:invite" or name in NOT_OFFICE:
            continue
        cls = _view_class(p)
        if cls is None:
            continue
        is_api = issubclass(cls, APIView)
        actions = getattr(p.callback, "actions", None)
        methods = [m for m in actions if m != "get"] if actions else [m for m in WRITE_METHODS if hasattr(cls, m)]
        if not is_api:
            methods = [m for m in methods if m != "put" or "put" in cls.__dict__]  # FormView.put is post
        extra = [{"action": roles.CERTIFY}, {"action": roles.FINALIZE}] if name == "rolls:action" else [{}]
        for method in methods:
            for over in extra:
                key = (name, method, tuple(sorted(over.items())))
                if key in seen:
                    continue
                seen.add(key)
                label = f"{name}:{method.upper()}" + (f"[{over['action']}]" if over else "")
                out.append((label, name, _kwargs(p, **over), cls, method.upper(), is_api))
    return out


WRITES = _write_routes()


def declared_action(name, kwargs, cls, method, is_api):
    """The action the view declares for `method`, read from the view itself."""
    request = getattr(RequestFactory(), method.lower())(reverse(name, kwargs=kwargs))
    if is_api:
        view = cls()
        view.request, view.args, view.kwargs, view.format_kwarg = request, (), kwargs, None
        perms = view.get_permissions()
        assert any(isinstance(perm, HasAction) for perm in perms), f"{name}: {method} sin HasAction"
        return required_action(request, view)
    assert issubclass(cls, StaffRequiredMixin), f"{name}: página de escritura sin StaffRequiredMixin"
    view = cls()
    view.setup(request, **kwargs)
    return view.get_required_action(request)


def test_the_walk_finds_the_writes_that_matter():
    names = {w[1] for w in WRITES}
    assert {"rolls:action", "rolls:override_decide", "franchises:application_decide", "assessments:adjustment_decide",
            "assessments:payment_create", "liens:ruling_create", "portal:invite", "api:franchise-application-decide",
            "api:payment_record", "api:parcel-lien-rulings"} <= names
    assert len(WRITES) > 100


@pytest.mark.parametrize(("label", "name", "kwargs", "cls", "method", "is_api"), WRITES, ids=[w[0] for w in WRITES])
def test_every_write_declares_an_action_of_the_matrix(label, name, kwargs, cls, method, is_api):
    action = declared_action(name, kwargs, cls, method, is_api)
    assert action in roles.PERMISSIONS, f"{label} no declara una acción de core.roles.PERMISSIONS ({action!r})"


def test_the_matrix_is_complete_and_separates_duties():
    assert set(roles.PERMISSIONS) == set(roles.ACTION_LABELS)
    for action, allowed in roles.PERMISSIONS.items():
        assert roles.ADMINISTRATOR in allowed and roles.OWNER not in allowed, action
        if action != roles.READ:
            assert roles.AUDITOR not in allowed, action
    cashier = {a for a, allowed in roles.PERMISSIONS.items() if roles.CASHIER in allowed}
    assert cashier == {roles.READ, roles.PAY, roles.ISSUE, roles.ASSIGN}
    for action in (roles.APPROVE, roles.CERTIFY, roles.FINALIZE, roles.DECIDE):
        assert roles.PERMISSIONS[action] == {roles.ADMINISTRATOR, roles.APPROVER}
    assert not roles.PERMISSIONS[roles.REQUEST] & roles.PERMISSIONS[roles.APPROVE] - {roles.ADMINISTRATOR}


@pytest.fixture
def role_users(make_user):
    users = {role: make_user(f"rol.{role}", role) for role in STAFF}
    users[roles.OWNER] = make_user("rol.owner", roles.OWNER)
    return users


@pytest.mark.django_db
@pytest.mark.parametrize(("label", "name", "kwargs", "cls", "method", "is_api"), WRITES, ids=[w[0] for w in WRITES])
def test_every_role_gets_exactly_what_the_matrix_says(role_users, label, name, kwargs, cls, method, is_api):
    action = declared_action(name, kwargs, cls, method, is_api)
    url = reverse(name, kwargs=kwargs)
    wrong = []
    for role, user in role_users.items():
        client = Client(raise_request_exception=False)
        client.force_login(user)
        if is_api:
            response = client.generic(method, url, "{}", content_type="application/json")
        else:
            response = client.generic(method, url, "", content_type="application/x-www-form-urlencoded")
        allowed = roles.can(user, action)
        if role == roles.OWNER:
            expected_ok = response.status_code == 403 if is_api else (
                response.status_code == 302 and response.url == reverse("portal:home"))
        elif allowed:
            expected_ok = response.status_code != 403
        else:
            expected_ok = response.status_code == 403
            if expected_ok:
                text = response.json()["detail"] if is_api else response.content.decode()
                expected_ok = "no permite" in text
        if not expected_ok:
            wrong.append(f"{role}: {response.status_code} (acción {action}, permitido={allowed})")
    assert not wrong, f"{label}: " + "; ".join(wrong)


# --- the reproductions of the issue -------------------------------------------------------------

@pytest.fixture
def draft_roll(irrigation_figures, staff_user):  # noqa: F811 (the fixture imported above)
    from assessments.rolls import services

    return services.roll_generate(district_code="riego-sur", fiscal_year=2027, actor=staff_user).roll


@pytest.fixture
def pending_change(draft_roll, staff_user):
    from assessments.rolls import services
    from assessments.rolls.models import RollLine

    line = RollLine.objects.filter(roll=draft_roll, total__gt=0).first()
    return services.override_request(line=line, new_total=Decimal("1.00"), reason="Error de cabida", actor=staff_user)


def _client(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_cashier_cannot_approve_a_roll_line_change(pending_change, make_user):
    cashier = make_user("caja", roles.CASHIER)
    previous = pending_change.line.total
    response = _client(cashier).post(reverse("rolls:override_decide", args=[pending_change.pk]),
                                     {"decision": "approve"})
    assert response.status_code == 403
    assert "Su rol (Cajero) no permite aprobar o rechazar solicitudes." in response.content.decode()
    pending_change.refresh_from_db()
    pending_change.line.refresh_from_db()
    assert pending_change.status == "PENDING" and pending_change.line.total == previous


@pytest.mark.django_db
def test_approver_approves_a_roll_line_change(pending_change, make_user):
    approver = make_user("aprueba", roles.APPROVER)
    response = _client(approver).post(reverse("rolls:override_decide", args=[pending_change.pk]),
                                      {"decision": "approve"})
    assert response.status_code == 302
    pending_change.refresh_from_db()
    pending_change.line.refresh_from_db()
    assert pending_change.status == "APPROVED" and pending_change.line.total == Decimal("1.00")


@pytest.mark.django_db
def test_the_requester_cannot_approve_their_own_change_even_as_approver(pending_change, make_user):
    """Separation of duties in the service: the person who asked never approves (even an administrator)."""
    pending_change.requested_by.groups.add(*make_user("x", roles.APPROVER).groups.all())
    response = _client(pending_change.requested_by).post(
        reverse("rolls:override_decide", args=[pending_change.pk]), {"decision": "approve"})
    assert response.status_code == 302
    pending_change.refresh_from_db()
    assert pending_change.status == "PENDING"


@pytest.mark.django_db
@pytest.mark.parametrize(("action", "label"), [("certify", "certificar padrones"),
                                               ("finalize", "finalizar padrones ni facturar")])
def test_cashier_cannot_certify_or_finalize_a_roll(draft_roll, make_user, action, label):
    from assessments.rolls.models import RollJob

    response = _client(make_user("caja", roles.CASHIER)).post(reverse("rolls:action", args=[draft_roll.pk, action]))
    assert response.status_code == 403
    assert f"Su rol (Cajero) no permite {label}." in response.content.decode()
    assert not RollJob.objects.exists()


@pytest.mark.django_db
def test_approver_certifies_a_roll(draft_roll, make_user, django_capture_on_commit_callbacks):
    from assessments.rolls.models import RollJob

    with django_capture_on_commit_callbacks(execute=False):
        response = _client(make_user("aprueba", roles.APPROVER)).post(
            reverse("rolls:action", args=[draft_roll.pk, "certify"]))
    assert response.status_code == 302
    assert RollJob.objects.get().operation == "certify"


@pytest.fixture
def open_application(make_franchise, recipient):  # noqa: F811 (the fixtures imported above)
    from datetime import date

    from franchises import services
    from tests.franchises.conftest import ALL_TRANSFER_DOCS

    return services.application_file(actor=None, franchise=make_franchise(), kind="TRANSFER",
                                     received_on=date(2026, 10, 27), recipient=recipient,
                                     documents=dict(ALL_TRANSFER_DOCS), fee_paid=True)


@pytest.mark.django_db
def test_cashier_cannot_decide_a_franchise_application(open_application, make_user):
    client = _client(make_user("caja", roles.CASHIER))
    page = client.post(reverse("franchises:application_decide", args=[open_application.pk]),
                       {"decided_on": "2026-11-10", "grant": "on"})
    assert page.status_code == 403
    assert "Su rol (Cajero) no permite decidir solicitudes ni procedimientos de franquicias." in page.content.decode()
    api = client.post(f"/api/v1/franchises/applications/{open_application.pk}/decide/",
                      {"decided_on": "2026-11-10", "grant": True}, content_type="application/json")
    assert api.status_code == 403
    assert api.json()["detail"] == "Su rol (Cajero) no permite decidir solicitudes ni procedimientos de franquicias."
    open_application.refresh_from_db()
    assert open_application.is_open


@pytest.mark.django_db
def test_approver_decides_a_franchise_application(open_application, make_user):
    api = _client(make_user("aprueba", roles.APPROVER)).post(
        f"/api/v1/franchises/applications/{open_application.pk}/decide/",
        {"decided_on": "2026-11-10", "grant": True}, content_type="application/json")
    assert api.status_code == 200, api.content
    assert api.json()["status"] == "GRANTED"
