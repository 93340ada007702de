"""Passwords: at least 12 characters, not common, not made of the person's own names."""
import pytest
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError

victor = User(username="vcintron", first_name="Víctor", last_name="Cintrón Ayala", email="victor@example.pr")


@pytest.mark.parametrize("password", [
    "victorcintron", "Víctor-Cintrón-1987", "CintronVictor2026!", "vcintron-ayala", "lajas2026", "password1234",
    "123456789012",
])
def test_refused(password):
    with pytest.raises(ValidationError):
        validate_password(password, victor)


@pytest.mark.parametrize("password", ["Cafetal-de-Adjuntas-2026", "Victor-sube-al-Yunque-7"])
def test_accepted(password):
    validate_password(password, victor)


def test_the_message_is_spanish_and_says_why():
    with pytest.raises(ValidationError) as exc:
        validate_password("VictorCintron!!", victor)
    assert "se parece demasiado a su nombre" in " ".join(exc.value.messages)
