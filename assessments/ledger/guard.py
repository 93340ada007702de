"""The database's guards of the money (the statements of the migrations below), lifted and put back.

- assessments 0002: the ledger is append-only (UPDATE and DELETE refused);
- assessments 0003: payments, receivables and installments keep their amounts and dates, are never
  deleted, and the ledger and those tables refuse TRUNCATE;
- rolls 0003: the lines of a certified or finalized roll never change; a roll's status only moves forward.

Only for tooling that must empty the tables wholesale as the owner of the tables — a test database
being flushed between transactional tests (PostgreSQL's flush is a TRUNCATE, SQLite's a DELETE), a
benchmark database. Application code never calls these, and the application's database role could
not run them: dropping a trigger takes the table's owner (docs/security/database.md).
"""
from __future__ import annotations

import importlib

_MIGRATIONS = [importlib.import_module(name) for name in (
    "assessments.migrations.0002_ledger_append_only",
    "assessments.migrations.0003_money_guards",
    "assessments.rolls.migrations.0003_certified_lines_frozen",
)]


def _down(vendor: str) -> list[str]:
    attr = {"postgresql": "POSTGRES_DOWN", "sqlite": "SQLITE_DOWN"}[vendor]
    return [sql for m in reversed(_MIGRATIONS) for sql in getattr(m, attr)]


def _up(vendor: str) -> list[str]:
    attr = {"postgresql": "POSTGRES_UP", "sqlite": "SQLITE_UP"}[vendor]
    return [sql for m in _MIGRATIONS for sql in getattr(m, attr)]


def guard_remove(connection) -> None:
    with connection.cursor() as cursor:
        for sql in _down(connection.vendor):
            cursor.execute(sql)


def guard_install(connection) -> None:
    """Idempotent: every guard is dropped if present and created again."""
    with connection.cursor() as cursor:
        for sql in _down(connection.vendor) + _up(connection.vendor):
            cursor.execute(sql)


def guard_installed(connection) -> bool:
    """Whether the TRUNCATE guard of the ledger is there (PostgreSQL) or its DELETE guard (SQLite)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT 1 FROM pg_trigger WHERE tgname = 'assessments_ledgerentry_no_truncate'")
        else:
            cursor.execute("SELECT 1 FROM sqlite_master WHERE type = 'trigger'"
                           " AND name = 'assessments_ledger_no_delete'")
        return cursor.fetchone() is not None
