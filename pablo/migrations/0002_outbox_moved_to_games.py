"""The outbox's model now belongs to ``games`` (games 0006): forget it here, state only --
its table ``pablo_outboxmessage`` is kept and used by ``games.models.OutboxMessage``."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("pablo", "0001_initial"), ("games", "0006_outboxmessage")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="OutboxMessage")],
            database_operations=[],
        ),
    ]
