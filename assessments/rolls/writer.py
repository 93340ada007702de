"""Bulk writes of roll lines: COPY on PostgreSQL, bulk_create elsewhere, in bounded batches."""
from __future__ import annotations

import json

from django.db import connection

COLUMNS = ("roll_id", "parcel_id", "cadastre", "weight", "share", "credit", "total", "exempt_reason", "detail")


class LineWriter:
    """Collects line tuples (in COLUMNS order) and writes them in batches; memory stays bounded."""

    def __init__(self, batch_size: int = 5000) -> None:
        self.batch_size = batch_size
        self.rows: list[tuple] = []
        self.written = 0
        self._copy = connection.vendor == "postgresql"

    def add(self, row: tuple) -> None:
        self.rows.append(row)
        if len(self.rows) >= self.batch_size:
            self.flush()

    def flush(self) -> None:
        if not self.rows:
            return
        if self._copy:
            self._copy_rows()
        else:
            self._bulk_create()
        self.written += len(self.rows)
        self.rows = []

    def _copy_rows(self) -> None:
        from assessments.rolls.models import RollLine

        table = RollLine._meta.db_table
        with connection.cursor() as cursor, cursor.cursor.copy(
                f"COPY {table} ({', '.join(COLUMNS)}) FROM STDIN") as copy:
            for row in self.rows:
                copy.write_row(row)

    def _bulk_create(self) -> None:
        from assessments.rolls.models import RollLine

        RollLine.objects.bulk_create(
            [RollLine(**dict(zip(COLUMNS, row[:-1] + (json.loads(row[-1]),), strict=True))) for row in self.rows])
