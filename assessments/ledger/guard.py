"""The append-only guard of the ledger table (the statements of migration 0002).

Only for tooling that must empty the table wholesale — a test database being flushed between
transactional tests on SQLite, whose flush is a DELETE. Application code never calls these.
"""
from __future__ import annotations

import importlib

_migration = importlib.import_module("assessments.migrations.0002_ledger_append_only")


def guard_remove(connection) -> None:
    statements = {"postgresql": _migration.POSTGRES_DOWN, "sqlite": _migration.SQLITE_DOWN}[connection.vendor]
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def guard_install(connection) -> None:
    statements = {"postgresql": _migration.POSTGRES_DOWN + _migration.POSTGRES_UP,
                  "sqlite": _migration.SQLITE_UP}[connection.vendor]
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)
