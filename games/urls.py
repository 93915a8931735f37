"""API routes (API.md), mounted under /api/ (pablo/urls.py: JSON 404 for other paths)."""

from django.urls import path

from games import apis, apis_friends

app_name = "games"
urlpatterns = [
    path("auth/register/", apis.RegisterApi.as_view(), name="register"),
    path("auth/token/", apis.TokenApi.as_view(), name="token"),
    path("rulesets/", apis.RulesetListApi.as_view(), name="rulesets"),
    path("games/", apis.GameListCreateApi.as_view(), name="games"),
    path("games/<str:game_id>/", apis.GameDetailApi.as_view(), name="game"),
    path("games/<str:game_id>/join/", apis.GameJoinApi.as_view(), name="join"),
    path("games/<str:game_id>/back/", apis.GameComeBackApi.as_view(), name="back"),
    path("games/<str:game_id>/actions/", apis.GameActionApi.as_view(), name="actions"),
    path("games/<str:game_id>/events/", apis.GameEventsApi.as_view(), name="events"),
    path("games/<str:game_id>/replay/", apis.GameReplayApi.as_view(), name="replay"),
    # games among friends
    path("games/<str:game_id>/cancel/", apis_friends.GameCancelApi.as_view(), name="cancel"),
    path("games/<str:game_id>/rematch/", apis_friends.GameRematchApi.as_view(), name="rematch"),
    path("me/history/", apis_friends.HistoryApi.as_view(), name="history"),
]
