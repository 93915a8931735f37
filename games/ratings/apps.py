from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "games.ratings"
    label = "ratings"
    verbose_name = "Ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The ratings follow the log (docs/ratings.md): rated when game_finished comes by.
        from games.followers import register

        from .follower import Ratings

        register(Ratings())
