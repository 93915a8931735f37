from django.apps import AppConfig


class ReplaysConfig(AppConfig):
    name = "replays"

    def ready(self) -> None:
        from games.store.signals import events_appended

        from .signals import prepare_replay

        events_appended.connect(prepare_replay, dispatch_uid="replays.prepare_replay")
