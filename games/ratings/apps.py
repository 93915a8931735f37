from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "games.ratings"
    label = "ratings"
    verbose_name = "Ratings"
    default_auto_field = "django.db.models.BigAutoField"
