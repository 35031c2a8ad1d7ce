from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_moverecord_events"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="timer_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
