from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0007_league"),
    ]

    operations = [
        migrations.AddField(
            model_name="gameevent",
            name="state_before",
            field=models.JSONField(blank=True, null=True),
        ),
    ]
