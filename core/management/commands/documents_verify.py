"""manage.py documents_verify: every issued document's stored PDF against its recorded SHA-256.

Streams each file from the default storage (a folder or a bucket) in chunks and walks the table
with .iterator(), so memory stays flat however many documents there are. Prints one line per
missing or altered document and the counts; exits non-zero when any is missing or altered.
"""
from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from core import backup
from core.models import Document


class Command(BaseCommand):
    help = "Re-hash every stored document against its recorded SHA-256; non-zero exit if any is missing or altered."

    def add_arguments(self, parser):
        parser.add_argument("--chunk-size", type=int, default=500, help="rows fetched per query (default 500)")

    def handle(self, *args, chunk_size: int, **options):
        checked = ok = missing = altered = 0
        rows = (Document.objects.order_by("pk").only("pk", "verification_code", "file", "sha256")
                .iterator(chunk_size=chunk_size))
        for document in rows:
            checked += 1
            name = document.file.name
            label = f"{name} (document {document.verification_code}, id {document.pk})"
            try:
                with document.file.storage.open(name, "rb") as fh:
                    digest, _ = backup.sha256_stream(fh)
            except FileNotFoundError:
                missing += 1
                self.stdout.write(f"MISSING {label}")
                continue
            if digest != document.sha256:
                altered += 1
                self.stdout.write(f"ALTERED {label}: sha256 {digest}, recorded {document.sha256}")
                continue
            ok += 1
        summary = f"checked {checked}, ok {ok}, missing {missing}, altered {altered}"
        if missing or altered:
            self.stdout.write(summary)
            raise CommandError(f"{missing + altered} document(s) missing or altered")
        self.stdout.write(self.style.SUCCESS(summary))
