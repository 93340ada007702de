"""Tests: fast hashing, in-memory e-mail, media in a temporary folder."""
import tempfile

from config.storage import storages_from_env

from .base import *  # noqa: F401,F403
from .base import env

SECRET_KEY = env("DJANGO_SECRET_KEY", default="test-only-key")
DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# In memory; a real worker started by a test may be given the file backend through the environment.
EMAIL_BACKEND = env("DJANGO_TEST_EMAIL_BACKEND", default="django.core.mail.backends.locmem.EmailBackend")
# A real worker started by a test gets the test process's media folder through the environment.
MEDIA_ROOT = env("DJANGO_MEDIA_ROOT", default="") or tempfile.mkdtemp(prefix="cargos-test-media-")
STATIC_ROOT = tempfile.mkdtemp(prefix="cargos-test-static-")
# Always the local folder, whatever the shell says; tests of the S3 bucket override STORAGES with the
# same function (tests/core/test_storage_s3.py).
STORAGES = storages_from_env({})
# Tests decide per test whether a real worker is used; by default run tasks in-process.
CELERY_TASK_ALWAYS_EAGER = True
