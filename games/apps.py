from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects the events_appended receiver (deadline fast path, notifications) and
        # registers the tasks, which the work modules enqueue by name (games.queue).
        from . import notification_signal, tasks  # noqa: F401
