"""Settings shared by every environment. One `environ.Env()`; secrets only from the environment."""
from datetime import timedelta
from pathlib import Path

import environ
from celery.schedules import crontab
from django.utils.translation import gettext_lazy as _

from config.sentry import init_sentry
from config.storage import storages_from_env
from config.version import __version__
from core.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent.parent
env = environ.Env()
env.read_env(str(BASE_DIR / ".env"), overwrite=False) if (BASE_DIR / ".env").exists() else None

DEBUG = env.bool("DJANGO_DEBUG", default=False)
SECRET_KEY = env("DJANGO_SECRET_KEY", default="")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "simple_history",
    "django_celery_beat",
    "django_celery_results",
    "axes",
    # The second factor (core/otp.py): TOTP apps, and one-time recovery codes as a static device.
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "core",
    "districts",
    "liens",
    "franchises",
    "assessments",
    "assessments.rolls",
    "assessments.notices",
    "assessments.franchise_billing",
    "assessments.improvement_billing",
]

MIDDLEWARE = [
    "core.request_id.RequestIdMiddleware",  # first: every response carries X-Request-ID, every log line the id
    "core.proxy.RealIpMiddleware",  # before anything records the client's address
    "django.middleware.security.SecurityMiddleware",
    "core.csp.ContentSecurityPolicyMiddleware",  # docs/security/csp.md
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "core.middleware.DefaultSpanishLocaleMiddleware",
    "core.middleware.RejectNullCharactersMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "core.sessions.SessionTimeoutMiddleware",
    "django_otp.middleware.OTPMiddleware",  # request.user.is_verified(): the session gave its second factor
    "core.otp.SecondFactorMiddleware",  # the one enforcement point: an unverified session reaches only sign-in
    "core.headers.NoStoreMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, so their 429 replaces the answer of the view that recorded the failure reaching the limit:
    "axes.middleware.AxesMiddleware",
    "core.signin.SignInFailureMiddleware",   # inside axes': writes the failures of the non-login doors
]

# Reverse proxies whose X-Real-IP names the client (core/proxy.py); none in development.
TRUSTED_PROXY_IPS = env.list("TRUSTED_PROXY_IPS", default=[])

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "core.context_processors.navigation",
                "core.context_processors.version",
            ],
        },
    },
]

# Failed sign-ins (django-axes; docs/security/sign-in.md): axes' backend first refuses a locked-out request
# before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# At most AXES_FAILURE_LIMIT failures within AXES_COOLOFF_TIME, counted per user name from one address and
# per address alone (many user names tried from one place), on every door: login forms, admin, API tokens,
# portal activation codes, document verification codes (core/signin.py). Then 429 until the cool-off has
# passed since the last failure; administrators unlock in the admin ("Access attempts": delete the rows).
AXES_ENABLED = True
AXES_FAILURE_LIMIT = env.int("SIGNIN_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("SIGNIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = True
# Tries during the lockout do not extend it, so the page can say when to come back (core.signin.retry_at).
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_HANDLER = "core.signin.SignInHandler"
# Its start-up banner on every manage.py command is noise; lockouts and failures are still logged.
AXES_VERBOSE = False
AXES_LOCKOUT_CALLABLE = "core.signin.lockout_response"
AXES_USERNAME_CALLABLE = "core.signin.username_key"
# REMOTE_ADDR: the connection's address, or behind a trusted proxy (production: nginx) the X-Real-IP it sent,
# set by core.proxy.RealIpMiddleware. Never X-Forwarded-For, which the client writes (core.signin).
AXES_CLIENT_IP_CALLABLE = "core.signin.remote_addr"
AXES_HTTP_RESPONSE_CODE = 429
# Every failure also kept in "Access failures" (the attempts' rows are deleted by a success or an unlock).
AXES_ENABLE_ACCESS_FAILURE_LOG = True
# Masked in axes' log lines and in the POST data kept with an attempt (user name and address stay in their
# own columns): passwords and the codes typed are never stored.
AXES_SENSITIVE_PARAMETERS = ["username", "ip_address", "password1", "password2", "code", "cadastre",
                             "new_password1", "new_password2", "old_password"]

# The second factor (core/otp.py, docs/security/sign-in.md): required for the roles that move money, certify or
# issue. OTP_REQUIRED=false only for a development database; production forces it on.
OTP_REQUIRED = env.bool("OTP_REQUIRED", default=True)
OTP_TOTP_ISSUER = "Cargos sobre la tierra"
# The admin lists and deletes devices but never shows a secret or its QR.
OTP_ADMIN_HIDE_SENSITIVE_DATA = True

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 12}},
    {"NAME": "core.passwords.PersonalNamesValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Sessions: 12 hours in all (the cookie's age, counted from sign-in) and 30 minutes idle (core.sessions).
SESSION_COOKIE_AGE = 12 * 60 * 60
SESSION_ABSOLUTE_SECONDS = SESSION_COOKIE_AGE
SESSION_IDLE_SECONDS = 30 * 60
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# Spanish first, English available (docs/architecture.md, "Money, dates, language").
LANGUAGE_CODE = "es"
LANGUAGES = [("es", _("Español")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "America/Puerto_Rico"
# Puerto Rico conventions in both languages (config/formats): 1,234.56 and dd/mm/yyyy. Django's `es` would
# give Spain's 1.234,56 (the admin showed "19160,01").
FORMAT_MODULE_PATH = ["config.formats"]
# Not on: it would also group years and record numbers ("2,026"). Amounts get their commas from the
# `usd`/`num` filters (core/templatetags/fmt.py) and the admin's money columns (core/admin_mixins.py).
USE_THOUSAND_SEPARATOR = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env("DJANGO_MEDIA_ROOT", default=str(BASE_DIR / "media")))
# Uploads and generated PDFs: MEDIA_ROOT, or an S3-compatible bucket with DJANGO_STORAGE_BACKEND=s3
# (config/storage.py; docs/operations/storage.md). Code reads and writes them only through the storage API.
STORAGES = storages_from_env(env.ENVIRON)

EMAIL_BACKEND = env("DJANGO_EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
# SMTP by configuration: DJANGO_EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend plus these.
EMAIL_HOST = env("DJANGO_EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("DJANGO_EMAIL_PORT", default=25)
EMAIL_HOST_USER = env("DJANGO_EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env("DJANGO_EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("DJANGO_EMAIL_USE_TLS", default=False)
# For the file backend (django.core.mail.backends.filebased.EmailBackend): one file per message.
EMAIL_FILE_PATH = env("DJANGO_EMAIL_FILE_PATH", default=str(BASE_DIR / "media" / "emails"))
# Links in e-mails (the daily digest) point at the staff site here.
STAFF_SITE_URL = env("STAFF_SITE_URL", default="http://127.0.0.1:8000")
# Printed on every document and encoded in its QR: where the public verification page lives.
DOCUMENTS_PUBLIC_BASE_URL = env("DOCUMENTS_PUBLIC_BASE_URL", default="https://cargos.pr.gov")
DEFAULT_FROM_EMAIL = env("DJANGO_DEFAULT_FROM_EMAIL", default="no-responder@cargos.pr.gov")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # The browser's session (with CSRF), and scoped, revocable tokens for integrations
        # (core.api_tokens). HTTP Basic is off: no password travels with each request.
        "rest_framework.authentication.SessionAuthentication",
        "core.api_tokens.ApiTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["core.permissions.HasAction"],
    # core.filters: a filter value it cannot read is a 400, not "no filter".
    "DEFAULT_FILTER_BACKENDS": ["core.filters.FilterBackend",
                                "rest_framework.filters.OrderingFilter"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "COERCE_DECIMAL_TO_STRING": True,
    "EXCEPTION_HANDLER": "core.api.exception_handler",
    "DEFAULT_PARSER_CLASSES": ["core.api.JSONParser", "core.api.FormParser", "core.api.MultiPartParser"],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Cargos sobre la tierra — API",
    "DESCRIPTION": "Irrigation, Lajas Valley, franchise and improvement-district charges of Puerto Rico.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SERVE_PERMISSIONS": ["core.permissions.IsStaffReader"],
    # The API speaks JSON: its contract documents JSON bodies only (forms are still parsed, for the browsable API).
    "PARSER_WHITELIST": ["core.api.JSONParser"],
    # Every operation documents its errors too (400/403/404/415/429 with their bodies): core/api_schema.py.
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "core.api_schema.document_errors"],
    # One name per choice set where field names collide ("kind", "status") or one set has several names.
    # The schema is generated without warnings (tests/web/test_api_schema.py), so the deploy check
    # drf_spectacular.W001 stays on.
    "ENUM_NAME_OVERRIDES": {
        "ApplicationKindEnum": "franchises.models.Application.Kind",
        "FranchiseStatusEnum": "franchises.models.Franchise.Status",
        "HolderTypeEnum": "franchises.models.HolderType",
        "NotificationMethodEnum": "franchises.models.Application.NotificationMethod",
        "TidAccountEntryKindEnum": "districts.improvement.models.TidAccountEntry.Kind",
        "NoticeLanguageEnum": "django.conf.settings.LANGUAGES",
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# Celery: eager (in-process) when no broker is configured, so `make run` needs no Redis.
REDIS_URL = env("REDIS_URL", default="")
CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
          if REDIS_URL else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_TIME_LIMIT = 60 * 60
CELERY_TASK_SOFT_TIME_LIMIT = 55 * 60
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A killed worker's task comes back after this many seconds rather than Redis's default hour.
# Twice the hard time limit: a task still running is never handed to a second worker.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=7200)}
# Named queues, so one kind of work cannot starve another (`celery worker -Q …`; deploy/ runs one
# cargos-worker@<queues> per group):
#   rolls     — a roll's generation, certification, finalization and corrections: long, one district at a time;
#   notices   — rendering notices (WeasyPrint, CPU-bound fan-out in chunks) and mailing batches;
#   deadlines — the beat's daily clock work: work queue and digest, franchise flags, nightly lien ranking,
#               franchise and improvement billing. Statutory dates must not wait behind a July roll or a
#               notice run, and these batches must not delay what staff start by hand;
#   default   — everything else: imports confirmed by staff, lien re-ranking after a finalization, Celery's own.
# CELERY_SINGLE_QUEUE=<queue> in the environment sends every task to that one queue (config.celery.route_task):
# a test's private worker, or a small box with one worker.
CELERY_TASK_DEFAULT_QUEUE = "default"
# The periodic schedule lives in the database (django-celery-beat; admin "Periodic tasks"), behind a lock
# in Redis so a second beat only waits (config/beat.py). CELERY_BEAT_SCHEDULE below is the default that
# `manage.py sync_schedules` installs where an entry is missing; it never overwrites an administrator's change.
CELERY_BEAT_SCHEDULER = "config.beat:LockedDatabaseScheduler"
# Each send's last-run time is written at once, so a beat taking over never sends a task again.
CELERY_BEAT_SYNC_EVERY = 1
CELERY_TASK_ROUTES = [
    "config.celery.route_task",
    {
        "assessments.rolls.*": {"queue": "rolls"},
        "assessments.notices.*": {"queue": "notices"},
        "core.tasks.*": {"queue": "deadlines"},
        "franchises.tasks.*": {"queue": "deadlines"},
        "liens.tasks.liens_rank_all_task": {"queue": "deadlines"},
        "assessments.franchise_billing.tasks.*": {"queue": "deadlines"},
        "assessments.improvement_billing.tasks.*": {"queue": "deadlines"},
    },
]
# Later issues add their entries here (July 1 rolls, daily deadlines and delinquency).
CELERY_BEAT_SCHEDULE: dict = {
    # franchises: FRA-10 (12 months without use) and FRA-7 (renewal not filed) flags; 04:30 Puerto Rico time.
    "franchises-daily-flags": {"task": "franchises.tasks.franchise_daily_flags",
                               "schedule": crontab(hour=4, minute=30)},
    # core: open statutory clocks past their due date become MISSED (DEADLINES); 05:00 Puerto Rico time.
    "core-refresh-work-queue": {"task": "core.tasks.refresh_work_queue", "schedule": crontab(hour=5, minute=0)},
    # core: each responsible user's digest of what comes due this week and what is overdue; 06:30 PR time.
    "core-daily-digest": {"task": "core.tasks.send_daily_digests", "schedule": crontab(hour=6, minute=30)},
    # IRR-9 / LAJ-6: certified rolls are finalized and billed on July 1; the daily run catches a missed tick.
    "rolls-finalize-july-1": {"task": "assessments.rolls.tasks.rolls_finalize_due_task",
                              "schedule": crontab(month_of_year=7, day_of_month=1, hour=0, minute=5)},
    "rolls-finalize-daily": {"task": "assessments.rolls.tasks.rolls_finalize_due_task",
                             "schedule": crontab(hour=1, minute=15)},
    # LIEN-2: liens registered in bulk are ranked (and conflicts flagged) every night as a safety net.
    "liens-rank-all-nightly": {"task": "liens.tasks.liens_rank_all_task", "schedule": crontab(hour=2, minute=30)},
    # notices: any open charge still without its notice (a lost fan-out, a charge billed alone); 02:30.
    "notices-issue-missing-daily": {"task": "assessments.notices.tasks.notices_issue_missing_task",
                                    "schedule": crontab(hour=2, minute=30)},
    # FRA-3: tariff invoices for the next fiscal year (due July 1) on June 1; daily, franchises issued during the
    # current year get their pro rata invoice; then FRA-8 arrears flags (oldest unpaid due date + 6 months).
    "franchise-invoices-june-1": {"task": "assessments.franchise_billing.tasks.franchise_invoices_generate_task",
                                  "schedule": crontab(month_of_year=6, day_of_month=1, hour=2, minute=0)},
    "franchise-invoices-catch-up-daily": {
        "task": "assessments.franchise_billing.tasks.franchise_invoices_catch_up_task",
        "schedule": crontab(hour=2, minute=30)},
    "franchise-arrears-flags-daily": {"task": "assessments.franchise_billing.tasks.franchise_arrears_flags_task",
                                      "schedule": crontab(hour=4, minute=45)},
    # SID-1 / TID-2: benefit charges. Daily at 00:45: from June 1 next fiscal year for districts whose term covers
    # it (idempotent; the rest of the year it catches up the current one); then collections to SID-3 / TID-5.
    "improvement-bill-daily": {"task": "assessments.improvement_billing.tasks.improvement_bill_year_task",
                               "schedule": crontab(hour=0, minute=45)},
    "improvement-collections-feed-daily": {
        "task": "assessments.improvement_billing.tasks.improvement_collections_feed_task",
        "schedule": crontab(hour=3, minute=15)},
}

# Amount fields (docs/architecture.md, "Money, dates, language").
MONEY_MAX_DIGITS = 14
MONEY_DECIMAL_PLACES = 2

# The shipped date-effective parameter files (core.rule_parameters reads them; docs/rules/README.md#parameters).
SHIPPED_PARAMETERS_DIR = BASE_DIR / "assessments" / "parameters"

# Import confirmations with more rows than this run as a Celery task (districts.imports ImportJob).
IMPORT_TASK_THRESHOLD_ROWS = env.int("IMPORT_TASK_THRESHOLD_ROWS", default=2000)

# Demo accounts exist only where seed_demo created them; production can switch them off.
DEMO_ACCOUNTS_ENABLED = env.bool("DEMO_ACCOUNTS_ENABLED", default=True)

# Logs (docs/operations/observe.md): `text` lines for people, or `json` lines (DJANGO_LOG_FORMAT=json, the
# production default) for a collector; both with the request id (core/logs.py, core/request_id.py).
LOG_FORMAT = env("DJANGO_LOG_FORMAT", default="text")
LOG_LEVEL = env("DJANGO_LOG_LEVEL", default="INFO")
LOGGING = logging_config(LOG_FORMAT, LOG_LEVEL)

# Sentry, only when SENTRY_DSN is set (config/sentry.py); nothing is initialised or sent otherwise.
SENTRY_DSN = env("SENTRY_DSN", default="")
# The environment's name defaults to the settings module's: production, local, test.
SENTRY_ENVIRONMENT = env("SENTRY_ENVIRONMENT",
                         default=env("DJANGO_SETTINGS_MODULE", default="local").rsplit(".", 1)[-1])
init_sentry(SENTRY_DSN, SENTRY_ENVIRONMENT, __version__,
            traces_sample_rate=env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0))
