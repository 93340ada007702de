"""Production: every secret from the environment, no defaults; HTTPS only."""
from config.storage import storages_from_env
from core.logs import logging_config

from .base import *  # noqa: F401,F403
from .base import LOG_LEVEL, env

DEBUG = False
SECRET_KEY = env("DJANGO_SECRET_KEY")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS")
DATABASES = {"default": env.db("DATABASE_URL")}
DATABASES["default"]["ATOMIC_REQUESTS"] = True
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)

CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# nginx on the same machine (deploy/nginx): its X-Real-IP is the client's address.
TRUSTED_PROXY_IPS = env.list("TRUSTED_PROXY_IPS", default=["127.0.0.1", "::1"])
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
# Probes (load balancer, monitoring) may ask over plain HTTP; nginx forwards only these two without HTTPS
# (core/health_views.py, docs/operations/observe.md).
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Media on the local disk or in an S3-compatible bucket (DJANGO_STORAGE_BACKEND); static files by WhiteNoise.
STORAGES = storages_from_env(env.ENVIRON,
                             staticfiles_backend="whitenoise.storage.CompressedManifestStaticFilesStorage")
EMAIL_BACKEND = env("DJANGO_EMAIL_BACKEND", default="django.core.mail.backends.smtp.EmailBackend")
EMAIL_URL = env.email_url("EMAIL_URL", default="smtp://localhost:25")
vars().update(EMAIL_URL)

REDIS_URL = env("REDIS_URL")
CELERY_BROKER_URL = REDIS_URL
# Task results and failures in PostgreSQL, visible in the admin ("Task results", django-celery-results),
# with the task's name, arguments and worker; Celery's daily backend_cleanup (sync_schedules) drops them
# after CELERY_RESULT_EXPIRES_DAYS (30 by default).
CELERY_RESULT_BACKEND = "django-db"
CELERY_RESULT_EXPIRES = env.int("CELERY_RESULT_EXPIRES_DAYS", default=30) * 24 * 3600
CELERY_RESULT_EXTENDED = True
CELERY_TASK_ALWAYS_EAGER = False
DEMO_ACCOUNTS_ENABLED = env.bool("DEMO_ACCOUNTS_ENABLED", default=False)
# The second factor is never optional here, whatever the environment says (core/otp.py; the deploy check
# core.E010 refuses a settings module that turns it off).
OTP_REQUIRED = True

# JSON lines for the log collector unless DJANGO_LOG_FORMAT=text.
LOG_FORMAT = env("DJANGO_LOG_FORMAT", default="json")
LOGGING = logging_config(LOG_FORMAT, LOG_LEVEL)
