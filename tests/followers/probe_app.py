"""The Django app that registers the probe follower (``tests.followers.probe``) and, when
asked, pauses a real follower in the middle of its batches (``tests.followers.pause``)."""

from django.apps import AppConfig


class ProbeConfig(AppConfig):
    name = "tests.followers.probe_app"
    label = "follower_probe"

    def ready(self) -> None:
        from games.followers import register

        from . import pause
        from .probe import Probe

        register(Probe())
        pause.install()  # a pause in a real follower's batches, when asked
