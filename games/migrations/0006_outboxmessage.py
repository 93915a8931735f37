"""The outbox's model moves from the ``pablo`` app to ``games`` (``games.outbox``): state
only, the table ``pablo_outboxmessage`` stays as it is (pablo 0002 drops the old state)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0005_snapshot"), ("pablo", "0001_initial")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="OutboxMessage",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("task", models.CharField(max_length=200)),
                        ("args", models.JSONField(default=list)),
                        ("kwargs", models.JSONField(default=dict)),
                        ("options", models.JSONField(default=dict)),
                        ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                        ("attempts", models.PositiveIntegerField(default=0)),
                        ("claim", models.BooleanField(default=False)),
                        ("published_at", models.DateTimeField(blank=True, null=True)),
                        ("last_error", models.CharField(blank=True, default="", max_length=300)),
                    ],
                    options={"ordering": ["id"], "db_table": "pablo_outboxmessage"},
                ),
            ],
            database_operations=[],
        ),
    ]
