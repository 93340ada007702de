"""The deployment's two PostgreSQL roles inside a test's transaction (core/db_roles.py with throwaway
names): created, given the tables, and all of it rolled back with the test. Roles are cluster-wide,
so each test's names are unique (other runs may share the server)."""
from __future__ import annotations

import contextlib
import uuid

from django.db import connection

from core.db_roles import statements


@contextlib.contextmanager
def roles():
    """Yield (owner, app) role names, set up on the test database as `db_roles_setup` would."""
    suffix = uuid.uuid4().hex[:10]
    owner, app = f"test_cargos_owner_{suffix}", f"test_cargos_app_{suffix}"
    with connection.cursor() as cursor:
        # Django's foreign keys are deferred: their checks pending from the test's rows would stop ALTER TABLE.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        for sql in statements(database=connection.settings_dict["NAME"], owner=owner, app=app):
            cursor.execute(sql)
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
    yield owner, app


@contextlib.contextmanager
def acting_as(role: str):
    """The test connection as `role` (SET ROLE), then back to the test's own superuser."""
    with connection.cursor() as cursor:
        cursor.execute(f'SET ROLE "{role}"')
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET ROLE")


def execute(sql: str, params=None) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
