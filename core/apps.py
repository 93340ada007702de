from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = _("Núcleo")

    def ready(self):
        from core import (
            celery_signals,  # noqa: F401  (request id into tasks, worker heartbeat, worker logging)
            checks,  # noqa: F401  (registers the system-library checks)
            sessions,  # noqa: F401  (marks each sign-in's start for the 12-hour limit)
        )
        from core.admin_mixins import install_admin_number_display, name_history_models, name_third_party_models

        install_admin_number_display()  # $19,160.01 in the admin, not "19160,01"
        name_history_models()  # "historial de padrones", not "Historical padrón"
        name_third_party_models()  # "intentos de acceso fallidos", not "Access attempts"
