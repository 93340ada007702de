"""The Celery app. Settings come from Django's (CELERY_ prefix); tasks are discovered per app.

There is no default settings module here: a worker or beat started without DJANGO_SETTINGS_MODULE
refuses to start rather than silently running with development settings (debug on, console e-mail).
`make worker` / `make beat` and the systemd units (deploy/) pass it explicitly. Django processes
(manage.py, config/wsgi.py, pytest) choose their module before the Celery configuration is read.
"""
import os
import sys
from pathlib import Path

from celery import Celery

SETTINGS_MISSING = (
    "DJANGO_SETTINGS_MODULE is not set: a Celery worker or beat needs it explicitly, e.g. "
    "DJANGO_SETTINGS_MODULE=config.settings.production (make worker / make beat set it; "
    "the systemd units read it from /etc/cargos/cargos.env). Refusing to start with default settings."
)


class SettingsModuleMissing(RuntimeError):
    """DJANGO_SETTINGS_MODULE is unset in a `celery` command (worker, beat, inspect…)."""


def _django_configured() -> bool:
    if os.environ.get("DJANGO_SETTINGS_MODULE"):
        return True
    from django.conf import settings

    return settings.configured  # settings.configure(...) without the variable: fine too


def _celery_command() -> bool:
    """True in `celery …` and `python -m celery …` (not in manage.py, gunicorn or pytest)."""
    argv0 = Path(sys.argv[0]) if sys.argv and sys.argv[0] else Path()
    return argv0.name == "celery" or (argv0.name == "__main__.py" and argv0.parent.name == "celery")


def require_settings_module() -> None:
    if not _django_configured():
        raise SettingsModuleMissing(SETTINGS_MISSING)


# Fail at once in the celery command line, before the app exists without its Django fix-up.
if _celery_command():
    require_settings_module()

# Anything else that reads the Celery configuration without Django settings (a script) gets
# Django's own ImproperlyConfigured, which names the variable too.
app = Celery("cargos")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def route_task(name, args, kwargs, options, task=None, **kw):
    """First router of CELERY_TASK_ROUTES: CELERY_SINGLE_QUEUE=<queue> sends every task to that one
    queue (a test's private worker, a one-worker box); otherwise the module routes that follow apply.
    Read at each send, so a process can change it without rebuilding Celery's cached router."""
    single = os.environ.get("CELERY_SINGLE_QUEUE", "").strip()
    return {"queue": single} if single else None
