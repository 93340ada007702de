# The two commands of the README: `make run` and `make test`. Everything else builds on them.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
MANAGE := $(PY) manage.py
HOST ?= 127.0.0.1:8000

.PHONY: run test venv dev-venv syslibs lint pytest migrate seed serve worker beat messages prod-smoke clean schema lock

PIP_VERSION := 26.3

# requirements*.txt name what the code uses; requirements*.lock pin every package installed
# (`make lock` after changing a requirements file). Installs come from the lock files only.
$(VENV)/.installed: requirements.lock
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
		echo "Python 3.11 or newer is needed; $(PYTHON) is $$($(PYTHON) --version 2>&1). Install python3.11 (and python3-venv) or run make PYTHON=/path/to/python3.11."; exit 1; }
	@$(PYTHON) -m venv $(VENV) || { echo "Creating the virtualenv failed: on Debian/Ubuntu apt-get install python3-venv"; exit 1; }
	$(PIP) install --quiet pip==$(PIP_VERSION)
	$(PIP) install --quiet -r requirements.lock
	touch $@

$(VENV)/.dev-installed: $(VENV)/.installed requirements-dev.lock
	$(PIP) install --quiet -r requirements-dev.lock
	touch $@

## make lock: re-pin every package from requirements.txt and requirements-dev.txt (pip-tools).
lock: dev-venv
	$(VENV)/bin/pip-compile --quiet --allow-unsafe --no-emit-index-url --no-emit-find-links --strip-extras \
		--output-file requirements.lock requirements.txt
	$(VENV)/bin/pip-compile --quiet --allow-unsafe --no-emit-index-url --no-emit-find-links --strip-extras \
		--output-file requirements-dev.lock requirements-dev.txt

venv: $(VENV)/.installed
dev-venv: $(VENV)/.dev-installed

# Django's system checks include WeasyPrint's libraries (Pango, HarfBuzz) and a font (core/checks.py).
syslibs: venv
	@$(MANAGE) check --fail-level ERROR >/dev/null || { echo "System libraries missing: see README, 'System libraries'."; $(MANAGE) check; exit 1; }

messages: venv
	@command -v msgfmt >/dev/null || { echo "gettext's msgfmt is missing: apt-get install gettext (English pages need it)"; exit 1; }
	$(MANAGE) compilemessages --ignore=.venv -v0

# The periodic schedule's defaults (CELERY_BEAT_SCHEDULE) where missing; administrators' changes are kept.
# With DATABASE_MIGRATE_URL set (production: the owner of the tables), migrate connects as it; everything
# else as DATABASE_URL (the application's role, which owns nothing; docs/security/database.md).
migrate: venv
	$(if $(DATABASE_MIGRATE_URL),DATABASE_URL="$$DATABASE_MIGRATE_URL") $(MANAGE) migrate --noinput -v0
	$(MANAGE) sync_schedules -v0

# The demo: the register, then each domain's records on top of it (every command is idempotent).
seed: migrate
	$(MANAGE) seed_demo
	$(MANAGE) seed_franchises
	$(MANAGE) seed_improvement
	$(MANAGE) seed_improvement_billing
	$(MANAGE) seed_liens
	$(MANAGE) seed_rolls
	$(MANAGE) seed_franchise_billing
	$(MANAGE) issue_demo_notices
	$(MANAGE) seed_dashboard

serve:
	@echo "Serving at http://$(HOST)/ (Ctrl-C stops)"
	$(MANAGE) runserver $(HOST)

## make run: install, migrate, load the demo data and serve on SQLite with in-process tasks.
run: syslibs messages seed serve

## make test: install with the test tools, lint, and run the whole suite (DATABASE_URL picks PostgreSQL).
test: dev-venv syslibs messages lint pytest

lint: dev-venv
	$(VENV)/bin/ruff check .

pytest: dev-venv
	DJANGO_SETTINGS_MODULE=config.settings.test $(VENV)/bin/pytest $(PYTEST_ARGS)

# Workers and beat never guess their settings (config/celery.py refuses to start without them):
# production unless told otherwise, e.g. `make worker DJANGO_SETTINGS_MODULE=config.settings.local`.
# A worker consumes every queue unless QUEUES says which (celery's -Q): rolls, notices, deadlines, default.
# On a server the systemd units of deploy/ run them instead (one cargos-worker@<queues> per group).
worker beat: DJANGO_SETTINGS_MODULE ?= config.settings.production
QUEUES ?= rolls,notices,deadlines,default

worker: venv
	@echo "Celery worker: settings $(DJANGO_SETTINGS_MODULE), queues $(QUEUES)"
	DJANGO_SETTINGS_MODULE=$(DJANGO_SETTINGS_MODULE) $(VENV)/bin/celery -A config worker -Q $(QUEUES) \
		--loglevel=INFO --concurrency=$${CELERY_CONCURRENCY:-2}

beat: venv
	@echo "Celery beat: settings $(DJANGO_SETTINGS_MODULE)"
	DJANGO_SETTINGS_MODULE=$(DJANGO_SETTINGS_MODULE) $(VENV)/bin/celery -A config beat --loglevel=INFO --pidfile=

## make prod-smoke: the production kit end to end on the local PostgreSQL and Redis (deploy/smoke.py):
## a fresh cargos_smoke database, gunicorn with deploy/gunicorn.conf.py, two workers and beat on
## config.settings.production, then sign-in, roll certification, notices and an owner's PDF over HTTP.
prod-smoke: venv syslibs
	$(PY) deploy/smoke.py

## make schema: regenerate the committed OpenAPI contract (a test compares it with the code).
## Integer ranges follow the database backend, so it describes PostgreSQL's (no connection is made).
schema: venv
	DATABASE_URL=postgres://schema@127.0.0.1:1/schema $(MANAGE) spectacular --lang en --file docs/api/openapi.yaml

clean:
	rm -rf $(VENV) db.sqlite3 media staticfiles
