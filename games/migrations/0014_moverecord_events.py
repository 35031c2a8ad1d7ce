from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_puzzles"),
    ]

    operations = [
        migrations.AddField(
            model_name="moverecord",
            name="events",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
