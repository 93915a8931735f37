from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The live feed's publish first among the receivers of events_appended: waiters
        # learn of an append before anything slower. The Celery tasks are imported for
        # the work modules, which enqueue them by name (games.outbox).
        import games.feed.publish  # noqa: F401

        # (.tokens) The token cache's receivers write the shared marks (a deleted token, a saved
        # or deleted user) that every process's token cache and the feed's fast path
        # check: connected in *every* process (a `manage.py shell`, a command, the
        # Celery worker), not only in one that happened to import the API's views.
        from . import (
            accounts,  # noqa: F401  (every account's name key)
            followers,
            tokens,  # noqa: F401
        )
        from .feed.followers import AccountFeed
        from .followers import tasks as follower_tasks  # noqa: F401
        from .notifications import tasks  # noqa: F401
        from .notifications.followers import Notifications
        from .review import tasks as review_tasks  # noqa: F401
        from .store.signals import events_appended
        from .turns import tasks as turn_tasks  # noqa: F401
        from .turns.followers import BotTurns, DeadlineFastPath

        # The followers of the log (docs/design.md "The log and its followers"), and
        # the after-commit hint that wakes them.
        for follower in (AccountFeed(), BotTurns(), DeadlineFastPath(), Notifications()):
            followers.register(follower)
        events_appended.connect(followers.hint, dispatch_uid="games.followers.hint")
