from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The receivers of events_appended (deadline fast path, bot turns, notifications)
        # and the Celery tasks, which the work modules enqueue by name (games.outbox).
        # The live feed's publish first: waiters learn of an append before anything slower.
        import games.feed.publish  # noqa: F401

        # (.api.auth) The token cache's receivers write the shared marks (a deleted token, a saved
        # or deleted user) that every process's token cache and the feed's fast path
        # check: connected in *every* process (a `manage.py shell`, a command, the
        # Celery worker), not only in one that happened to import the API's views.
        from . import accounts  # noqa: F401  (every account's name key)
        from .api import auth  # noqa: F401
        from .notifications import receivers, tasks  # noqa: F401
        from .review import tasks as review_tasks  # noqa: F401
        from .turns import receivers as turn_receivers  # noqa: F401
        from .turns import tasks as turn_tasks  # noqa: F401
