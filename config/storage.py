"""Where uploaded and generated files live: the STORAGES setting, chosen from the environment.

One function for every settings module (base, production, tests), so what the tests exercise is
what production runs:

- ``DJANGO_STORAGE_BACKEND=filesystem`` (default): MEDIA_ROOT on the local disk.
- ``DJANGO_STORAGE_BACKEND=s3``: an S3-compatible bucket through django-storages (AWS S3, MinIO,
  Ceph, …): ``AWS_STORAGE_BUCKET_NAME`` (required), ``AWS_S3_ENDPOINT_URL`` (blank for AWS itself),
  ``AWS_S3_REGION_NAME``, ``AWS_ACCESS_KEY_ID`` / ``AWS_SECRET_ACCESS_KEY`` (blank: boto3's own chain,
  e.g. an instance role), ``AWS_LOCATION`` (a key prefix), ``AWS_S3_ADDRESSING_STYLE`` (``path`` for
  most self-hosted servers), ``AWS_QUERYSTRING_EXPIRE`` (seconds a signed URL lives, default 300).

Objects are private: no ACL is sent (the bucket's policy decides, which must not be public), every
URL is signed and short-lived, and a name is never overwritten (a second file with the same name gets
a fresh one), so a document's stored bytes can only be what was hashed when it was issued.
"""
from __future__ import annotations

import os
from collections.abc import Mapping

from django.core.exceptions import ImproperlyConfigured

FILESYSTEM = "filesystem"
S3 = "s3"
BACKENDS = (FILESYSTEM, S3)
STATICFILES_DEFAULT = "django.contrib.staticfiles.storage.StaticFilesStorage"


def s3_options(environ: Mapping[str, str]) -> dict:
    """django-storages S3Storage options from the environment (secrets only from there)."""
    bucket = (environ.get("AWS_STORAGE_BUCKET_NAME") or "").strip()
    if not bucket:
        raise ImproperlyConfigured("DJANGO_STORAGE_BACKEND=s3 needs AWS_STORAGE_BUCKET_NAME")
    options = {
        "bucket_name": bucket,
        "default_acl": None,            # private: no public-read ACL on any object
        "querystring_auth": True,       # every URL is signed …
        "querystring_expire": int(environ.get("AWS_QUERYSTRING_EXPIRE") or 300),   # … and short-lived
        "file_overwrite": False,        # a stored document is never replaced under its name
        "signature_version": "s3v4",
    }
    optional = {"endpoint_url": "AWS_S3_ENDPOINT_URL", "region_name": "AWS_S3_REGION_NAME",
                "access_key": "AWS_ACCESS_KEY_ID", "secret_key": "AWS_SECRET_ACCESS_KEY",
                "location": "AWS_LOCATION", "addressing_style": "AWS_S3_ADDRESSING_STYLE"}
    for option, variable in optional.items():
        value = (environ.get(variable) or "").strip()
        if value:
            options[option] = value
    return options


def storages_from_env(environ: Mapping[str, str] | None = None, *,
                      staticfiles_backend: str = STATICFILES_DEFAULT) -> dict:
    """The STORAGES setting: `default` from DJANGO_STORAGE_BACKEND, `staticfiles` as given
    (production passes WhiteNoise's compressed manifest storage)."""
    environ = os.environ if environ is None else environ
    backend = (environ.get("DJANGO_STORAGE_BACKEND") or FILESYSTEM).strip().lower()
    if backend == FILESYSTEM:
        default = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    elif backend == S3:
        default = {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": s3_options(environ)}
    else:
        raise ImproperlyConfigured(f"DJANGO_STORAGE_BACKEND must be one of {', '.join(BACKENDS)}, not {backend!r}")
    return {"default": default, "staticfiles": {"BACKEND": staticfiles_backend}}
