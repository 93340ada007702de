"""The Celery app. Settings come from Django's (CELERY_ prefix); tasks are discovered per app."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("cargos")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
