"""Workers and beat never fall back to development settings: without DJANGO_SETTINGS_MODULE they refuse
to start and say which variable is missing; Django processes that choose their settings still load."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _env_without_settings() -> dict:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["REDIS_URL"] = "redis://127.0.0.1:1/0"  # never reached: the process must stop before connecting
    return env


@pytest.mark.parametrize("command", [["worker", "-Q", "nothing", "--pool=solo"], ["beat"]])
def test_celery_refuses_to_start_without_the_settings_module(command):
    proc = subprocess.run([sys.executable, "-m", "celery", "-A", "config", *command], cwd=ROOT,
                          env=_env_without_settings(), capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode != 0
    assert "DJANGO_SETTINGS_MODULE is not set" in proc.stderr
    assert "Refusing to start" in proc.stderr


def test_django_processes_that_choose_their_settings_still_import_the_app():
    """config/__init__.py imports the Celery app: wsgi (production default) and explicit settings work."""
    code = ("import config.wsgi; from django.conf import settings; from config.celery import app; "
            "print(settings.SETTINGS_MODULE, app.conf.task_always_eager)")
    env = {**_env_without_settings(), "DJANGO_SECRET_KEY": "x" * 50, "DJANGO_ALLOWED_HOSTS": "cargos.example.pr",
           "DATABASE_URL": "sqlite:////tmp/cargos-unused.sqlite3"}
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["config.settings.production", "False"]


def test_the_app_reads_the_settings_django_already_has():
    from django.conf import settings

    from config.celery import app

    assert settings.SETTINGS_MODULE == "config.settings.test"
    assert app.conf.task_serializer == "json"
