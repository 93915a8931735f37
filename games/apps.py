from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects the events_appended receiver (deadline fast path, notifications) and
        # registers the tasks, which the work modules enqueue by name (games.queue).
        # bots (issue #11): the events_appended receiver that enqueues bot moves, and their tasks
        # The live feed's publish first: waiters learn of an append before anything slower runs.
        import games.feed.publish  # noqa: F401

        from . import bot_turns, notification_signal, tasks, tasks_bots  # noqa: F401  # noqa: F401
