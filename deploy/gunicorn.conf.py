"""Gunicorn for the web process: `gunicorn -c deploy/gunicorn.conf.py config.wsgi:application`.

Everything can be changed from the environment (systemd reads /etc/cargos/cargos.env):
GUNICORN_BIND, GUNICORN_WORKERS, GUNICORN_THREADS, GUNICORN_TIMEOUT, GUNICORN_FORWARDED_ALLOW_IPS,
GUNICORN_ACCESS_LOG, GUNICORN_ERROR_LOG, GUNICORN_LOG_LEVEL, GUNICORN_CONTROL_SOCKET.
"""
import multiprocessing
import os

wsgi_app = "config.wsgi:application"

# Behind nginx on the same machine (deploy/nginx/cargos.conf proxies to this address).
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000").split(",")

# gthread: a few processes with threads each; requests that wait on PostgreSQL do not hold a whole process.
# PDFs are rendered by the notices worker, not here, so 2 × cores processes are plenty.
worker_class = "gthread"
workers = int(os.environ.get("GUNICORN_WORKERS", min(2 * multiprocessing.cpu_count(), 8)))
threads = int(os.environ.get("GUNICORN_THREADS", 4))

# A request slower than this is killed (the worker is replaced); nginx waits a little longer.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 60))
graceful_timeout = 30
keepalive = 5
# Recycle processes now and then (a slow leak never grows for weeks).
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", 2000))
max_requests_jitter = 200

# Load the application once before forking: a broken settings module fails the start, not each worker.
preload_app = True

# Only the local nginx may say which scheme and client address a request came from (X-Forwarded-*).
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")

# Logs to stdout/stderr: journald keeps them (journalctl -u cargos-web). The request id is the
# X-Request-ID response header (set by the application; nginx passes its $request_id in).
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
errorlog = os.environ.get("GUNICORN_ERROR_LOG", "-")
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
access_log_format = ('%(h)s "%(r)s" %(s)s %(b)s %(M)sms rid=%({x-request-id}o)s '
                     'fwd="%({x-forwarded-for}i)s" ua="%(a)s"')

# Worker heartbeat files go to /tmp, the unit's private one (PrivateTmp=yes).
# The control socket lives in the runtime directory systemd creates (RuntimeDirectory=cargos); its
# default under $HOME is read-only with ProtectSystem=strict.
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET", "/run/cargos/gunicorn.ctl")
control_socket_disable = not os.path.isdir(os.path.dirname(control_socket))
