"""The project itself as an app: connects site-wide signal receivers at start-up."""

from django.apps import AppConfig


class PabloConfig(AppConfig):
    name = "pablo"
    verbose_name = "Pablo site"

    def ready(self) -> None:
        # Failed log-ins are counted from the first request on, web or API.
        from games.api import throttling  # noqa: F401
