"""The roles as groups (core.roles). Permissions are checked by role in views and the API."""
from django.db import migrations

ROLES = ["administrator", "staff", "cashier", "approver", "legal_reviewer", "auditor", "owner"]


def create_roles(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for name in ROLES:
        Group.objects.get_or_create(name=name)


class Migration(migrations.Migration):
    dependencies = [("core", "0001_initial"), ("auth", "0012_alter_user_first_name_max_length")]
    operations = [migrations.RunPython(create_roles, migrations.RunPython.noop)]
