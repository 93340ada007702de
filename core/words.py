"""Plain words for the internal codes the engines keep in their results (issue #17).

The engines write codes ("annual", "schedule", "WATER_BELOW_MINIMUM") into roll lines and notices'
breakdowns; those stay as they are (they are data, read back by code). A person sees these words
instead, in Spanish, with English through the catalogue. Model choices already have their labels
(get_FOO_display); this is for codes that are not a model field's choices.
"""
from django.utils.translation import gettext_lazy as _

WORDS = {
    # Irrigation (IRR) and Lajas (LAJ) line kinds, bases and exemption reasons (assessments.rules)
    "free": _("período libre"),
    "stub": _("fracción del primer año"),
    "annual": _("anual"),
    "share": _("parte proporcional por acre"),
    "schedule": _("escala por acre"),
    "FREE_PERIOD": _("período libre de doce meses (IRR-4)"),
    "WATER_BELOW_MINIMUM": _("agua por debajo del mínimo (IRR-8)"),
    "NOT_YET_LIABLE": _("aún sin doce meses de agua (LAJ-5)"),
    # Where a lien came from (liens.Lien.origin_type)
    "assessments.receivable": _("cargo registrado en cobros"),
}


# Choices of apps above core (the franchise tariff classes, exemptions): registered by their AppConfig.ready,
# since core must not import them (tests/core/test_layering.py).
_REGISTERED: dict = {}


def register_words(*choices) -> None:
    """Let `word` name the values of these TextChoices (their labels are already translatable)."""
    for choice_class in choices:
        _REGISTERED.update(dict(choice_class.choices))


def word(code) -> str:
    """The plain word for an internal code; anything else (already a word, a number) as it is."""
    if code in (None, ""):
        return ""
    key = str(code)
    return WORDS.get(key) or _REGISTERED.get(key) or code

