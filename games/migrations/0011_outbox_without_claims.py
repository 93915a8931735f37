"""The outbox keeps only the messages the broker refused: a notification is fanned out
by its follower of the log, no longer sent as a claimed message."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("games", "0010_event_position_followers")]

    operations = [
        migrations.RemoveField(model_name="outboxmessage", name="claim"),
        migrations.RemoveField(model_name="outboxmessage", name="published_at"),
    ]
