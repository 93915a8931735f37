from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects the events_appended receiver (deadline fast path, notifications).
        # bots (issue #11): the events_appended receiver that enqueues bot moves, and their tasks
        from . import (  # noqa: F401
            bot_turns,
            notifications,
            tasks_bots,
        )
