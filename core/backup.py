"""Backups: the PostgreSQL database (pg_dump custom format) and every file of the default storage.

Used by the `backup`, `restore` and `documents_verify` management commands. Everything about files
goes through the storage API (`default_storage`), so a backup works the same whether media live in
MEDIA_ROOT or in an S3 bucket. A backup is a folder:

    cargos-backup-20270701T043000Z/
        manifest.json     what is inside: created_at, app version, database, every file's size and SHA-256
        database.dump     pg_dump --format=custom --no-owner --no-acl
        files/<name>      each stored file under its storage name (documents/2027/07/XXXX-XXXX-XXXX.pdf, …)
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tomllib
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from django.conf import settings
from django.core.management.base import CommandError

from core.health import PROBE_DIR

MANIFEST = "manifest.json"
DUMP = "database.dump"
FILES = "files"
FORMAT = 1
CHUNK = 1024 * 1024


def sha256_stream(fh, chunk: int = CHUNK) -> tuple[str, int]:
    """The SHA-256 and size of a file object, read in chunks (never whole in memory)."""
    digest = hashlib.sha256()
    size = 0
    while block := fh.read(chunk):
        digest.update(block)
        size += len(block)
    return digest.hexdigest(), size


def copy_hashing(src, dst, chunk: int = CHUNK) -> tuple[str, int]:
    """Copy `src` to `dst` (file objects) in chunks; the SHA-256 and size of what was copied."""
    digest = hashlib.sha256()
    size = 0
    while block := src.read(chunk):
        digest.update(block)
        dst.write(block)
        size += len(block)
    return digest.hexdigest(), size


def walk_storage(storage, directory: str = "") -> Iterator[str]:
    """Every file name in `storage`, recursively, through `listdir` (a folder and a bucket alike)."""
    try:
        dirs, files = storage.listdir(directory)
    except FileNotFoundError:   # an empty MEDIA_ROOT that was never created
        return
    for name in sorted(files):
        yield f"{directory}/{name}" if directory else name
    for sub in sorted(dirs):
        if not directory and sub == PROBE_DIR:
            continue  # /readyz's probe files come and go while a backup walks the storage
        yield from walk_storage(storage, f"{directory}/{sub}" if directory else sub)


def safe_member(root: Path, name: str) -> Path:
    """`root/name` for a storage name from a manifest, refusing absolute names and `..`."""
    pure = PurePosixPath(name)
    if not name or pure.is_absolute() or ".." in pure.parts or "\\" in name:
        raise CommandError(f"unsafe file name in the backup: {name!r}")
    return root.joinpath(*pure.parts)


def app_version() -> str:
    """config.version.VERSION when it exists, else pyproject.toml's version."""
    try:
        from config import version  # type: ignore[attr-defined]

        return str(getattr(version, "VERSION", getattr(version, "__version__", "")))
    except ImportError:
        pass
    pyproject = Path(settings.BASE_DIR) / "pyproject.toml"
    try:
        return tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"


def postgres_database(alias: str = "default") -> dict:
    """The database settings, refusing anything but PostgreSQL with a clear message."""
    db = settings.DATABASES[alias]
    if "postgresql" not in db["ENGINE"]:
        raise CommandError(
            f"backup and restore support PostgreSQL only; the {alias!r} database uses {db['ENGINE']}. "
            "A SQLite development database is backed up by copying its file (and MEDIA_ROOT) while the "
            "application is stopped.")
    return db


def pg_command(program: str, db: dict, *args: str) -> tuple[list[str], dict]:
    """argv and environment for pg_dump / pg_restore / psql on `db`: the password only in PGPASSWORD,
    never on the command line (where `ps` shows it)."""
    exe = shutil.which(program)
    if exe is None:
        raise CommandError(f"{program} is not installed (Debian: apt-get install postgresql-client)")
    argv = [exe]
    if db.get("HOST"):
        argv.append(f"--host={db['HOST']}")
    if db.get("PORT"):
        argv.append(f"--port={db['PORT']}")
    if db.get("USER"):
        argv.append(f"--username={db['USER']}")
    argv.append("--no-password")
    argv.extend(args)
    env = {**os.environ}
    env.pop("PGPASSWORD", None)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    options = db.get("OPTIONS") or {}
    for option, variable in (("sslmode", "PGSSLMODE"), ("sslrootcert", "PGSSLROOTCERT"),
                             ("sslcert", "PGSSLCERT"), ("sslkey", "PGSSLKEY")):
        if options.get(option):
            env[variable] = str(options[option])
    return argv, env


def run(argv: list[str], env: dict, what: str) -> str:
    """Run a PostgreSQL client; its stderr becomes the CommandError when it fails."""
    result = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)  # noqa: S603
    if result.returncode != 0:
        raise CommandError(f"{what} failed (exit {result.returncode}): {result.stderr.strip()}")
    return result.stdout


def read_manifest(backup: Path) -> dict:
    path = backup / MANIFEST
    if not path.is_file():
        raise CommandError(f"{backup} is not a backup: no {MANIFEST}")
    manifest = json.loads(path.read_text(encoding="utf-8"))
    if manifest.get("format") != FORMAT:
        raise CommandError(f"unknown backup format {manifest.get('format')!r} (this version reads {FORMAT})")
    return manifest
