"""Puerto Rico's 78 municipalities with their FIPS codes (odd numbers 001–153, alphabetical)."""
from django.db import migrations

from districts.reference import MUNICIPALITIES


def load(apps, schema_editor):
    Municipality = apps.get_model("districts", "Municipality")
    for i, name in enumerate(MUNICIPALITIES):
        Municipality.objects.get_or_create(name=name, defaults={"code": f"{2 * i + 1:03d}"})


class Migration(migrations.Migration):
    dependencies = [("districts", "0001_initial")]
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
