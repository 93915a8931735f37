"""API routes (API.md), mounted under /api/ (pablo/urls.py: JSON 404 for other paths)."""

from django.urls import path

from . import friends, programs, ratings, views

app_name = "games"
urlpatterns = [
    path("auth/register/", views.RegisterApi.as_view(), name="register"),
    path("auth/token/", views.TokenApi.as_view(), name="token"),
    path("auth/token/rotate/", views.TokenRotateApi.as_view(), name="token_rotate"),
    path("rulesets/", views.RulesetListApi.as_view(), name="rulesets"),
    path("games/", views.GameListCreateApi.as_view(), name="games"),
    path("games/<str:game_id>/", views.GameDetailApi.as_view(), name="game"),
    path("games/<str:game_id>/join/", views.GameJoinApi.as_view(), name="join"),
    path("games/<str:game_id>/back/", views.GameComeBackApi.as_view(), name="back"),
    path("games/<str:game_id>/actions/", views.GameActionApi.as_view(), name="actions"),
    path("games/<str:game_id>/events/", views.GameEventsApi.as_view(), name="events"),
    path("games/<str:game_id>/replay/", views.GameReplayApi.as_view(), name="replay"),
    path("games/<str:game_id>/analysis/", views.GameAnalysisApi.as_view(), name="analysis"),
    # games among friends
    path("games/<str:game_id>/cancel/", friends.GameCancelApi.as_view(), name="cancel"),
    path("games/<str:game_id>/rematch/", friends.GameRematchApi.as_view(), name="rematch"),
    path("me/history/", friends.HistoryApi.as_view(), name="history"),
    # the platform for programs (docs/programs.md)
    path("me/bot/", programs.BotAccountApi.as_view(), name="me_bot"),
    path("me/turns/", programs.TurnsApi.as_view(), name="me_turns"),
    path("me/events/", programs.AccountEventsApi.as_view(), name="me_events"),
    # ratings (docs/ratings.md)
    path("ratings/<str:ruleset>/", ratings.LeaderboardApi.as_view(), name="leaderboard"),
    path("players/<str:username>/", ratings.PlayerApi.as_view(), name="player"),
]
