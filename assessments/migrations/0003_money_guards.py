"""The database guards the money: payments, receivables and installments refuse the changes no service
makes, and the ledger and payments refuse TRUNCATE (docs/security/database.md).

Allowed after a row is written (everything else is refused by a trigger, whoever connects):
- assessments_payment: status (POSTED -> RETURNED only), returned_on, return_reason, updated_at
  (payment_return); never DELETE.
- assessments_receivable: status, creates_lien, updated_at (allocation, billing and supplements);
  never DELETE.
- assessments_installment: nothing (due dates and amounts are fixed when the charge is made);
  never DELETE.
- assessments_ledgerentry (0002 refuses UPDATE and DELETE) and the three tables above: no TRUNCATE.

PostgreSQL: plpgsql trigger functions; a row's columns are compared through to_jsonb(), so a column
added later is protected unless a migration adds it to the allowed list. SQLite: BEFORE triggers with
RAISE(ABORT) on the columns that exist now (SQLite has no TRUNCATE: its DELETE triggers cover it).
assessments/ledger/guard.py runs the same statements (for tests and benchmarks that empty tables).
"""
from django.db import migrations

ERR = "ERRCODE = 'integrity_constraint_violation'"

# table -> (rule, columns that may change, every column now (for SQLite), delete refused)
GUARDED = {
    "assessments_payment": (
        "a recorded payment keeps its amount, account, date and receipt; only a returned check is marked",
        ["status", "returned_on", "return_reason", "updated_at"],
        ["id", "created_at", "receipt_number", "receipt_year", "receipt_seq", "account_id", "paid_on", "method",
         "amount", "payer_name", "payer_party_id", "check_number", "reference", "source", "idempotency_key",
         "batch_id", "recorded_by_id"],
    ),
    "assessments_receivable": (
        "a charge keeps its amount, account, fund and terms; corrections are adjustments",
        ["status", "creates_lien", "updated_at"],
        ["id", "created_at", "kind", "account_id", "fund_id", "office_id", "source_type", "source_id",
         "description", "breakdown", "surcharge_rule", "surcharge_terms", "payment_reference", "issued_on",
         "amount", "created_by_id"],
    ),
    "assessments_installment": (
        "an installment keeps its amount and due date once created",
        [],
        ["id", "receivable_id", "seq", "due_date", "amount"],
    ),
}
NO_TRUNCATE = {
    "assessments_ledgerentry": "the ledger is append-only",
    "assessments_payment": "payments are never deleted",
    "assessments_receivable": "charges are never deleted",
    "assessments_installment": "installments are never deleted",
}


def _pg_guard(table: str, rule: str, allowed: list[str]) -> list[str]:
    allowed_sql = "ARRAY[" + ", ".join(f"'{c}'" for c in allowed) + "]::text[]"
    extra = ""
    if table == "assessments_payment":
        extra = f"""
    IF OLD.status = 'RETURNED' AND (NEW.status, NEW.returned_on, NEW.return_reason)
            IS DISTINCT FROM (OLD.status, OLD.returned_on, OLD.return_reason) THEN
        RAISE EXCEPTION USING MESSAGE = '{table}: a returned payment stays returned (UPDATE refused)', {ERR};
    END IF;"""
    # No percent sign anywhere: the statement goes through a DB-API cursor that reads it as a placeholder.
    return [
        f"""CREATE OR REPLACE FUNCTION {table}_guard() RETURNS trigger AS $$
DECLARE
    changed text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION USING MESSAGE = '{table}: rows are never deleted; {rule} (DELETE refused)', {ERR};
    END IF;
    SELECT string_agg(n.key, ', ' ORDER BY n.key) INTO changed
      FROM jsonb_each(to_jsonb(NEW)) AS n
     WHERE NOT (n.key = ANY ({allowed_sql})) AND n.value IS DISTINCT FROM (to_jsonb(OLD) -> n.key);
    IF changed IS NOT NULL THEN
        RAISE EXCEPTION USING MESSAGE = '{table}: {rule}; column(s) ' || changed || ' may not change (UPDATE refused)',
            {ERR};
    END IF;{extra}
    RETURN NEW;
END;
$$ LANGUAGE plpgsql""",
        f"""CREATE TRIGGER {table}_guard BEFORE UPDATE OR DELETE ON {table}
FOR EACH ROW EXECUTE FUNCTION {table}_guard()""",
    ]


POSTGRES_UP = [
    f"""CREATE OR REPLACE FUNCTION cargos_refuse_truncate() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION USING MESSAGE = TG_TABLE_NAME || ': ' || TG_ARGV[0] || ' (TRUNCATE refused)', {ERR};
END;
$$ LANGUAGE plpgsql""",
]
for _table, (_rule, _allowed, _cols) in GUARDED.items():
    POSTGRES_UP += _pg_guard(_table, _rule, _allowed)
for _table, _rule in NO_TRUNCATE.items():
    POSTGRES_UP.append(f"""CREATE TRIGGER {_table}_no_truncate BEFORE TRUNCATE ON {_table}
FOR EACH STATEMENT EXECUTE FUNCTION cargos_refuse_truncate('{_rule}')""")

POSTGRES_DOWN = [f"DROP TRIGGER IF EXISTS {t}_no_truncate ON {t}" for t in NO_TRUNCATE]
POSTGRES_DOWN += [f"DROP TRIGGER IF EXISTS {t}_guard ON {t}" for t in GUARDED]
POSTGRES_DOWN += [f"DROP FUNCTION IF EXISTS {t}_guard()" for t in GUARDED]
POSTGRES_DOWN += ["DROP FUNCTION IF EXISTS cargos_refuse_truncate()"]

SQLITE_UP = []
for _table, (_rule, _allowed, _cols) in GUARDED.items():
    _changed = " OR ".join(f"NEW.{c} IS NOT OLD.{c}" for c in _cols)
    SQLITE_UP += [
        f"""CREATE TRIGGER IF NOT EXISTS {_table}_no_update BEFORE UPDATE ON {_table} WHEN {_changed}
BEGIN SELECT RAISE(ABORT, '{_table}: {_rule} (UPDATE refused)'); END""",
        f"""CREATE TRIGGER IF NOT EXISTS {_table}_no_delete BEFORE DELETE ON {_table}
BEGIN SELECT RAISE(ABORT, '{_table}: rows are never deleted; {_rule} (DELETE refused)'); END""",
    ]
SQLITE_UP.append(
    """CREATE TRIGGER IF NOT EXISTS assessments_payment_stays_returned BEFORE UPDATE ON assessments_payment
WHEN OLD.status = 'RETURNED' AND (NEW.status IS NOT OLD.status OR NEW.returned_on IS NOT OLD.returned_on
     OR NEW.return_reason IS NOT OLD.return_reason)
BEGIN SELECT RAISE(ABORT, 'assessments_payment: a returned payment stays returned (UPDATE refused)'); END""")
SQLITE_DOWN = [f"DROP TRIGGER IF EXISTS {t}_{op}" for t in GUARDED for op in ("no_update", "no_delete")]
SQLITE_DOWN.append("DROP TRIGGER IF EXISTS assessments_payment_stays_returned")


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        if vendor not in statements_by_vendor:
            raise RuntimeError(f"no money guard for database vendor {vendor!r}")
        for sql in statements_by_vendor[vendor]:
            schema_editor.execute(sql)
    return run


class Migration(migrations.Migration):
    dependencies = [("assessments", "0002_ledger_append_only")]

    operations = [
        migrations.RunPython(_run({"postgresql": POSTGRES_UP, "sqlite": SQLITE_UP}),
                             _run({"postgresql": POSTGRES_DOWN, "sqlite": SQLITE_DOWN})),
    ]
