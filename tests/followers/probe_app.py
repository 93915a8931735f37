"""The Django app that registers the probe follower (``tests.followers.probe``)."""

from django.apps import AppConfig


class ProbeConfig(AppConfig):
    name = "tests.followers.probe_app"
    label = "follower_probe"

    def ready(self) -> None:
        from games.followers import register

        from .probe import Probe

        register(Probe())
