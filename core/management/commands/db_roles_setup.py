"""Create (or bring up to date) the two PostgreSQL roles of a deployment: the owner of the tables,
which `migrate` connects as, and the application's role, which owns nothing (core/db_roles.py,
docs/security/database.md).

Run once as a PostgreSQL superuser, after creating the database and before the first `migrate`, and
again whenever in doubt (idempotent):

    DATABASE_URL=postgres://postgres@/cargos CARGOS_OWNER_PASSWORD=… CARGOS_APP_PASSWORD=… \\
        manage.py db_roles_setup

or print the SQL for a DBA to read and run with psql: `manage.py db_roles_setup --print`.
Passwords are read from the environment (never the command line, which other users can see);
without one, the role keeps the password it has (or has none: peer or certificate authentication).
"""
from __future__ import annotations

import os

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from core.db_roles import statements


class Command(BaseCommand):
    help = "Create the owner role (migrations) and the application role (owns nothing) on this database."

    def add_arguments(self, parser):
        parser.add_argument("--owner", default="cargos_owner", help="the role that owns the tables (migrate)")
        parser.add_argument("--app", default="cargos_app", help="the application's role (DATABASE_URL)")
        parser.add_argument("--owner-password-env", default="CARGOS_OWNER_PASSWORD", metavar="VAR",
                            help="environment variable holding the owner's password")
        parser.add_argument("--app-password-env", default="CARGOS_APP_PASSWORD", metavar="VAR",
                            help="environment variable holding the application role's password")
        parser.add_argument("--print", action="store_true", dest="print_only",
                            help="print the SQL instead of running it")

    def handle(self, *args, owner, app, owner_password_env, app_password_env, print_only, **options):
        if connection.vendor != "postgresql":
            raise CommandError("database roles are a PostgreSQL matter (DATABASE_URL is not PostgreSQL)")
        try:
            sql = statements(database=connection.settings_dict["NAME"], owner=owner, app=app,
                             owner_password=os.environ.get(owner_password_env) or None,
                             app_password=os.environ.get(app_password_env) or None)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if print_only:
            for statement in sql:
                self.stdout.write(statement + ";\n")
            return
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
            if not cursor.fetchone()[0]:
                raise CommandError("db_roles_setup needs a PostgreSQL superuser in DATABASE_URL (e.g. postgres)")
            for statement in sql:
                cursor.execute(statement)
        self.stdout.write(self.style.SUCCESS(
            f"{owner} owns the schema and its tables (migrate connects as it); {app} may read and write rows "
            f"and owns nothing (the application's DATABASE_URL)"))
