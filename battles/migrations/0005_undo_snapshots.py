from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0004_rate_limit_hits"),
    ]

    operations = [
        migrations.AddField(
            model_name="gameevent",
            name="state_before",
            field=models.JSONField(blank=True, null=True),
        ),
    ]
