"""Load on the owners' portal: 20 owners downloading their stored notices at once, through gunicorn.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cargos_bench \\
        .venv/bin/python benchmarks/portal_load.py [--seconds 20] [--owners 20] [--workers 2] [--threads 8] [--nice 10]

PostgreSQL only (the database is migrated; the benchmark's records are created once and reused).
It creates N owners, each with a parcel, a charge and its notice rendered and stored; opens a
session for each; starts gunicorn on 127.0.0.1 (a free port, loopback only) with the project;
then N threads — one per owner, each with its own keep-alive connection — download their own
notice's PDF (/portal/avisos/<id>/pdf/) once to warm up (not counted), then again and again for
--seconds, all starting together, and it prints requests,
requests/s, the p50/p95/p99 latency in ms and the errors, and checks that every download was
logged. It also prints the CPU time one download costs gunicorn's workers, PostgreSQL's server
processes (same machine, read from /proc) and this client, and the load average: on a shared
machine latencies depend on the neighbours, CPU per download much less. The client lowers its
own priority (--nice) once gunicorn runs. gunicorn is stopped at the end, whatever happens.
PDFs go to a folder under /tmp.
"""
from __future__ import annotations

import argparse
import http.client
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
MEDIA = os.environ.get("DJANGO_MEDIA_ROOT") or str(Path(tempfile.gettempdir()) / "cargos-portal-load-media")
# Records and sessions are prepared in this process with the local settings; gunicorn serves with the
# production ones (persistent database connections, CONN_MAX_AGE) over plain HTTP on loopback. Both
# share one throw-away secret key, so the sessions made here are valid there.
ENV = {"DJANGO_SETTINGS_MODULE": "config.settings.local", "DJANGO_DEBUG": "false", "DJANGO_MEDIA_ROOT": MEDIA,
       "REDIS_URL": "", "DJANGO_LOG_LEVEL": "WARNING", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50)}
SERVER_ENV = {"DJANGO_SETTINGS_MODULE": "config.settings.production", "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
              "DJANGO_SECURE_SSL_REDIRECT": "false"}
os.environ.update(ENV)

import django  # noqa: E402

if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
    sys.exit("portal_load needs PostgreSQL: DATABASE_URL=postgres://…")
django.setup()

from django.core.management import call_command  # noqa: E402

PREFIX = "980"     # cadastres 980-000-000-NN: the benchmark's own parcels


def prepare(owners: int) -> list[tuple[str, int]]:
    """(session key, notice id) for each benchmark owner, creating whatever is missing."""
    from django.contrib.auth.models import Group, User
    from django.contrib.sessions.backends.db import SessionStore

    from assessments.ledger.services import account_for_parcel, receivable_create
    from assessments.models import Fund, Receivable
    from assessments.notices import services
    from core import roles
    from districts.models import Municipality, Office, Ownership, Parcel, Party

    office = Office.objects.get_or_create(name="Servicio de Riego (carga del portal)", defaults={
        "kind": "IRRIGATION", "phone": "787-555-0199"})[0]
    fund = Fund.objects.get_or_create(code="riego-carga", defaults={"name": "Fondo de riego (carga)",
                                                                    "lien_kind": "IRRIGATION"})[0]
    muni = Municipality.objects.get(name="Juana Díaz")
    owner_group = Group.objects.get(name=roles.OWNER)
    out = []
    for i in range(owners):
        cadastre = f"{PREFIX}-000-000-{i:02d}"
        parcel = Parcel.objects.filter(cadastre=cadastre).first()
        if parcel is None:
            parcel = Parcel.objects.create(cadastre=cadastre, municipality=muni, area_value="10.0000",
                                           location=f"Carr. 149 km {i}.{i}", barrio="Amuelas")
        user = User.objects.filter(username=f"carga{i:02d}").first()
        if user is None:
            user = User.objects.create_user(f"carga{i:02d}", password=None)
            user.groups.add(owner_group)
        party = Party.objects.filter(user=user).first()
        if party is None:
            party = Party.objects.create(kind="PERSON", given_names=f"Dueña {i:02d}", first_surname="Carga",
                                         second_surname="Portal", address_municipality=muni,
                                         address_street="Calle Sol", address_number=str(i), address_zip="00795",
                                         user=user)
            Ownership.objects.create(parcel=parcel, party=party, start_date=date(2010, 1, 1))
        receivable = Receivable.objects.filter(source_type="bench:portal", source_id=cadastre).first()
        if receivable is None:
            receivable = receivable_create(
                account=account_for_parcel(parcel), fund=fund, office=office, kind="ROLL_LINE",
                source_type="bench:portal", source_id=cadastre, installments=[(date(2026, 7, 1), "150.00"),
                                                                             (date(2027, 1, 1), "150.00")],
                description=f"Cuota de riego FY2027 — {cadastre}", breakdown={"fiscal_year": 2027},
                surcharge_rule="IRR-9", creates_lien=True, issued_on=date(2026, 7, 1), actor=None)
        notice = services.notice_issue(receivable=receivable, actor=None)
        session = SessionStore()
        session["_auth_user_id"] = str(user.pk)
        session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
        session["_auth_user_hash"] = user.get_session_auth_hash()
        session.create()
        out.append((session.session_key, notice.pk))
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(port: int, proc: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit("gunicorn exited before serving")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/v1/portal/notices/")    # no template, no static files: 403 when up
            if conn.getresponse().status in (200, 401, 403):
                return
        except OSError:
            time.sleep(0.3)
    sys.exit("gunicorn did not answer in time")


def owner_loop(port: int, session_key: str, notice_id: int, start: threading.Barrier, seconds: float,
               latencies: list, errors: list, think: float = 0.0) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Cookie": f"sessionid={session_key}", "Connection": "keep-alive"}
    path = f"/portal/avisos/{notice_id}/pdf/"
    conn.request("GET", path, headers=headers)     # warm-up, not counted: imports, connections, caches
    conn.getresponse().read()
    start.wait()
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        start = time.perf_counter()
        try:
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            body = response.read()
        except (OSError, http.client.HTTPException) as exc:
            errors.append(repr(exc))
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            continue
        elapsed = (time.perf_counter() - start) * 1000
        if response.status != 200 or not body.startswith(b"%PDF"):
            errors.append(f"HTTP {response.status}")
        else:
            latencies.append(elapsed)
        if think:  # an owner reads what they downloaded before the next click (exponential, mean --think)
            time.sleep(random.expovariate(1 / think))
    conn.close()


def worker_pids(master: int) -> list[int]:
    """gunicorn's worker processes (Linux /proc), whose CPU time is the server's cost."""
    pids = []
    for children in Path(f"/proc/{master}/task").glob("*/children"):
        pids += [int(p) for p in children.read_text().split()]
    return pids


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by these processes (all their threads)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])     # utime, stime (fields 14 and 15 of stat)
    return total / tick


def database_backend_pids() -> list[int]:
    """The PostgreSQL server processes serving gunicorn's connections (same machine), this one's excluded."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        pids = [row[0] for row in cursor.fetchall()]
    connection.close()
    return pids


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--owners", type=int, default=20)
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds an owner waits between downloads (0: back to back, the saturation test)")
    # One process per core; its threads overlap the database round trips. More processes than cores
    # measured worse here (3 × 4, 4 × 4: about 60 % of the requests/s of 2 × 8 on the 2-core machine).
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=8, help="threads per gunicorn worker (gthread)")
    parser.add_argument("--nice", type=int, default=10,
                        help="lower this client's priority by N once gunicorn runs, so it does not take the CPU "
                             "from the server it measures (0: same priority)")
    parser.add_argument("--local-settings", action="store_true",
                        help="serve with config.settings.local (a new database connection per request)")
    args = parser.parse_args()
    args.seconds = max(1.0, min(args.seconds, 600.0))    # bounded in time

    call_command("migrate", verbosity=0, interactive=False)
    started = time.perf_counter()
    owners = prepare(args.owners)
    print(f"{len(owners)} owners with a stored notice each (ready in {time.perf_counter() - started:.1f} s)")
    from core.models import DocumentDownloadLog

    logged_before = DocumentDownloadLog.objects.count()
    from django.db import connections

    connections.close_all()

    port = free_port()
    env = {**os.environ, **ENV, **({} if args.local_settings else SERVER_ENV)}
    cmd = [str(ROOT / ".venv" / "bin" / "gunicorn"), "config.wsgi", "-b", f"127.0.0.1:{port}", "-w", str(args.workers),
           "--threads", str(args.threads), "-k", "gthread", "--keep-alive", "30", "--log-level", "warning"]
    proc = subprocess.Popen(cmd, cwd=str(ROOT), env=env)
    latencies: list[float] = []
    errors: list[str] = []
    try:
        wait_ready(port, proc)
        if args.nice:
            os.nice(args.nice)       # after gunicorn started: it keeps the normal priority
        barrier = threading.Barrier(len(owners) + 1)
        threads = [threading.Thread(target=owner_loop, args=(port, key, notice, barrier, args.seconds, latencies,
                                                             errors, args.think)) for key, notice in owners]
        for t in threads:
            t.start()
        barrier.wait(timeout=120)
        load_before = os.getloadavg()[0]
        workers, backends = worker_pids(proc.pid), database_backend_pids()
        server_cpu0, client_cpu0 = cpu_seconds(workers), time.process_time()
        database_cpu0 = {pid: cpu_seconds([pid]) for pid in backends}
        t0 = time.perf_counter()
        for t in threads:
            t.join(timeout=args.seconds + 60)
        elapsed = time.perf_counter() - t0
        server_cpu, client_cpu = cpu_seconds(workers) - server_cpu0, time.process_time() - client_cpu0
        # threads that served no warm-up request connect during the run: counted from their start
        backends = database_backend_pids()
        database_cpu = sum(cpu_seconds([pid]) - database_cpu0.get(pid, 0) for pid in backends)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    logged = DocumentDownloadLog.objects.count() - logged_before - len(owners)   # less the warm-ups
    if not latencies:
        sys.exit(f"no successful download; errors: {errors[:5]}")
    print(f"gunicorn 127.0.0.1:{port} ({'local' if args.local_settings else 'production'} settings): "
          f"{args.workers} workers × {args.threads} threads; {len(owners)} owners for {args.seconds:.0f} s, "
          f"mean think time {args.think:g} s")
    print(f"downloads: {len(latencies)} ok, {len(errors)} errors, {len(latencies) / elapsed:.1f} req/s; "
          f"logged: {logged}")
    print(f"latency ms: p50 {percentile(latencies, .50):.1f}  p95 {percentile(latencies, .95):.1f}  "
          f"p99 {percentile(latencies, .99):.1f}  max {max(latencies):.1f}")
    per = 1000 / len(latencies)
    print(f"CPU per download: server {server_cpu * per:.2f} ms ({len(workers)} workers), PostgreSQL "
          f"{database_cpu * per:.2f} ms ({len(backends)} connections), this client {client_cpu * per:.2f} ms "
          f"(nice {args.nice})")
    print(f"load average (1 min): {load_before:.2f} when measuring started, {os.getloadavg()[0]:.2f} at the end, "
          f"on {os.cpu_count()} cores")
    if errors:
        print("first errors:", errors[:5])


if __name__ == "__main__":
    main()
