"""The files of deploy/ say what the code reads: every variable in the template, units that start,
an nginx site that nginx accepts. These are the mistakes a first install on a new server would meet."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import require

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
ENV_READ = re.compile(r"(?:env(?:\.[a-z_]+)?|environ(?:\.get)?|ENVIRON(?:\.get)?|getenv|\.get)"
                      r"""\(\s*["']([A-Z][A-Z0-9_]+)["']""")


def _read_variables() -> set[str]:
    files = [*sorted((ROOT / "config").rglob("*.py")), DEPLOY / "gunicorn.conf.py"]
    return {name for f in files for name in ENV_READ.findall(f.read_text())}


def test_every_variable_the_code_reads_is_in_the_environment_template():
    template = (DEPLOY / "cargos.env.example").read_text()
    listed = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", template, re.M))
    missing = sorted(_read_variables() - listed)
    assert not missing, f"add to deploy/cargos.env.example (with a comment): {missing}"


def _unit_exec_start(name: str) -> str:
    text = (DEPLOY / "systemd" / name).read_text()
    match = re.search(r"^ExecStart=(.+?)(?<!\\)$", text, re.M | re.S)
    return " ".join(match.group(1).replace("\\\n", " ").split())


def test_the_worker_unit_names_its_node_with_a_placeholder_celery_knows():
    from celery.utils.nodenames import host_format

    command = _unit_exec_start("cargos-worker@.service")
    node = re.search(r"-n (\S+)", command).group(1)
    # What systemd hands Celery for cargos-worker@rolls: %i is the instance, %% a literal %.
    node = node.replace("%i", "rolls").replace("%%", "%")
    assert host_format(node) == f"rolls@{__import__('socket').gethostname()}"


@pytest.mark.parametrize("unit", ["cargos-web.service", "cargos-worker@.service", "cargos-beat.service"])
def test_units_run_the_production_settings_from_the_venv_as_the_service_user(unit):
    text = (DEPLOY / "systemd" / unit).read_text()
    assert "Environment=DJANGO_SETTINGS_MODULE=config.settings.production" in text
    assert "EnvironmentFile=/etc/cargos/cargos.env" in text and "User=cargos" in text
    assert _unit_exec_start(unit).startswith("/srv/cargos/.venv/bin/")


def test_nginx_accepts_the_site(tmp_path):
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    require(nginx is not None, "needs nginx to check the site (apt-get install nginx-light)")
    openssl = shutil.which("openssl")
    require(openssl is not None, "needs openssl for a throwaway certificate")
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(tmp_path / "k.pem"),
                    "-out", str(tmp_path / "c.pem"), "-days", "1", "-subj", "/CN=cargos.example.pr"],
                   check=True, capture_output=True)
    site = (DEPLOY / "nginx" / "cargos.conf").read_text()
    site = (site.replace("/etc/letsencrypt/live/cargos.example.pr/fullchain.pem", str(tmp_path / "c.pem"))
                .replace("/etc/letsencrypt/live/cargos.example.pr/privkey.pem", str(tmp_path / "k.pem"))
                .replace("/etc/nginx/cargos-proxy.conf", str(DEPLOY / "nginx" / "cargos-proxy.conf"))
                .replace("/var/log/nginx/cargos.access.log", str(tmp_path / "access.log"))
                .replace("listen [::]:80;", "").replace("listen [::]:443 ssl http2;", "")
                .replace("listen 80;", "listen 127.0.0.1:18080;").replace("listen 443 ssl http2;",
                                                                          "listen 127.0.0.1:18443 ssl http2;"))
    (tmp_path / "site.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n access_log {tmp_path}/a.log;\n include {tmp_path}/site.conf;\n}}\n")
    proc = subprocess.run([nginx, "-t", "-c", str(tmp_path / "nginx.conf")], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr
