"""The ledger is append-only: the database itself refuses UPDATE and DELETE of its entries.

PostgreSQL: a plpgsql trigger function raising an exception. SQLite: BEFORE UPDATE / BEFORE
DELETE triggers with RAISE(ABORT). Corrections are new entries (REVERSAL, ADJUSTMENT).
assessments/ledger/guard.py holds the same statements (for tests that must empty the table).
"""
from django.db import migrations

TABLE = "assessments_ledgerentry"
MESSAGE = "assessments_ledgerentry is append-only: post a reversal or an adjustment instead"

POSTGRES_UP = [
    f"""CREATE OR REPLACE FUNCTION assessments_ledger_append_only() RETURNS trigger AS $$
BEGIN
    -- No percent placeholder here: the statement goes through a DB-API cursor that reads it as a parameter.
    RAISE EXCEPTION USING MESSAGE = '{MESSAGE} (' || TG_OP || ' refused)', ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql""",
    f"""CREATE TRIGGER assessments_ledger_append_only BEFORE UPDATE OR DELETE ON {TABLE}
FOR EACH ROW EXECUTE FUNCTION assessments_ledger_append_only()""",
]
POSTGRES_DOWN = [
    f"DROP TRIGGER IF EXISTS assessments_ledger_append_only ON {TABLE}",
    "DROP FUNCTION IF EXISTS assessments_ledger_append_only()",
]
SQLITE_UP = [
    f"""CREATE TRIGGER IF NOT EXISTS assessments_ledger_no_update BEFORE UPDATE ON {TABLE}
BEGIN SELECT RAISE(ABORT, '{MESSAGE} (UPDATE refused)'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS assessments_ledger_no_delete BEFORE DELETE ON {TABLE}
BEGIN SELECT RAISE(ABORT, '{MESSAGE} (DELETE refused)'); END""",
]
SQLITE_DOWN = [
    "DROP TRIGGER IF EXISTS assessments_ledger_no_update",
    "DROP TRIGGER IF EXISTS assessments_ledger_no_delete",
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        if vendor not in statements_by_vendor:
            raise RuntimeError(f"no append-only guard for database vendor {vendor!r}")
        for sql in statements_by_vendor[vendor]:
            schema_editor.execute(sql)
    return run


class Migration(migrations.Migration):
    dependencies = [("assessments", "0001_initial")]

    operations = [
        migrations.RunPython(_run({"postgresql": POSTGRES_UP, "sqlite": SQLITE_UP}),
                             _run({"postgresql": POSTGRES_DOWN, "sqlite": SQLITE_DOWN})),
    ]
