"""The two PostgreSQL roles of a deployment (docs/security/database.md).

- the owner (`cargos_owner`): owns the schema, every table, sequence and trigger function; `migrate`
  (and `restore`) connect as it. Not a superuser.
- the application (`cargos_app`): LOGIN, owns nothing; SELECT, INSERT, UPDATE, DELETE on tables and
  USAGE, SELECT on sequences, today's and (ALTER DEFAULT PRIVILEGES) those the owner's future
  migrations create. Without ownership it cannot TRUNCATE, ALTER, DROP, disable a trigger or create a
  table, and as no superuser it cannot SET session_replication_role: the triggers of the money
  (assessments/ledger/guard.py) hold against it.

`statements()` is the SQL, run by `manage.py db_roles_setup` as a superuser (or printed for a DBA),
by deploy/smoke.py and by tests/core/test_db_roles.py (with throwaway role names).
"""
# ruff: noqa: S608  (DDL takes no parameters: names pass _ident's pattern, values are quoted by _literal)
from __future__ import annotations

import re

NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def _ident(name: str) -> str:
    if not NAME.match(name):
        raise ValueError(f"not a plain PostgreSQL name: {name!r}")
    return f'"{name}"'


def _literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _role(name: str, password: str | None, *, inherit: bool) -> list[str]:
    options = "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS " + (
        "INHERIT" if inherit else "NOINHERIT")
    if password:
        options += f" PASSWORD {_literal(password)}"
    return [
        f"""DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = {_literal(name)}) THEN
        CREATE ROLE {_ident(name)};
    END IF;
END $$""",
        f"ALTER ROLE {_ident(name)} {options}",
    ]


def statements(*, database: str, owner: str, app: str, owner_password: str | None = None,
               app_password: str | None = None, schema: str = "public") -> list[str]:
    """Idempotent: creates the roles or resets their attributes, hands every existing object of the
    schema to the owner (a database migrated before the split, as a superuser or an older single role)
    and grants the application role its rights. Run it again after adding an object by hand."""
    o, a, s, db = _ident(owner), _ident(app), _ident(schema), _ident(database)
    if owner == app:
        raise ValueError("the owner and the application need two different roles")
    return [
        *_role(owner, owner_password, inherit=True),
        *_role(app, app_password, inherit=False),
        f"ALTER DATABASE {db} OWNER TO {o}",
        f"REVOKE CREATE, TEMPORARY ON DATABASE {db} FROM PUBLIC",
        f"GRANT CONNECT ON DATABASE {db} TO {a}",
        f"ALTER SCHEMA {s} OWNER TO {o}",
        f"REVOKE CREATE ON SCHEMA {s} FROM PUBLIC",
        f"GRANT USAGE ON SCHEMA {s} TO {a}",
        # Tables, views and unlinked sequences first (a table's own sequences follow it), then functions.
        f"""DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT c.oid::regclass AS name, c.relkind FROM pg_class c
              WHERE c.relnamespace = {_literal(schema)}::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
                AND c.relowner <> {_literal(owner)}::regrole LOOP
        EXECUTE 'ALTER ' || CASE r.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
            WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END || ' ' || r.name || ' OWNER TO ' || {_literal(o)};
    END LOOP;
    FOR r IN SELECT c.oid::regclass AS name FROM pg_class c
              WHERE c.relnamespace = {_literal(schema)}::regnamespace AND c.relkind = 'S'
                AND c.relowner <> {_literal(owner)}::regrole LOOP
        EXECUTE 'ALTER SEQUENCE ' || r.name || ' OWNER TO ' || {_literal(o)};
    END LOOP;
    FOR r IN SELECT p.oid::regprocedure AS name FROM pg_proc p
              WHERE p.pronamespace = {_literal(schema)}::regnamespace AND p.prokind IN ('f', 'p')
                AND p.proowner <> {_literal(owner)}::regrole
                AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass
                                AND d.objid = p.oid AND d.deptype = 'e') LOOP
        EXECUTE 'ALTER ROUTINE ' || r.name || ' OWNER TO ' || {_literal(o)};
    END LOOP;
END $$""",
        f"REVOKE ALL ON ALL TABLES IN SCHEMA {s} FROM {a}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {s} TO {a}",
        f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {s} FROM {a}",
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {s} TO {a}",
        f"ALTER DEFAULT PRIVILEGES FOR ROLE {o} IN SCHEMA {s} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {a}",
        f"ALTER DEFAULT PRIVILEGES FOR ROLE {o} IN SCHEMA {s} GRANT USAGE, SELECT ON SEQUENCES TO {a}",
    ]
