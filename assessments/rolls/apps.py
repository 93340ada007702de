from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RollsConfig(AppConfig):
    """The roll cycle as its own app inside assessments, so its tables and migrations stand apart."""

    name = "assessments.rolls"
    label = "rolls"
    verbose_name = _("Padrones")

    def ready(self) -> None:
        from assessments.rolls import hooks

        hooks.connect()   # a late water record re-evaluates IRR-8 (IRR-8, last paragraph, docs/rules/irr.md)
