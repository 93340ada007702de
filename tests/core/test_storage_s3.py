"""Media in an S3-compatible bucket (config/storage.py): documents are stored, read back, hashed,
downloaded and verified through the storage API, and a letterhead kept in the bucket heads a notice.

The bucket is moto's S3 server on 127.0.0.1 (requirements-dev.txt), driven over HTTP by boto3 exactly
as a real bucket would be; STORAGES comes from the same `storages_from_env` production uses."""
from __future__ import annotations

import hashlib
import io
import json
import secrets
import shutil
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.exceptions import ImproperlyConfigured
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.core.management.base import CommandError
from pypdf import PdfReader

from config.storage import storages_from_env
from core.documents import pdf
from core.models import Document
from tests.conftest import require
from tests.portal.conftest import world  # noqa: F401  (fixture)

REGION = "us-east-1"


# --- The settings ------------------------------------------------------------------------------

def test_filesystem_is_the_default():
    storages = storages_from_env({})
    assert storages["default"] == {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    assert storages["staticfiles"]["BACKEND"] == "django.contrib.staticfiles.storage.StaticFilesStorage"
    whitenoise = "whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert storages_from_env({}, staticfiles_backend=whitenoise)["staticfiles"] == {"BACKEND": whitenoise}


def test_s3_is_private_signed_and_never_overwrites():
    storages = storages_from_env({
        "DJANGO_STORAGE_BACKEND": "S3", "AWS_STORAGE_BUCKET_NAME": "cargos-media",
        "AWS_S3_ENDPOINT_URL": "https://minio.example:9000", "AWS_S3_REGION_NAME": "us-east-1",
        "AWS_ACCESS_KEY_ID": "key", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_S3_ADDRESSING_STYLE": "path"})
    default = storages["default"]
    assert default["BACKEND"] == "storages.backends.s3.S3Storage"
    options = default["OPTIONS"]
    assert options["bucket_name"] == "cargos-media"
    assert options["default_acl"] is None and options["querystring_auth"] is True
    assert options["file_overwrite"] is False
    assert options["endpoint_url"] == "https://minio.example:9000" and options["addressing_style"] == "path"
    assert (options["access_key"], options["secret_key"]) == ("key", "secret")
    # without keys boto3 uses its own chain (instance role, ~/.aws): nothing is invented
    bare = storages_from_env({"DJANGO_STORAGE_BACKEND": "s3", "AWS_STORAGE_BUCKET_NAME": "b"})["default"]["OPTIONS"]
    assert "access_key" not in bare and "secret_key" not in bare and "endpoint_url" not in bare


@pytest.mark.parametrize("environ", [{"DJANGO_STORAGE_BACKEND": "s3"}, {"DJANGO_STORAGE_BACKEND": "ftp"}])
def test_a_bucket_without_a_name_or_an_unknown_backend_is_refused(environ):
    with pytest.raises(ImproperlyConfigured):
        storages_from_env(environ)


# --- A bucket ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def s3_endpoint():
    try:
        from moto.server import ThreadedMotoServer
    except ImportError:
        require(False, "needs moto[server] (requirements-dev.txt) for the S3 stand-in")
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture
def bucket(s3_endpoint, settings, monkeypatch):
    """A fresh bucket, and STORAGES pointing at it through config.storage (as production reads it)."""
    import boto3

    # moto accepts any keys; keep boto3 away from the developer's own AWS configuration
    monkeypatch.setenv("AWS_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
    name = f"cargos-test-{secrets.token_hex(4)}"
    environ = {"DJANGO_STORAGE_BACKEND": "s3", "AWS_STORAGE_BUCKET_NAME": name, "AWS_S3_ENDPOINT_URL": s3_endpoint,
               "AWS_S3_REGION_NAME": REGION, "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
               "AWS_S3_ADDRESSING_STYLE": "path"}
    client = boto3.client("s3", endpoint_url=s3_endpoint, region_name=REGION, aws_access_key_id="testing",
                          aws_secret_access_key="testing")
    client.create_bucket(Bucket=name)
    settings.STORAGES = storages_from_env(environ)
    pdf.reset_caches()
    yield client, name
    pdf.reset_caches()


def keys(client, name) -> set[str]:
    return {o["Key"] for page in client.get_paginator("list_objects_v2").paginate(Bucket=name)
            for o in page.get("Contents", [])}


def streamed(response) -> bytes:
    return b"".join(response.streaming_content)


def test_documents_are_stored_in_the_bucket_read_back_and_downloaded(bucket, world, client):  # noqa: F811
    s3, name = bucket
    from storages.backends.s3 import S3Storage

    assert isinstance(default_storage._wrapped, S3Storage)
    documents = list(Document.objects.all())
    assert len(documents) >= 4          # two notices, two receipts
    stored = keys(s3, name)
    for document in documents:
        assert document.file.name in stored
        assert not (Path(django_settings.MEDIA_ROOT) / document.file.name).exists()   # nothing on the disk
        with default_storage.open(document.file.name, "rb") as fh:
            content = fh.read()
        assert hashlib.sha256(content).hexdigest() == document.sha256 and len(content) == document.size_bytes

    url = default_storage.url(world.notice_a.document.file.name)
    assert "X-Amz-Signature=" in url and "X-Amz-Expires=300" in url     # signed and short-lived, never public

    client.force_login(world.ana_user)                   # the owner's portal
    response = client.get(f"/portal/avisos/{world.notice_a.pk}/pdf/")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert hashlib.sha256(streamed(response)).hexdigest() == world.notice_a.document.sha256

    response = client.get(f"/portal/pagos/{world.payment_a.pk}/recibo/")
    assert response.status_code == 200
    receipt = Document.objects.filter(kind=Document.Kind.RECEIPT, owners__party_id=world.ana.pk).get()
    assert hashlib.sha256(streamed(response)).hexdigest() == receipt.sha256


def test_staff_download_and_verification_read_the_bucket(bucket, world, client, staff_user):  # noqa: F811
    s3, name = bucket
    document = world.notice_b.document
    client.force_login(staff_user)
    response = client.get(f"/documentos/{document.pk}/pdf/")
    assert response.status_code == 200
    assert hashlib.sha256(streamed(response)).hexdigest() == document.sha256

    out = io.StringIO()
    call_command("documents_verify", stdout=out)
    checked = Document.objects.count()
    assert f"checked {checked}, ok {checked}, missing 0, altered 0" in out.getvalue()

    s3.delete_object(Bucket=name, Key=document.file.name)
    s3.put_object(Bucket=name, Key=world.notice_a.document.file.name, Body=b"%PDF-1.7 altered")
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("documents_verify", stdout=out)
    lines = out.getvalue().splitlines()
    assert {tuple(line.split()[0:2]) for line in lines[:-1]} == {
        ("MISSING", document.file.name), ("ALTERED", world.notice_a.document.file.name)}
    assert len(lines) == 3
    assert lines[-1] == f"checked {checked}, ok {checked - 2}, missing 1, altered 1"


def test_a_notice_is_headed_by_a_letterhead_kept_in_the_bucket(bucket, staff_user):
    from PIL import Image

    from assessments.notices import services
    from districts.models import Office
    from tests import factories
    from tests.notices.test_notice_document import TREASURY, _charge

    s3, name = bucket
    office = factories.office(name=TREASURY, kind=Office.Kind.TREASURY)
    buffer = io.BytesIO()
    Image.new("RGB", (300, 80), "#0b3d63").save(buffer, format="PNG")
    office.letterhead.save("membrete.png", ContentFile(buffer.getvalue()), save=True)
    assert office.letterhead.name in keys(s3, name)
    notice = services.notice_issue(receivable=_charge(staff_user, program="IRR", office=office), actor=staff_user)
    with notice.document.file.open("rb") as fh:
        content = fh.read()
    assert hashlib.sha256(content).hexdigest() == notice.document.sha256
    page = PdfReader(io.BytesIO(content)).pages[0]
    assert len(page.images) == 3     # the letterhead, the barcode and the QR code


@pytest.fixture
def pg_dump_ready(postgres_only):
    require(shutil.which("pg_dump") is not None, "needs pg_dump (postgresql-client)")


def test_a_backup_copies_every_object_of_the_bucket(pg_dump_ready, bucket, world, tmp_path):  # noqa: F811
    s3, name = bucket
    call_command("backup", str(tmp_path), stdout=io.StringIO())
    [folder] = tmp_path.iterdir()
    manifest = json.loads((folder / "manifest.json").read_text())
    assert {f["name"] for f in manifest["files"]} == keys(s3, name)
    assert manifest["storage"] == "storages.backends.s3.S3Storage"
    for entry in manifest["files"]:
        content = (folder / "files" / entry["name"]).read_bytes()
        assert hashlib.sha256(content).hexdigest() == entry["sha256"] == hashlib.sha256(
            s3.get_object(Bucket=name, Key=entry["name"])["Body"].read()).hexdigest()
