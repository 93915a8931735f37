from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The receivers of events_appended (deadline fast path, bot turns, notifications)
        # and the Celery tasks, which the work modules enqueue by name (games.outbox).
        # The live feed's publish first: waiters learn of an append before anything slower.
        import games.feed.publish  # noqa: F401

        from . import accounts  # noqa: F401  (every account's name key)
        from .notifications import receivers, tasks  # noqa: F401
        from .review import tasks as review_tasks  # noqa: F401
        from .turns import receivers as turn_receivers  # noqa: F401
        from .turns import tasks as turn_tasks  # noqa: F401
