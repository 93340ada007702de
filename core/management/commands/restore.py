"""manage.py restore BACKUP: a backup folder (manage.py backup) into an empty database and the default storage.

Checks everything before changing anything: the manifest's SHA-256 of the dump and of every file,
that the database has no tables (unless --force), that no stored file would be replaced by other
content. Then pg_restore, then the files, each read back from the storage and checked against the
manifest. See docs/operations/backup-restore.md.
"""
from __future__ import annotations

from pathlib import Path

from django.core.files import File
from django.core.files.storage import default_storage
from django.core.management.base import BaseCommand, CommandError
from django.db import connections

from core import backup


class Command(BaseCommand):
    help = "Restore a backup folder into an empty PostgreSQL database and the default storage."

    def add_arguments(self, parser):
        parser.add_argument("backup", help="the backup folder (cargos-backup-…) written by manage.py backup")
        parser.add_argument("--database", default="default", help="database alias (default: default)")
        parser.add_argument("--force", action="store_true",
                            help="restore even if the database has tables (pg_restore --clean --if-exists "
                                 "drops and recreates the backed-up objects)")

    def handle(self, *args, **options):
        folder = Path(options["backup"]).resolve()
        database, force = options["database"], options["force"]
        manifest = backup.read_manifest(folder)
        db = backup.postgres_database(database)

        # 1. The backup is whole: the dump and every file match the manifest.
        dump_entry = manifest["database"]
        dump = backup.safe_member(folder, dump_entry["dump"])
        self._check_local(dump, dump_entry["sha256"], dump_entry["name"] + " dump")
        files = manifest["files"]
        for entry in files:
            self._check_local(backup.safe_member(folder / backup.FILES, entry["name"]), entry["sha256"],
                              entry["name"])

        # 2. The target database is empty.
        connection = connections[database]
        with connection.cursor() as cursor:
            tables = sorted(connection.introspection.table_names(cursor))
        if tables and not force:
            raise CommandError(f"the database {db['NAME']!r} is not empty; it has {len(tables)} tables: "
                               f"{', '.join(tables)}. Restore into a new empty database (createdb), or pass "
                               "--force to replace its contents.")
        connection.close()

        # 3. No stored file would be replaced by other content.
        present, conflicts = set(), []
        for entry in files:
            name = entry["name"]
            if default_storage.exists(name):
                with default_storage.open(name, "rb") as fh:
                    digest, _ = backup.sha256_stream(fh)
                if digest == entry["sha256"]:
                    present.add(name)
                else:
                    conflicts.append(name)
        if conflicts:
            raise CommandError("the storage already has files with these names and other content: "
                               + ", ".join(conflicts) + ". Restore into an empty storage (folder or bucket).")

        # 4. The database.
        extra = ["--clean", "--if-exists"] if force and tables else []
        argv, env = backup.pg_command("pg_restore", db, "--no-owner", "--no-acl", "--exit-on-error",
                                           "--single-transaction", *extra, f"--dbname={db['NAME']}", str(dump))
        backup.run(argv, env, "pg_restore")
        self.stdout.write(f"database {db['NAME']}: restored from {dump_entry['name']} ({manifest['created_at']})")

        # 5. The files, each read back from the storage and checked.
        restored = 0
        for entry in files:
            name = entry["name"]
            if name in present:
                continue
            source = backup.safe_member(folder / backup.FILES, name)
            with source.open("rb") as fh:
                saved = default_storage.save(name, File(fh, name=name))
            if saved != name:
                raise CommandError(f"the storage saved {name} as {saved}: was it written during the restore?")
            with default_storage.open(name, "rb") as fh:
                digest, _ = backup.sha256_stream(fh)
            if digest != entry["sha256"]:
                raise CommandError(f"{name}: the stored copy does not match the manifest's SHA-256")
            restored += 1
        self.stdout.write(f"files: {restored} restored, {len(present)} already present")
        self.stdout.write(self.style.SUCCESS(f"restored {folder.name}; check it with manage.py documents_verify"))

    def _check_local(self, path: Path, sha256: str, label: str) -> None:
        if not path.is_file():
            raise CommandError(f"the backup is incomplete: {label} is missing")
        with path.open("rb") as fh:
            digest, _ = backup.sha256_stream(fh)
        if digest != sha256:
            raise CommandError(f"the backup is damaged: {label} does not match its SHA-256 in the manifest")
