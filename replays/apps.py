from django.apps import AppConfig


class ReplaysConfig(AppConfig):
    name = "replays"

    def ready(self) -> None:
        from games.followers import register

        from .followers import PrepareReplays

        register(PrepareReplays())
