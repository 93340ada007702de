"""A password must not be the person's own names: 'victorcintron' or 'Víctor-Cintrón-1987' for
Víctor Cintrón. Django's similarity check compares the whole password with each attribute and lets
these through; here accents, case, punctuation and digits are set aside, and what is left once the
person's names are taken out must still be a password of its own."""
from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from core.text import fold

MIN_NAME_PART = 3
MIN_REST = 6


def _parts(text: str) -> set[str]:
    return {p for p in re.split(r"[^a-z0-9]+", fold(text)) if len(p) >= MIN_NAME_PART and not p.isdigit()}


def name_parts(user) -> set[str]:
    """The user's names, user name and e-mail box (an owner's account carries the register's names)."""
    parts: set[str] = set()
    for value in (user.username, user.first_name, user.last_name, (user.email or "").split("@")[0]):
        parts |= _parts(value or "")
    return parts


def rest_after_names(password: str, parts: set[str]) -> str:
    rest = re.sub(r"[^a-z]", "", fold(password))
    for part in sorted(parts, key=len, reverse=True):
        rest = rest.replace(part, "")
    return rest


class PersonalNamesValidator:
    def validate(self, password, user=None):
        if user is None:
            return
        parts = name_parts(user)
        folded = re.sub(r"[^a-z]", "", fold(password))
        if any(p in folded for p in parts) and len(rest_after_names(password, parts)) < MIN_REST:
            raise ValidationError(
                _("La contraseña se parece demasiado a su nombre o a su usuario; escoja otra."),
                code="password_is_personal_name")

    def get_help_text(self):
        return _("La contraseña no puede formarse con su nombre, apellidos o usuario.")
