"""Development: SQLite and in-process tasks unless DATABASE_URL / REDIS_URL say otherwise."""
from .base import *  # noqa: F401,F403
from .base import env

DEBUG = env.bool("DJANGO_DEBUG", default=True)
# A development-only key; production refuses to start without DJANGO_SECRET_KEY.
SECRET_KEY = env("DJANGO_SECRET_KEY", default="dev-only-insecure-key-do-not-use-in-production")
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
