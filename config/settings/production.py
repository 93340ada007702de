"""Production: every secret from the environment, no defaults; HTTPS only."""
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
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# The load balancer probes these over plain HTTP (core/health_views.py, docs/operations/observe.md).
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
EMAIL_BACKEND = env("DJANGO_EMAIL_BACKEND", default="django.core.mail.backends.smtp.EmailBackend")
EMAIL_URL = env.email_url("EMAIL_URL", default="smtp://localhost:25")
vars().update(EMAIL_URL)

REDIS_URL = env("REDIS_URL")
CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_ALWAYS_EAGER = False
DEMO_ACCOUNTS_ENABLED = env.bool("DEMO_ACCOUNTS_ENABLED", default=False)

# JSON lines for the log collector unless DJANGO_LOG_FORMAT=text.
LOG_FORMAT = env("DJANGO_LOG_FORMAT", default="json")
LOGGING = logging_config(LOG_FORMAT, LOG_LEVEL)
