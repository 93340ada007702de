#!/usr/bin/env python3
"""`make prod-smoke`: the production kit end to end on this machine's PostgreSQL and Redis.

A fresh database (SMOKE_DATABASE_URL, default …/cargos_smoke, dropped and created each run) and Redis
database (SMOKE_REDIS_URL, default redis://127.0.0.1:6379/11, emptied each run); an environment file
written from deploy/cargos.env.example with local values; the two database roles (db_roles_setup, as
the superuser of SMOKE_DATABASE_URL): migrate as the owner (DATABASE_MIGRATE_URL), everything else
as the application's role, which owns nothing (checked: TRUNCATE, ALTER, DROP refused); then
sync_schedules, collectstatic and a small demo register with production settings; then gunicorn
(deploy/gunicorn.conf.py), two Celery workers (rolls,default,deadlines and notices) and beat, all
with config.settings.production and that environment. Over HTTP, as nginx would forward it
(X-Forwarded-Proto: https): /healthz and /readyz, staff signs in through the login form, generates
and certifies a roll (jobs on the rolls worker), issues its notices (notices worker), and the owner
downloads a notice PDF from the portal.

Every wait is bounded; every process is stopped at the end, also on failure. Exit status 1 on any
failure, with the last lines of the logs that tell why. SMOKE_KEEP=1 keeps the temporary folder.
"""
from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from http.cookies import SimpleCookie
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
FISCAL_YEAR = 2027
DISTRICT = "riego-costa-sur"
T0 = time.monotonic()


class SmokeFailure(Exception):
    def __init__(self, message: str, logs: tuple[str, ...] = ()):
        super().__init__(message)
        self.logs = logs


def say(status: str, step: str, detail: str = "") -> None:
    print(f"{status:<5} {step:<34} {detail} [{time.monotonic() - T0:5.1f}s]", flush=True)


def wait_for(condition, seconds: float, what: str, logs: tuple[str, ...] = (), every: float = 0.5):
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise SmokeFailure(f"gave up after {seconds:.0f}s waiting for {what}", logs)
        time.sleep(every)


# ------------------------------------------------------------------------------------------- setup

def database_url() -> str:
    if os.environ.get("SMOKE_DATABASE_URL"):
        return os.environ["SMOKE_DATABASE_URL"]
    base = os.environ.get("DATABASE_URL", "")
    if base.startswith(("postgres://", "postgresql://")):
        return base.rsplit("/", 1)[0] + "/cargos_smoke"
    return "postgres://postgres@127.0.0.1:5432/cargos_smoke"


def recreate_database(url: str) -> None:
    import psycopg

    parts = urllib.parse.urlsplit(url)
    name = parts.path.lstrip("/")
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
        raise SmokeFailure(f"unexpected database name {name!r}")
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True, connect_timeout=10) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")


def role_urls(url: str) -> tuple[str, str, str, str, str, str]:
    """The owner's and the application's roles of the smoke database: names, passwords, URLs."""
    parts = urllib.parse.urlsplit(url)
    name = parts.path.lstrip("/")
    host = parts.hostname or "127.0.0.1"
    port = parts.port or 5432
    out = []
    for kind in ("owner", "app"):
        role, password = f"{name}_{kind}", secrets.token_urlsafe(18)
        netloc = f"{role}:{urllib.parse.quote(password, safe='')}@{host}:{port}"
        out += [role, password, urllib.parse.urlunsplit(parts._replace(netloc=netloc))]
    return tuple(out)


def check_app_role(app_url: str) -> None:
    """The application's role owns nothing: TRUNCATE, ALTER and triggers off are refused."""
    import psycopg

    refused = []
    with psycopg.connect(app_url, autocommit=True, connect_timeout=10) as conn:
        for sql in ("TRUNCATE assessments_ledgerentry", "ALTER TABLE assessments_payment DISABLE TRIGGER ALL",
                    "DROP TABLE assessments_ledgerentry", "SET session_replication_role = replica"):
            try:
                conn.execute(sql)
            except psycopg.errors.InsufficientPrivilege:
                refused.append(sql.split()[0])
            else:
                raise SmokeFailure(f"the application's database role was allowed: {sql}")
        user = conn.execute("SELECT current_user").fetchone()[0]
    say("ok", "app role owns nothing", f"{user}: {', '.join(refused)} refused")


def empty_redis(url: str) -> None:
    import redis

    redis.Redis.from_url(url, socket_timeout=5).flushdb()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines, as systemd's EnvironmentFile= reads them (comments and blank lines skipped)."""
    values = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        values[key.strip()] = value.strip()
    return values


def write_env_file(work: Path, port: int, db_url: str, redis_url: str, password: str, migrate_url: str) -> Path:
    values = read_env_file(ROOT / "deploy" / "cargos.env.example")
    local = {
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_CSRF_TRUSTED_ORIGINS": f"https://127.0.0.1:{port}",
        "DATABASE_URL": db_url,
        "DATABASE_MIGRATE_URL": migrate_url,
        "REDIS_URL": redis_url,
        "DJANGO_MEDIA_ROOT": str(work / "media"),
        "EMAIL_URL": "consolemail://",
        "STAFF_SITE_URL": f"https://127.0.0.1:{port}",
        "DOCUMENTS_PUBLIC_BASE_URL": f"https://127.0.0.1:{port}",
        "CARGOS_BEAT_LOCK_KEY": "cargos:smoke-beat-lock",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": "2",
        "GUNICORN_THREADS": "2",
        "GUNICORN_CONTROL_SOCKET": str(work / "gunicorn.ctl"),
        "CELERY_CONCURRENCY": "1",
        # The smoke only: the demo register and its accounts on production settings.
        "DEMO_ACCOUNTS_ENABLED": "true",
        "DEMO_PASSWORD": password,
    }
    unknown = set(local) - set(values) - {"DEMO_PASSWORD", "GUNICORN_CONTROL_SOCKET"}
    if unknown:
        raise SmokeFailure(f"deploy/cargos.env.example lacks {sorted(unknown)}")
    values.update(local)
    path = work / "cargos.env"
    path.write_text("".join(f"{k}={v}\n" for k, v in values.items()))
    path.chmod(0o600)
    return path


def process_env(env_file: Path) -> dict[str, str]:
    """This process's PATH and locale plus the environment file, and nothing else of ours: no
    DJANGO_*/CELERY_*/DATABASE_URL from the caller's shell leaks into the production processes."""
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "LC_ALL", "TZ", "USER")}
    return {**keep, **read_env_file(env_file), "PYTHONUNBUFFERED": "1"}


class Processes:
    def __init__(self, work: Path, env: dict[str, str]):
        self.work, self.env, self.procs = work, env, {}

    def log_path(self, name: str) -> Path:
        return self.work / f"{name}.log"

    def run(self, name: str, args: list[str], timeout: float, env: dict[str, str] | None = None) -> str:
        """A command to its end (bounded); its output goes to <name>.log. `env` overrides variables."""
        with open(self.log_path(name), "w") as log:
            try:
                proc = subprocess.run(args, cwd=ROOT, env={**self.env, **(env or {})},  # noqa: S603 - our own commands
                                      stdout=log, stderr=subprocess.STDOUT, timeout=timeout, check=False)
            except subprocess.TimeoutExpired:
                raise SmokeFailure(f"{name} took more than {timeout:.0f}s", (name,))
        if proc.returncode != 0:
            raise SmokeFailure(f"{name} exited with {proc.returncode}", (name,))
        return self.log_path(name).read_text()

    def start(self, name: str, args: list[str]) -> None:
        log = open(self.log_path(name), "w")  # noqa: SIM115 - closed in stop_all
        # Its own process group (session), stopped as a whole.
        proc = subprocess.Popen(args, cwd=ROOT, env=self.env,  # noqa: S603 - our own commands
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.procs[name] = (proc, log)

    def finish(self, name: str, timeout: float) -> int:
        """Wait (bounded) for a started process that is meant to end; its exit status."""
        proc, log = self.procs.pop(name)
        try:
            return proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with_group(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
            raise SmokeFailure(f"{name} took more than {timeout:.0f}s", (name,))
        finally:
            log.close()

    def log(self, name: str) -> str:
        path = self.log_path(name)
        return path.read_text(errors="replace") if path.exists() else ""

    def check_alive(self) -> None:
        for name, (proc, _log) in self.procs.items():
            if proc.poll() is not None:
                raise SmokeFailure(f"{name} exited with {proc.returncode}", (name,))

    def stop_all(self) -> None:
        for proc, _log in self.procs.values():
            if proc.poll() is None:
                with_group(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + 25
        for proc, _log in self.procs.values():
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                with_group(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        for proc, log in self.procs.values():
            with_group(proc.pid, signal.SIGKILL)   # children left behind by a parent that exited
            log.close()

    def tail(self, name: str, lines: int = 40) -> str:
        return "\n".join(self.log(name).splitlines()[-lines:])


def with_group(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


# -------------------------------------------------------------------------------------------- HTTP

class Response:
    def __init__(self, status: int, headers: http.client.HTTPMessage, body: bytes, path: str):
        self.status, self.headers, self.body, self.path = status, headers, body, path

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class Client:
    """HTTP as nginx forwards it (X-Forwarded-Proto: https). Cookies by hand: the session and CSRF
    cookies are Secure, which a cookie jar would not send over this plain connection."""

    def __init__(self, port: int):
        self.port, self.cookies = port, {}
        self.origin = f"https://127.0.0.1:{port}"

    def request(self, method: str, path: str, form: dict | None = None, follow: bool = True,
                timeout: float = 30) -> Response:
        for _hop in range(10):
            headers = {"Host": f"127.0.0.1:{self.port}", "X-Forwarded-Proto": "https",
                       "X-Request-ID": f"smoke-{secrets.token_hex(4)}", "Accept-Language": "es"}
            if self.cookies:
                headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            body = None
            if form is not None:
                body = urllib.parse.urlencode(form).encode()
                headers.update({"Content-Type": "application/x-www-form-urlencoded", "Origin": self.origin,
                                "Referer": self.origin + path})
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
            try:
                conn.request(method, path, body=body, headers=headers)
                raw = conn.getresponse()
                response = Response(raw.status, raw.headers, raw.read(), path)
            finally:
                conn.close()
            for header in response.headers.get_all("Set-Cookie") or []:
                cookie = SimpleCookie()
                cookie.load(header)
                for key, morsel in cookie.items():
                    if morsel.get("max-age") == "0" or not morsel.value:
                        self.cookies.pop(key, None)
                    else:
                        self.cookies[key] = morsel.value
            if not (follow and response.status in (301, 302, 303, 307, 308)):
                return response
            location = urllib.parse.urlsplit(response.headers["Location"])
            if location.netloc and location.netloc != f"127.0.0.1:{self.port}":
                return response
            path = urllib.parse.urlunsplit(("", "", location.path or "/", location.query, ""))
            if response.status in (301, 302, 303):
                method, form = "GET", None
        raise SmokeFailure(f"too many redirects at {path}")

    def get(self, path: str, **kw) -> Response:
        return self.request("GET", path, **kw)

    def csrf_token(self) -> str:
        return self.cookies.get("csrftoken", "")

    def post(self, path: str, data: dict, **kw) -> Response:
        return self.request("POST", path, form={"csrfmiddlewaretoken": self.csrf_token(), **data}, **kw)

    def sign_in(self, username: str, password: str) -> None:
        page = self.get("/cuentas/login/")
        match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        if page.status != 200 or not match:
            raise SmokeFailure(f"login page answered {page.status} without a CSRF token", ("web",))
        answer = self.request("POST", "/cuentas/login/", form={
            "csrfmiddlewaretoken": match.group(1), "username": username, "password": password}, follow=False)
        if answer.status != 302 or "sessionid" not in self.cookies:
            raise SmokeFailure(f"signing in as {username} answered {answer.status} (no session)", ("web",))


# ------------------------------------------------------------------------------------------- steps

SEED = f"""
import json
from datetime import date
from django.contrib.auth.models import User
from districts.demo import seed_demo
from districts.models import District
from assessments.rolls import services
from assessments.rolls.management.commands.seed_rolls import IRR
seed_demo(parcels=30)
from core.models import ParameterVersion
ParameterVersion.objects.get_or_create(family="irr_delinquency", version="ninguno-smoke", defaults=dict(
    effective_from=date(2000, 7, 1), citation="Smoke test: none apply (IRR-9)", values={{"none_apply": "true"}}))
district = District.objects.get(code={DISTRICT!r})
services.figures_save(district=district, fiscal_year={FISCAL_YEAR}, figures=dict(IRR),
                      certified_by="Smoke test", certified_on=date({FISCAL_YEAR - 1}, 5, 15),
                      actor=User.objects.get(username="staff"))
print("SMOKE-JSON:" + json.dumps({{"users": User.objects.count(), "parcels": district.memberships.count()}}))
"""


def manage(procs: Processes, name: str, *args: str, timeout: float = 180, env: dict[str, str] | None = None) -> str:
    return procs.run(name, [PY, "manage.py", *args], timeout=timeout, env=env)


def step_health(client: Client, procs: Processes) -> None:
    answer = client.get("/healthz", follow=False)
    if answer.status != 200 or answer.text.strip() != "ok":
        raise SmokeFailure(f"GET /healthz answered {answer.status}: {answer.text[:300]}", ("web",))
    say("ok", "GET /healthz", "200")
    # Ready once the database, Redis, storage and migrations answer and a worker's heartbeat is in
    # Redis: the workers were just started, so this waits (bounded) for their first beat.
    deadline = time.monotonic() + 90
    while True:
        answer = client.get("/readyz", follow=False)
        if answer.status == 200:
            break
        if time.monotonic() > deadline:
            raise SmokeFailure(f"GET /readyz answered {answer.status} for 90 s: {answer.text[:300]}",
                               ("web", "worker-rolls", "worker-notices"))
        time.sleep(1)
    body = json.loads(answer.body)
    if body.get("status") != "ok" or not body.get("version"):
        raise SmokeFailure(f"GET /readyz body: {answer.text[:300]}", ("web",))
    say("ok", "GET /readyz", f"200, version {body['version']}")


def poll_job(client: Client, state_url: str, what: str, seconds: float, logs: tuple[str, ...]) -> dict:
    def done():
        answer = client.get(state_url)
        if answer.status != 200:
            raise SmokeFailure(f"{state_url} answered {answer.status}", ("web",))
        state = json.loads(answer.body)
        if state.get("status") not in ("QUEUED", "RUNNING", "DONE"):
            raise SmokeFailure(f"{what} ended {state.get('status')}: {state.get('message')}", logs)
        return state if state.get("status") == "DONE" else None

    return wait_for(done, seconds, what, logs, every=1)


def smoke(work: Path) -> None:
    db_url, redis_url = database_url(), os.environ.get("SMOKE_REDIS_URL", "redis://127.0.0.1:6379/11")
    port, password = free_port(), "Smoke-" + secrets.token_urlsafe(12)

    recreate_database(db_url)
    empty_redis(redis_url)
    say("ok", "fresh database and Redis", f"{db_url.rsplit('/', 1)[-1]}, {redis_url}")
    owner, owner_password, owner_url, app, app_password, app_url = role_urls(db_url)
    env_file = write_env_file(work, port, app_url, redis_url, password, owner_url)
    procs = Processes(work, process_env(env_file))
    say("ok", "environment file", f"{env_file} (from deploy/cargos.env.example)")

    try:
        # collectstatic (hashing and compressing ~1000 files) needs no database: it runs alongside.
        procs.start("collectstatic", [PY, "manage.py", "collectstatic", "--noinput", "-v0"])
        manage(procs, "db_roles_setup", "db_roles_setup", "--owner", owner, "--app", app,
               env={"DATABASE_URL": db_url, "CARGOS_OWNER_PASSWORD": owner_password,
                    "CARGOS_APP_PASSWORD": app_password})
        say("ok", "database roles", f"{owner} (migrate), {app} (everything else)")
        manage(procs, "migrate", "migrate", "--noinput", "-v0", timeout=300,
               env={"DATABASE_URL": procs.env["DATABASE_MIGRATE_URL"]})
        check_app_role(app_url)
        manage(procs, "sync_schedules", "sync_schedules")
        say("ok", "migrate + sync_schedules", procs.log("sync_schedules").strip().splitlines()[-1])
        out = manage(procs, "seed", "shell", "-v0", "-c", SEED)
        seeded = json.loads(out.split("SMOKE-JSON:", 1)[1].splitlines()[0])
        say("ok", "demo register", f"{seeded['users']} accounts, {seeded['parcels']} members in {DISTRICT}")

        procs.start("worker-rolls", [PY, "-m", "celery", "-A", "config", "worker", "-Q", "rolls,default,deadlines",
                                     "-n", "smoke-rolls@%h", "--concurrency=1", "--loglevel=INFO",
                                     "--without-mingle", "--without-gossip"])
        procs.start("worker-notices", [PY, "-m", "celery", "-A", "config", "worker", "-Q", "notices",
                                       "-n", "smoke-notices@%h", "--concurrency=1", "--loglevel=INFO",
                                       "--without-mingle", "--without-gossip"])
        procs.start("beat", [PY, "-m", "celery", "-A", "config", "beat", "--loglevel=INFO",
                             "-S", "config.beat:LockedDatabaseScheduler", "--pidfile="])
        code = procs.finish("collectstatic", 300)
        if code != 0:
            raise SmokeFailure(f"collectstatic exited with {code}", ("collectstatic",))
        say("ok", "collectstatic", "")
        procs.start("web", [PY, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py"])

        def up(name: str, marker: str):
            procs.check_alive()
            return marker in procs.log(name)

        wait_for(lambda: up("web", "Booting worker"), 60, "gunicorn to start", ("web",))
        for name in ("worker-rolls", "worker-notices"):
            wait_for(lambda name=name: up(name, "ready."), 90, f"{name} to be ready", (name,))
        wait_for(lambda: up("beat", "acquired by"), 60, "beat to take its lock", ("beat",))
        say("ok", "gunicorn, 2 workers, beat", "running with config.settings.production")

        client = Client(port)

        def answers() -> bool:
            procs.check_alive()
            try:
                return client.get("/cuentas/login/", follow=False).status == 200
            except OSError:
                return False

        wait_for(answers, 60, "the login page", ("web",))
        step_health(client, procs)

        client.sign_in("staff", password)
        say("ok", "staff signs in", "login form with CSRF token, secure cookies")

        client.get(f"/padrones/cifras/{DISTRICT}/{FISCAL_YEAR}/")  # a fresh CSRF cookie
        answer = client.post(f"/padrones/generar/{DISTRICT}/{FISCAL_YEAR}/", {}, follow=False)
        job = re.search(r"/padrones/trabajos/(\d+)/", answer.headers.get("Location", ""))
        if answer.status != 302 or not job:
            raise SmokeFailure(f"generating the roll answered {answer.status}", ("web",))
        state = poll_job(client, f"/padrones/trabajos/{job.group(1)}/estado/", "the roll's generation", 120,
                         ("worker-rolls", "web"))
        roll_url = state.get("roll_url") or ""
        roll = re.search(r"/padrones/(\d+)/", roll_url)
        if not roll:
            raise SmokeFailure(f"generation done without a roll: {state}", ("worker-rolls",))
        roll_id = roll.group(1)
        say("ok", "roll generated (rolls worker)", f"roll {roll_id}: {(state.get('message') or '')[:60]}")

        # Certifying is the approver's (docs/security/roles.md): the staff member who generated it cannot.
        refused = client.post(f"/padrones/{roll_id}/certify/", {}, follow=False)
        if refused.status != 403:
            raise SmokeFailure(f"staff certifying answered {refused.status}, not 403", ("web",))
        approver = Client(port)
        approver.sign_in("approver", password)
        approver.get(f"/padrones/{roll_id}/")  # a fresh CSRF cookie
        page = approver.post(f"/padrones/{roll_id}/certify/", {})
        job_state = re.search(r'data-url="(/padrones/trabajos/\d+/estado/)"', page.text)
        if page.status != 200 or not job_state:
            raise SmokeFailure(f"certifying answered {page.status} without a job on the roll page", ("web",))
        state = poll_job(approver, job_state.group(1), "the roll's certification", 120, ("worker-rolls", "web"))
        message = (state.get("message") or "")[:50]
        say("ok", "roll certified (rolls worker)", f"by the approver (staff refused): {message}")

        answer = client.post("/avisos/emitir/", {"source_type": f"rolls.Roll:{roll_id}"}, follow=False)
        if answer.status != 302:
            raise SmokeFailure(f"issuing the notices answered {answer.status}", ("web",))
        say("ok", "notices issued (staff page)", f"source rolls.Roll:{roll_id}")

        owner = Client(port)
        owner.sign_in("owner", password)

        def notice_link():
            listing = owner.get("/portal/avisos/")
            if listing.status != 200:
                raise SmokeFailure(f"the portal's notices answered {listing.status}", ("web",))
            found = re.search(r'href="(/portal/avisos/\d+/pdf/)"', listing.text)
            return found.group(1) if found else None

        link = wait_for(notice_link, 120, "the owner's notice in the portal", ("worker-notices", "web"), every=1)
        pdf = owner.get(link)
        content_type = pdf.headers.get("Content-Type", "")
        if pdf.status != 200 or not content_type.startswith("application/pdf") or not pdf.body.startswith(b"%PDF"):
            raise SmokeFailure(f"{link} answered {pdf.status} {content_type} {pdf.body[:8]!r}", ("web",))
        say("ok", "owner downloads notice PDF", f"{link}, {len(pdf.body)} bytes, {content_type}")

        sent = procs.log("beat")
        if "is held by" in sent:
            raise SmokeFailure("beat waited for a lock nobody else should hold", ("beat",))
        procs.check_alive()
    except SmokeFailure as failure:
        say("FAIL", str(failure))
        for name in failure.logs or tuple(procs.procs):
            print(f"----- last lines of {name} ({procs.log_path(name)}) -----")
            print(procs.tail(name))
        raise
    finally:
        procs.stop_all()
        say("ok", "stopped", "gunicorn, workers and beat (process groups)")


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="cargos-smoke-"))
    (work / "media").mkdir()
    try:
        smoke(work)
    except SmokeFailure:
        print(f"prod-smoke FAILED after {time.monotonic() - T0:.0f}s (logs in {work})")
        return 1
    except Exception:  # noqa: BLE001 - any error of the smoke itself: report it, exit 1
        import traceback

        traceback.print_exc()
        print(f"prod-smoke FAILED after {time.monotonic() - T0:.0f}s (logs in {work})")
        return 1
    print(f"prod-smoke passed in {time.monotonic() - T0:.0f}s")
    if os.environ.get("SMOKE_KEEP") != "1":
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
