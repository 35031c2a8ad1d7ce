from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_round_analysis"),
    ]

    operations = [
        migrations.AddField(
            model_name="moverecord",
            name="events",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
