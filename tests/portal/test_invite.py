"""Staff "Crear cuenta e invitar" (issue #6): from a party's page, staff who keep the register create
the owner's portal account and e-mail a one-time link to choose the password; refused without an
e-mail or with an account already; audited; the invited owner then sees only their own records."""
from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest
from django.contrib.auth.models import User
from django.core import mail

from assessments.notices.models import NoticeAddressee
from core.models import AuditEntry
from districts.models import Party
from tests import factories
from tests.portal.conftest import _charge

pytestmark = pytest.mark.django_db
PASSWORD = "Cafetal-de-Adjuntas-2026"


@pytest.fixture
def elena(world, staff_user):
    """An owner with an e-mail, a parcel and its notice, and no portal account yet."""
    from assessments.ledger.services import account_for_parcel
    from assessments.notices import services

    party = factories.person(given="Elena", first="Vázquez", second="Ortiz", email="elena.vazquez@example.pr")
    parcel = factories.parcel(cadastre="100-000-000-05")
    factories.own(parcel, party)
    receivable = _charge(account_for_parcel(parcel), world.fund, world.office, "e", parcel.cadastre, staff_user)
    notice = services.notice_issue(receivable=receivable, actor=staff_user)
    return party, parcel, notice


def _invite_url(party) -> str:
    return f"/portal/personal/invitar/{party.pk}/"


def _link_path(body: str) -> str:
    links = re.findall(r"https?://\S+/cuentas/reset/\S+/", body)
    assert len(links) == 1, body
    return urlparse(links[0]).path


def test_the_party_page_offers_the_invitation_to_register_staff_only(elena, client, staff_user, make_user):
    party, _, _ = elena
    client.force_login(staff_user)
    page = client.get(f"/registro/personas/{party.pk}/").content.decode()
    assert "Crear cuenta e invitar" in page and _invite_url(party) in page
    client.force_login(make_user("caja", "cashier"))
    assert "Crear cuenta e invitar" not in client.get(f"/registro/personas/{party.pk}/").content.decode()


def test_staff_create_the_account_and_the_owner_sets_a_password_and_sees_only_their_records(
        elena, world, client, staff_user):
    party, parcel, notice = elena
    client.force_login(staff_user)
    form = client.get(_invite_url(party))
    assert form.status_code == 200
    assert form.context["form"].initial["username"] == "elena.vazquez"        # the e-mail's local part
    response = client.post(_invite_url(party), {"username": "elena.vazquez"})
    assert response.status_code == 302 and response["Location"] == f"/registro/personas/{party.pk}/"

    user = User.objects.get(username="elena.vazquez")
    party.refresh_from_db()
    assert party.user == user and user.groups.filter(name="owner").exists() and not user.has_usable_password()
    assert user.email == "elena.vazquez@example.pr"
    assert NoticeAddressee.objects.get(notice=notice, party=party).activation_used_at is not None  # code retired
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["elena.vazquez@example.pr"] and message.subject == "Su cuenta en el portal de dueños"
    assert "elena.vazquez" in message.body and "Elena Vázquez Ortiz" in message.body
    link = _link_path(message.body)
    actions = list(AuditEntry.objects.filter(target_id=str(party.pk)).values_list("action", "actor_id"))
    assert ("portal.account_create", staff_user.pk) in actions and ("portal.invite", staff_user.pk) in actions
    invite = AuditEntry.objects.get(action="portal.invite", target_id=str(party.pk))
    assert invite.data["email"] == "elena.vazquez@example.pr" and link.split("/")[-2] not in str(invite.data)

    # the owner follows the link (Django's password reset confirm) and chooses a password
    client.logout()
    step = client.get(link)
    assert step.status_code == 302
    done = client.post(step["Location"], {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password(PASSWORD)
    again = client.get(link, follow=True)                                    # one time only
    assert again.context["validlink"] is False

    assert client.post("/cuentas/login/", {"username": "elena.vazquez", "password": PASSWORD}).status_code == 302
    assert [n["id"] for n in client.get("/api/v1/portal/notices/").json()] == [notice.pk]
    assert [p["id"] for p in client.get("/api/v1/portal/parcels/").json()] == [parcel.pk]
    assert client.get(f"/portal/avisos/{notice.pk}/pdf/").status_code == 200
    for url in (f"/portal/parcelas/{world.parcel_a.pk}/", f"/portal/avisos/{world.notice_a.pk}/pdf/",
                f"/portal/cuentas/{world.account_b.pk}/", f"/portal/pagos/{world.payment_a.pk}/recibo/",
                f"/api/v1/portal/notices/{world.notice_b.pk}/", f"/api/v1/portal/payments/{world.payment_b.pk}/"):
        assert client.get(url).status_code == 404, url


def test_refused_without_an_email_naming_the_field_and_nothing_is_written(world, client, staff_user):
    party = factories.person(given="Félix", first="Santiago", second="Rosa")
    client.force_login(staff_user)
    page = client.get(_invite_url(party)).content.decode()
    assert "Correo electrónico" in page and "no tiene correo electrónico" in page
    response = client.post(_invite_url(party), {"username": "felix.santiago"})
    assert response.status_code == 200
    assert "no tiene correo electrónico" in response.content.decode()
    assert "«Correo electrónico»" in response.content.decode()
    assert not User.objects.filter(username="felix.santiago").exists()
    assert mail.outbox == [] and not AuditEntry.objects.filter(action__startswith="portal.").exists()


def test_refused_when_the_party_already_has_an_account(world, client, staff_user):
    client.force_login(staff_user)
    world.ana.email = "ana@example.pr"
    world.ana.save()
    response = client.post(_invite_url(world.ana), {"username": "ana.otra"})
    assert response.status_code == 200 and "ya tiene cuenta en el portal" in response.content.decode()
    assert not User.objects.filter(username="ana.otra").exists() and mail.outbox == []
    assert Party.objects.get(pk=world.ana.pk).user == world.ana_user


def test_a_taken_username_is_refused_on_the_form(elena, world, client, staff_user):
    party, _, _ = elena
    client.force_login(staff_user)
    response = client.post(_invite_url(party), {"username": "ANA.DUENA"})
    assert response.status_code == 200 and "username" in response.context["form"].errors
    party.refresh_from_db()
    assert party.user is None and mail.outbox == []


def test_a_failed_email_leaves_no_account_behind(elena, client, staff_user, monkeypatch):
    from assessments.portal import services

    def broken(*args, **kwargs):
        raise ConnectionRefusedError("smtp down")

    party, _, _ = elena
    monkeypatch.setattr(services, "send_mail", broken)
    with pytest.raises(ConnectionRefusedError):
        services.owner_invite(party=party, username="elena.v", actor=staff_user, base_url="https://cargos.pr.gov")
    party.refresh_from_db()
    assert party.user is None and not User.objects.filter(username="elena.v").exists()


@pytest.mark.parametrize("role, expected", [("cashier", 403), ("auditor", 403), ("approver", 403),
                                            ("legal_reviewer", 403), ("administrator", 200), ("staff", 200)])
def test_only_staff_who_keep_the_register_may_invite(elena, client, make_user, role, expected):
    party, _, _ = elena
    client.force_login(make_user(f"u-{role}", role))
    assert client.get(_invite_url(party)).status_code == expected
    response = client.post(_invite_url(party), {"username": f"x-{role}"})
    assert response.status_code == (302 if expected == 200 else 403)
    assert User.objects.filter(username=f"x-{role}").exists() == (expected == 200)


def test_owners_and_anonymous_cannot_reach_the_invitation(elena, world, client):
    party, _, _ = elena
    response = client.get(_invite_url(party))
    assert response.status_code == 302 and "/cuentas/login/" in response["Location"]
    client.force_login(world.beto_user)
    response = client.post(_invite_url(party), {"username": "beto.otro"})
    assert response.status_code == 302 and response["Location"] == "/portal/"
    assert not User.objects.filter(username="beto.otro").exists()
    assert client.get("/portal/personal/invitar/999999/").status_code == 302      # owners never learn what exists


def test_a_failed_email_is_a_message_on_the_page_not_an_error_page(elena, client, staff_user, monkeypatch):
    from django.urls import reverse

    from assessments.portal import services

    def broken(*args, **kwargs):
        raise ConnectionRefusedError("smtp down")

    party, _, _ = elena
    monkeypatch.setattr(services, "send_mail", broken)
    client.force_login(staff_user)
    response = client.post(reverse("portal:invite", args=[party.pk]), {"username": "elena.v"})
    assert response.status_code == 200
    assert "No se pudo enviar la invitación" in response.content.decode()
    party.refresh_from_db()
    assert party.user is None
