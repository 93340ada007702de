"""manage.py backup / restore / documents_verify on PostgreSQL: a backup restored into a new empty
database and an empty media folder holds the same rows and the same documents, byte for byte; a
restore into a database that has tables is refused; documents_verify names exactly the altered and
the missing documents and exits non-zero.

The restore and the checks run in subprocesses (manage.py with DATABASE_URL and DJANGO_MEDIA_ROOT
pointing at the new database and folder), as on a new server; the data they read must be committed,
hence a transactional test."""
from __future__ import annotations

import hashlib
import io
import json
import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.core.management.base import CommandError

from core.models import AuditEntry, Document, DocumentOwner
from districts.models import Parcel, Party
from tests.conftest import require, using_postgres
from tests.portal.conftest import world  # noqa: F401  (fixture)

pytestmark = pytest.mark.postgres
TIMEOUT = 300   # seconds a subprocess may take before the test fails (a bound, not a speed check)


def _admin_connection():
    import psycopg

    db = settings.DATABASES["default"]
    return psycopg.connect(host=db.get("HOST") or None, port=db.get("PORT") or None, user=db.get("USER") or None,
                           password=db.get("PASSWORD") or None, dbname="postgres", autocommit=True)


@pytest.fixture
def restore_database():
    """A new, empty database on the same server (dropped afterwards), and its DATABASE_URL."""
    require(using_postgres(), "needs PostgreSQL: set DATABASE_URL=postgres://…")
    require(shutil.which("pg_dump") is not None and shutil.which("pg_restore") is not None,
            "needs pg_dump and pg_restore (postgresql-client)")
    db = settings.DATABASES["default"]
    name = f"{db['NAME'].removeprefix('test_')}_restore_{secrets.token_hex(4)}"
    with _admin_connection() as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    auth = quote(db.get("USER") or "", safe="") + (f":{quote(str(db['PASSWORD']), safe='')}" if db.get("PASSWORD")
                                                    else "")
    url = f"postgres://{auth}@{db.get('HOST') or 'localhost'}:{db.get('PORT') or 5432}/{name}"
    yield name, url
    with _admin_connection() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def manage(*args, url: str, media: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_MEDIA_ROOT": str(media),
           "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=settings.BASE_DIR, env=env, capture_output=True,
                          text=True, timeout=TIMEOUT, check=False)


def count(url: str, table: str) -> int:
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]  # noqa: S608 (our own table names)


@pytest.mark.django_db(transaction=True)
def test_backup_restores_into_an_empty_database_and_verifies(restore_database, world, tmp_path):  # noqa: F811
    name, url = restore_database
    documents = list(Document.objects.order_by("pk"))
    assert len(documents) >= 4
    default_storage.save("imports/extra.csv", ContentFile(b"cadastre,amount\n100-000-000-01,1.00\n"))

    out = io.StringIO()
    call_command("backup", str(tmp_path / "backups"), stdout=out)
    [folder] = (tmp_path / "backups").iterdir()
    assert folder.name.startswith("cargos-backup-") and not folder.name.endswith(".partial")
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["database"]["name"] == settings.DATABASES["default"]["NAME"]
    assert manifest["version"] and manifest["created_at"]
    listed = {f["name"]: f for f in manifest["files"]}
    for document in documents:
        assert listed[document.file.name]["sha256"] == document.sha256
    assert "imports/extra.csv" in listed
    for entry in manifest["files"]:
        content = (folder / "files" / entry["name"]).read_bytes()
        assert (hashlib.sha256(content).hexdigest(), len(content)) == (entry["sha256"], entry["size"])

    media = tmp_path / "restored-media"
    media.mkdir()
    result = manage("restore", str(folder), url=url, media=media)
    assert result.returncode == 0, result.stderr
    assert (media / "imports" / "extra.csv").read_bytes() == b"cadastre,amount\n100-000-000-01,1.00\n"

    for model in (Document, DocumentOwner, Party, Parcel, AuditEntry):
        assert count(url, model._meta.db_table) == model.objects.count(), model._meta.db_table

    result = manage("documents_verify", url=url, media=media)
    assert result.returncode == 0, result.stdout + result.stderr
    n = len(documents)
    assert f"checked {n}, ok {n}, missing 0, altered 0" in result.stdout

    # a second restore into the same (now full) database is refused, naming its tables
    result = manage("restore", str(folder), url=url, media=tmp_path / "other-media")
    assert result.returncode != 0
    assert "not empty" in result.stderr and "core_document" in result.stderr

    # one document altered, another deleted: exactly those two are reported
    altered, missing = documents[0], documents[1]
    with (media / altered.file.name).open("ab") as fh:
        fh.write(b"%% appended")
    (media / missing.file.name).unlink()
    result = manage("documents_verify", url=url, media=media)
    assert result.returncode != 0
    reported = [line for line in result.stdout.splitlines() if line.startswith(("MISSING", "ALTERED"))]
    assert sorted(reported) == sorted([
        f"ALTERED {altered.file.name} (document {altered.verification_code}, id {altered.pk}): "
        f"sha256 {hashlib.sha256((media / altered.file.name).read_bytes()).hexdigest()}, recorded {altered.sha256}",
        f"MISSING {missing.file.name} (document {missing.verification_code}, id {missing.pk})"])
    assert f"checked {n}, ok {n - 2}, missing 1, altered 1" in result.stdout


@pytest.mark.django_db(transaction=True)
def test_restore_refuses_to_replace_a_stored_file_with_other_content(restore_database, world, tmp_path):  # noqa: F811
    name, url = restore_database
    call_command("backup", str(tmp_path / "backups"), stdout=io.StringIO())
    [folder] = (tmp_path / "backups").iterdir()
    document = Document.objects.order_by("pk").first()
    media = tmp_path / "media"
    (media / document.file.name).parent.mkdir(parents=True)
    (media / document.file.name).write_bytes(b"another file under the same name")
    result = manage("restore", str(folder), url=url, media=media)
    assert result.returncode != 0
    assert document.file.name in result.stderr and "other content" in result.stderr
    assert count_tables(url) == 0       # refused before anything was restored


@pytest.mark.django_db(transaction=True)
def test_a_damaged_backup_is_refused_before_anything_is_restored(restore_database, world, tmp_path):  # noqa: F811
    name, url = restore_database
    call_command("backup", str(tmp_path / "backups"), stdout=io.StringIO())
    [folder] = (tmp_path / "backups").iterdir()
    entry = json.loads((folder / "manifest.json").read_text())["files"][0]
    (folder / "files" / entry["name"]).write_bytes(b"damaged")
    result = manage("restore", str(folder), url=url, media=tmp_path / "media")
    assert result.returncode != 0 and "damaged" in result.stderr and entry["name"] in result.stderr
    assert count_tables(url) == 0


def count_tables(url: str) -> int:
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()[0]


def test_backup_and_restore_refuse_sqlite(monkeypatch, tmp_path):
    from types import SimpleNamespace

    from core import backup

    sqlite = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "db.sqlite3"}}
    monkeypatch.setattr(backup, "settings", SimpleNamespace(DATABASES=sqlite, BASE_DIR=settings.BASE_DIR))
    with pytest.raises(CommandError, match="PostgreSQL only"):
        call_command("backup", str(tmp_path), stdout=io.StringIO())
    assert list(tmp_path.iterdir()) == []
