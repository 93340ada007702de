"""Owners' portal writes: an owner activates their account with the code printed on a notice, or
staff create it for them. Either way the account gets the owner role and is linked to the party."""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.http import Http404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from assessments.notices.models import NoticeAddressee
from assessments.notices.rules import activation_hash
from core import roles
from core.audit import audit
from core.documents.codes import normalize_code
from districts.models import Party
from districts.reference import normalize_cadastre


def _refused() -> ValidationError:
    # One message for every failure of code and property, so the form does not tell which was wrong.
    return ValidationError({"code": _("El código de activación no es válido, ya se usó o no corresponde a esa "
                                      "propiedad.")})


def _check_username(username: str) -> str:
    username = (username or "").strip()
    try:
        User.username_validator(username)
    except ValidationError as exc:
        raise ValidationError({"username": exc.messages})
    if not username or len(username) > 150:
        raise ValidationError({"username": _("Escoja un nombre de usuario de hasta 150 caracteres.")})
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": _("Ese nombre de usuario ya existe; escoja otro.")})
    return username


def _new_owner_user(party: Party, username: str) -> User:
    if party.kind == Party.Kind.PERSON:
        first, last = party.given_names, " ".join(p for p in (party.first_surname, party.second_surname) if p)
    else:
        first, last = party.organization_name, ""
    return User(username=username, first_name=first[:150], last_name=last[:150], email=party.email or "")


def _link(user: User, party: Party) -> None:
    user.save()
    user.groups.add(Group.objects.get(name=roles.OWNER))
    party.user = user
    party.save()


@transaction.atomic
def portal_activate(*, code: str, cadastre: str, username: str, password: str) -> User:
    """Create an owner's portal account from the activation code printed on one of their notices.

    The code must be one we printed, unused, for a party without an account, and `cadastre` the
    parcel's cadastre (or, for a franchise holder's notice, the notice number). Then every code
    printed for that party stops working.
    """
    normalized = normalize_code(code)
    if normalized is None:
        raise _refused()
    row = (NoticeAddressee.objects.select_for_update(of=("self",))
           .select_related("notice", "notice__receivable", "notice__receivable__account",
                           "notice__receivable__account__parcel")
           .filter(activation_hash=activation_hash(normalized)).first())
    if row is None or row.activation_used_at is not None:
        raise _refused()
    party = Party.objects.select_for_update().get(pk=row.party_id)
    if party.user_id is not None:
        raise _refused()
    account = row.notice.receivable.account
    typed = (cadastre or "").strip().upper()
    if account.parcel_id:
        matches = normalize_cadastre(typed) == account.parcel.cadastre
    else:
        matches = typed in (row.notice.number, row.notice.display_number)
    if not matches:
        raise _refused()
    username = _check_username(username)
    user = _new_owner_user(party, username)
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise ValidationError({"password": exc.messages})
    user.set_password(password)
    _link(user, party)
    used = NoticeAddressee.objects.filter(party=party, activation_used_at__isnull=True).update(
        activation_used_at=timezone.now())
    audit(actor=user, action="portal.activate", target=party, summary=f"Cuenta del portal activada: {username}",
          data={"notice": row.notice_id, "codes_retired": used})
    return user


@transaction.atomic
def owner_account_create(*, party: Party, username: str, actor) -> User:
    """Staff create a party's portal account (owner role, linked to the party) with no usable
    password: the owner sets it from the link `portal_invite` prints (Django's password reset)."""
    party = Party.objects.select_for_update().get(pk=party.pk)
    if party.user_id is not None:
        raise ValidationError({"party": _("%(p)s ya tiene cuenta en el portal.") % {"p": party.display_name}})
    username = _check_username(username)
    user = _new_owner_user(party, username)
    user.set_unusable_password()
    _link(user, party)
    NoticeAddressee.objects.filter(party=party, activation_used_at__isnull=True).update(
        activation_used_at=timezone.now())
    audit(actor=actor, action="portal.account_create", target=party,
          summary=f"Cuenta del portal creada por el personal: {username}", data={"username": username})
    return user


def password_setup_link(user: User, *, base_url: str) -> str:
    """The one-time link where an invited owner chooses their password: Django's password reset
    token, which stops working once the password is set (it hashes the password and last login)
    or after PASSWORD_RESET_TIMEOUT."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return base_url.rstrip("/") + reverse("password_reset_confirm", args=[uid, token])


def suggested_username(party: Party) -> str:
    """A free username for the party: the e-mail's local part, else its ref, else persona-<id>
    (with a number added when taken)."""
    base = (party.email or "").split("@")[0].strip().lower() or (party.ref or "").lower() or f"persona-{party.pk}"
    base = "".join(c for c in base if c.isalnum() or c in "._-")[:140] or f"persona-{party.pk}"
    candidate, n = base, 1
    while User.objects.filter(username__iexact=candidate).exists():
        n += 1
        candidate = f"{base}{n}"
    return candidate


def invite_check(party: Party) -> None:
    """Raise the reason staff cannot invite this party (it has an account, or no e-mail), if any."""
    if party.user_id is not None:
        raise ValidationError({"party": _("%(p)s ya tiene cuenta en el portal.") % {"p": party.display_name}})
    if not (party.email or "").strip():
        raise ValidationError({"email": _(
            "%(p)s no tiene correo electrónico: complete el campo «Correo electrónico» de la persona o entidad "
            "antes de invitarla.") % {"p": party.display_name}})


@transaction.atomic
def owner_invite(*, party: Party, username: str, actor, base_url: str) -> User:
    """Staff create a party's portal account and e-mail the owner an invitation with the one-time
    link to choose their password (issue #6, "created by staff").

    Refused, before anything is written, when the party already has an account or has no e-mail.
    The e-mail is sent last, inside the transaction: if it cannot be sent, no account is left
    behind without its invitation. The audit entry records the address, never the link.
    """
    party = Party.objects.select_for_update().get(pk=party.pk)
    invite_check(party)
    user = owner_account_create(party=party, username=username, actor=actor)
    link = password_setup_link(user, base_url=base_url)
    days = max(1, settings.PASSWORD_RESET_TIMEOUT // 86400)
    with translation.override(settings.LANGUAGE_CODE):        # Spanish first: we do not know theirs yet
        context = {"party": party, "user": user, "link": link, "days": days}
        subject = render_to_string("portal/email/invite_subject.txt", context).strip()
        body = render_to_string("portal/email/invite.txt", context)
    send_mail(subject, body, None, [party.email.strip()])
    audit(actor=actor, action="portal.invite", target=party,
          summary=f"Invitación al portal enviada a {party.email.strip()} (usuario {user.username})",
          data={"username": user.username, "email": party.email.strip(), "link_valid_days": days})
    return user


def owner_receipt(*, payment, language: str = "es"):
    """The receipt of a payment the owner may see (the caller checked access), issued on first request."""
    from assessments.ledger.receipts import receipt_on_request

    return receipt_on_request(payment=payment, actor=None, language=language)


def owner_notice_language_set(*, user, language: str) -> Party:
    """The owner asks for their next notices in `language` (their party's `notice_language`).
    Notices already issued stay as they are; staff can reissue one ("Emitir en inglés")."""
    if language not in dict(settings.LANGUAGES):
        raise ValidationError({"language": _("Idioma desconocido: %(l)s") % {"l": language}})
    party = Party.objects.select_for_update().filter(user=user).first()
    if party is None:
        raise Http404("no party linked to this account")
    if party.notice_language != language:
        party.notice_language = language
        party.save(update_fields=["notice_language", "updated_at"])
        audit(actor=user, action="party.notice_language", target=party,
              summary=f"{party.display_name}: avisos en {language}", data={"language": language})
    return party

