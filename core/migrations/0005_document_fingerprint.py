# A document issued again for the same content (a report with the same filters and figures) is reused.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("core", "0004_dashboard"),
    ]

    operations = [
        migrations.AddField(
            model_name="document",
            name="fingerprint",
            field=models.CharField(blank=True, default="", editable=False, max_length=64,
                                   verbose_name="huella del contenido"),
        ),
        migrations.AddIndex(
            model_name="document",
            index=models.Index(condition=models.Q(("fingerprint", ""), _negated=True), fields=["fingerprint"],
                               name="core_document_fingerprint_idx"),
        ),
    ]
