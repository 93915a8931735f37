from django.urls import path

from . import views

app_name = "replays"
urlpatterns = [
    path("", views.game_list, name="list"),
    path("<uuid:game_id>/", views.game_replay_view, name="replay"),
    path("<uuid:game_id>/analyse/", views.game_analyse, name="analyse"),
]
