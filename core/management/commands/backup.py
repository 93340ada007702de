"""manage.py backup DEST: the database and every stored file, with a manifest (core/backup.py).

Writes DEST/cargos-backup-<UTC timestamp>/ (first as `.partial`, renamed when complete, so a folder
without that suffix is always a whole backup). PostgreSQL only. See docs/operations/backup-restore.md.
"""
from __future__ import annotations

import json
from pathlib import Path

from django.core.files.storage import default_storage, storages
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from core import backup


class Command(BaseCommand):
    help = "Back up the PostgreSQL database (pg_dump) and every file of the default storage into DEST."

    def add_arguments(self, parser):
        parser.add_argument("dest", help="folder in which the timestamped backup folder is created")
        parser.add_argument("--database", default="default", help="database alias (default: default)")

    def handle(self, *args, dest, database, **options):
        db = backup.postgres_database(database)
        created = timezone.now()
        root = Path(dest).resolve()
        root.mkdir(parents=True, exist_ok=True)
        name = f"cargos-backup-{created:%Y%m%dT%H%M%SZ}"
        final = root / name
        partial = root / f"{name}.partial"
        if final.exists() or partial.exists():
            raise CommandError(f"{final} already exists; wait a second or choose another folder")
        partial.mkdir()

        # The database first: files referenced by rows written after the dump are still copied
        # (a few unreferenced files), never the other way round (a row whose file is missing).
        dump = partial / backup.DUMP
        argv, env = backup.pg_command("pg_dump", db, "--format=custom", "--no-owner", "--no-acl",
                                      f"--file={dump}", f"--dbname={db['NAME']}")
        backup.run(argv, env, "pg_dump")
        with dump.open("rb") as fh:
            dump_sha, dump_size = backup.sha256_stream(fh)
        self.stdout.write(f"database {db['NAME']}: {dump_size} bytes")

        files = []
        total = 0
        for stored in backup.walk_storage(default_storage):
            target = backup.safe_member(partial / backup.FILES, stored)
            target.parent.mkdir(parents=True, exist_ok=True)
            with default_storage.open(stored, "rb") as src, target.open("wb") as dst:
                digest, size = backup.copy_hashing(src, dst)
            files.append({"name": stored, "size": size, "sha256": digest})
            total += size
        manifest = {
            "format": backup.FORMAT,
            "created_at": created.isoformat(),
            "version": backup.app_version(),
            "database": {"vendor": "postgresql", "name": db["NAME"], "dump": backup.DUMP,
                         "size": dump_size, "sha256": dump_sha},
            "storage": f"{type(storages['default']).__module__}.{type(storages['default']).__name__}",
            "files": files,
        }
        (partial / backup.MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n",
                                               encoding="utf-8")
        partial.rename(final)
        self.stdout.write(f"files: {len(files)} ({total} bytes)")
        self.stdout.write(self.style.SUCCESS(f"backup written to {final}"))
        return None
