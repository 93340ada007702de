"""The lines of a certified or finalized roll never change: the database refuses UPDATE and DELETE of
them (a draft's lines are regenerated and overridden freely), refuses TRUNCATE of the lines table, and
a roll's status only moves forward (DRAFT -> CERTIFIED -> FINALIZED; a certified or finalized roll is
never deleted), so a roll cannot be put back into draft to edit its lines. Corrections after
certification are RollCorrection rows and ledger adjustments (docs/security/database.md).

assessments/ledger/guard.py runs the same statements (for tests and benchmarks that empty tables).
"""
from django.db import migrations

ERR = "ERRCODE = 'integrity_constraint_violation'"
LINE_RULE = "the lines of a certified or finalized roll never change; correct them with a roll correction"
ROLL_RULE = "a roll only moves forward (DRAFT, CERTIFIED, FINALIZED) and a certified roll is never deleted"

# No percent sign anywhere: the statements go through a DB-API cursor that reads it as a placeholder.
POSTGRES_UP = [
    f"""CREATE OR REPLACE FUNCTION rolls_rollline_frozen() RETURNS trigger AS $$
DECLARE
    roll_status text;
BEGIN
    SELECT status INTO roll_status FROM rolls_roll WHERE id = OLD.roll_id;
    IF roll_status IN ('CERTIFIED', 'FINALIZED') THEN
        RAISE EXCEPTION USING MESSAGE = 'rolls_rollline: {LINE_RULE} (' || TG_OP || ' refused, roll '
            || OLD.roll_id || ' is ' || roll_status || ')', {ERR};
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.roll_id IS DISTINCT FROM OLD.roll_id THEN
        SELECT status INTO roll_status FROM rolls_roll WHERE id = NEW.roll_id;
        IF roll_status IN ('CERTIFIED', 'FINALIZED') THEN
            RAISE EXCEPTION USING MESSAGE = 'rolls_rollline: {LINE_RULE} (UPDATE refused, roll '
                || NEW.roll_id || ' is ' || roll_status || ')', {ERR};
        END IF;
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql""",
    """CREATE TRIGGER rolls_rollline_frozen BEFORE UPDATE OR DELETE ON rolls_rollline
FOR EACH ROW EXECUTE FUNCTION rolls_rollline_frozen()""",
    """CREATE TRIGGER rolls_rollline_no_truncate BEFORE TRUNCATE ON rolls_rollline
FOR EACH STATEMENT EXECUTE FUNCTION cargos_refuse_truncate('the lines of certified rolls never change')""",
    f"""CREATE OR REPLACE FUNCTION rolls_roll_forward_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF OLD.status IN ('CERTIFIED', 'FINALIZED') THEN
            RAISE EXCEPTION USING MESSAGE = 'rolls_roll: {ROLL_RULE} (DELETE refused, roll ' || OLD.id
                || ' is ' || OLD.status || ')', {ERR};
        END IF;
        RETURN OLD;
    END IF;
    IF (OLD.status = 'CERTIFIED' AND NEW.status NOT IN ('CERTIFIED', 'FINALIZED'))
       OR (OLD.status = 'FINALIZED' AND NEW.status <> 'FINALIZED') THEN
        RAISE EXCEPTION USING MESSAGE = 'rolls_roll: {ROLL_RULE} (UPDATE refused, ' || OLD.status || ' to '
            || NEW.status || ')', {ERR};
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql""",
    """CREATE TRIGGER rolls_roll_forward_only BEFORE UPDATE OR DELETE ON rolls_roll
FOR EACH ROW EXECUTE FUNCTION rolls_roll_forward_only()""",
]
POSTGRES_DOWN = [
    "DROP TRIGGER IF EXISTS rolls_rollline_frozen ON rolls_rollline",
    "DROP TRIGGER IF EXISTS rolls_rollline_no_truncate ON rolls_rollline",
    "DROP TRIGGER IF EXISTS rolls_roll_forward_only ON rolls_roll",
    "DROP FUNCTION IF EXISTS rolls_rollline_frozen()",
    "DROP FUNCTION IF EXISTS rolls_roll_forward_only()",
]
_FROZEN = "(SELECT status FROM rolls_roll WHERE id = OLD.roll_id) IN ('CERTIFIED', 'FINALIZED')"
SQLITE_UP = [
    f"""CREATE TRIGGER IF NOT EXISTS rolls_rollline_no_update BEFORE UPDATE ON rolls_rollline
WHEN {_FROZEN} OR (SELECT status FROM rolls_roll WHERE id = NEW.roll_id) IN ('CERTIFIED', 'FINALIZED')
BEGIN SELECT RAISE(ABORT, 'rolls_rollline: {LINE_RULE} (UPDATE refused)'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS rolls_rollline_no_delete BEFORE DELETE ON rolls_rollline WHEN {_FROZEN}
BEGIN SELECT RAISE(ABORT, 'rolls_rollline: {LINE_RULE} (DELETE refused)'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS rolls_roll_forward_only BEFORE UPDATE ON rolls_roll
WHEN (OLD.status = 'CERTIFIED' AND NEW.status NOT IN ('CERTIFIED', 'FINALIZED'))
  OR (OLD.status = 'FINALIZED' AND NEW.status <> 'FINALIZED')
BEGIN SELECT RAISE(ABORT, 'rolls_roll: {ROLL_RULE} (UPDATE refused)'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS rolls_roll_no_delete BEFORE DELETE ON rolls_roll
WHEN OLD.status IN ('CERTIFIED', 'FINALIZED')
BEGIN SELECT RAISE(ABORT, 'rolls_roll: {ROLL_RULE} (DELETE refused)'); END""",
]
SQLITE_DOWN = [
    "DROP TRIGGER IF EXISTS rolls_rollline_no_update",
    "DROP TRIGGER IF EXISTS rolls_rollline_no_delete",
    "DROP TRIGGER IF EXISTS rolls_roll_forward_only",
    "DROP TRIGGER IF EXISTS rolls_roll_no_delete",
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        if vendor not in statements_by_vendor:
            raise RuntimeError(f"no roll guard for database vendor {vendor!r}")
        for sql in statements_by_vendor[vendor]:
            schema_editor.execute(sql)
    return run


class Migration(migrations.Migration):
    # cargos_refuse_truncate() comes from assessments 0003.
    dependencies = [("rolls", "0002_roll_corrections"), ("assessments", "0003_money_guards")]

    operations = [
        migrations.RunPython(_run({"postgresql": POSTGRES_UP, "sqlite": SQLITE_UP}),
                             _run({"postgresql": POSTGRES_DOWN, "sqlite": SQLITE_DOWN})),
    ]
