"""How the real-worker tests kill a roll job mid-transaction deterministically, not by timing: another
session holds a table the job's transaction writes late, so the job streams its work and then waits on
that table; the test sees its backend waiting, kills the worker child there and ends its session."""
import os
import signal
import time
from contextlib import contextmanager
from datetime import date
from decimal import Decimal

import psycopg
from django.db import connection

from assessments.rolls.models import CertifiedFigures
from districts.models import Membership, Parcel
from tests import factories
from tests.rolls.conftest import IRR_FIGURES


def big_district(n: int, completion_certified_on: date | None = None):
    """Riego Sur with `n` members of 3.4 acres and its FY2027 figures. With the works' completion
    certified, IRR-8's water minimum no longer applies and every line has a charge."""
    district = factories.district()
    if completion_certified_on:
        district.completion_certified_on = completion_certified_on
        district.save(update_fields=["completion_certified_on"])
    muni = factories.parcel(cadastre="000-000-000-00").municipality
    Parcel.objects.bulk_create([Parcel(cadastre=f"5{i // 1000000:02d}-{i // 1000 % 1000:03d}-{i % 1000:03d}-01",
                                       municipality=muni, area_value=Decimal("3.5")) for i in range(n)],
                               batch_size=5000)
    ids = Parcel.objects.filter(cadastre__startswith="5").values_list("id", flat=True)
    Membership.objects.bulk_create([Membership(district=district, parcel_id=pid, included_on=date(1990, 1, 1),
                                               gravity_acres=Decimal("3.4"), free_period_end=date(2001, 5, 10))
                                    for pid in ids], batch_size=5000)
    CertifiedFigures.objects.create(district=district, fiscal_year=2027, figures=IRR_FIGURES, certified_by="DTOP",
                                    certified_on=date(2026, 5, 1))
    return district


def wait(predicate, seconds, what):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@contextmanager
def table_locked(table: str):
    """Hold `table` in another session until the block ends: reads go on, every write waits."""
    db = connection.settings_dict
    with psycopg.connect(host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432, user=db["USER"],
                         dbname=db["NAME"], password=db["PASSWORD"] or None) as locker:
        locker.execute(f"LOCK TABLE {table} IN EXCLUSIVE MODE")
        yield locker
        locker.rollback()


def blocked_backend(locker, table: str) -> int | None:
    """The backend waiting on a lock with a statement on `table`, if any."""
    locker.execute("SELECT pg_stat_clear_snapshot()")  # activity is otherwise frozen for the whole transaction
    row = locker.execute(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
        "AND wait_event_type = 'Lock' AND query ILIKE %s", [f"%{table}%"]).fetchone()
    return row[0] if row else None


def kill_blocked_worker(worker, locker, table: str) -> None:
    """SIGKILL the worker child blocked on `table`, then end its session and wait until it is gone: the
    server would only notice the dead client once the lock is released. Check what the killed job left
    before leaving the `table_locked` block: while the lock is held, the redelivered task cannot commit."""
    pid = blocked_backend(locker, table)
    assert pid is not None
    children = worker.child_pids()
    assert children, worker.log()[-2000:]
    os.kill(children[0], signal.SIGKILL)
    locker.execute("SELECT pg_terminate_backend(%s)", [pid])

    def gone():
        locker.execute("SELECT pg_stat_clear_snapshot()")
        return locker.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone() is None

    wait(gone, 30, "the killed job's session to end")
