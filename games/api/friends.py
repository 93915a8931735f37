"""The API of games among friends (API.md "Games among friends", docs/api.md).

``POST /api/games/{id}/cancel/``, ``POST /api/games/{id}/rematch/`` and
``GET /api/me/history/``: thin views over ``games.services`` (the writes) and
``games.friends`` (the reads), like ``games.api.views``.

The rematch creates a game: it counts against ``PABLO_THROTTLE_GAMES`` like
``POST /api/games/`` (its route is ``games:rematch``; see games/api/throttling.py).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response

from games import friends, rules
from games.api import shares
from games.selectors import games as game_selectors
from games.services import friends as friend_services

from .schema import GameSerializer
from .serializers import StrictCharField
from .views import GAME_ID, JsonApiView, _errors

# --------------------------------------------------------------------------- serializers


class RematchInputSerializer(serializers.Serializer):
    seed = StrictCharField(
        max_length=64,
        required=False,
        default="",
        allow_blank=True,
        trim_whitespace=False,
        help_text="Your fair-deal seed for the new game (docs/fairness.md).",
    )


class RematchSerializer(GameSerializer):
    invite = serializers.CharField(
        help_text="The new game's invite: every person of the finished game may join with it."
    )


class HistoryPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField()
    bot = serializers.CharField(allow_null=True)
    score = serializers.IntegerField(help_text="The final game total (Skip-Bo: stock left).")
    rank = serializers.IntegerField(help_text="1 + the players placed strictly better.")


class HistoryGameSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    ruleset = serializers.CharField()
    finished_at = serializers.DateTimeField(allow_null=True)
    seats = serializers.IntegerField()
    you = serializers.IntegerField(help_text="Your seat.")
    result = serializers.ChoiceField(
        choices=["won", "lost"], help_text="won: among the winners (a shared win too)."
    )
    rank = serializers.IntegerField(
        help_text="Your place: winners 1, losers last, the others by their final total "
        "(lower is better)."
    )
    score = serializers.IntegerField(help_text="Your final game total (Skip-Bo: stock left).")
    players = HistoryPlayerSerializer(many=True)
    replay = serializers.CharField(help_text="The replay viewer's page of the game.")


class HistoryRulesetSerializer(serializers.Serializer):
    ruleset = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()


class HistorySerializer(serializers.Serializer):
    rulesets = HistoryRulesetSerializer(
        many=True, help_text="Per ruleset over all your finished games (not only this page)."
    )
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = HistoryGameSerializer(many=True)


class HistoryQuerySerializer(serializers.Serializer):
    ruleset = serializers.ChoiceField(
        choices=[r.id for r in rules.rulesets()], required=False, help_text="Only this ruleset."
    )
    page = serializers.IntegerField(required=False, min_value=1)


# --------------------------------------------------------------------------- views


class GameCancelApi(JsonApiView):
    @extend_schema(
        operation_id="games_cancel",
        parameters=[GAME_ID],
        request=None,
        responses={200: GameSerializer, **_errors(401, 403, 404, 409)},
        summary="Cancel your game while it waits for players.",
        description="The creator only (403 `not_creator` for anyone else); 409 "
        "`game_not_waiting` once it has started. The game is aborted: its last event is "
        '`game_aborted` with `{"reason": "cancelled"}`.',
    )
    def post(self, request: Request, game_id: str) -> Response:
        friends.check_invite(game_id, None, request.user)  # a private game: its players only
        game = friend_services.game_cancel(game_id=game_id, user=request.user)
        return Response(game_selectors.game_data(game=game, user=request.user))


class GameRematchApi(JsonApiView):
    @extend_schema(
        operation_id="games_rematch",
        parameters=[GAME_ID],
        request=RematchInputSerializer,
        responses={
            201: RematchSerializer,
            200: RematchSerializer,
            **_errors(400, 401, 403, 404, 409),
        },
        summary="Start (or find) the rematch of a finished game.",
        description="A player of a finished game: 201 a new private game with the same "
        "ruleset, seats, options and turn time, you in seat 0, the bots seated again at "
        "once; the answer carries its `invite`, with which every person of the finished "
        "game may join. A second call (by any of its players) answers the same game, 200. "
        "409 `game_not_finished` otherwise; 403 for a non-player. Counts against "
        "`PABLO_THROTTLE_GAMES`.",
    )
    def post(self, request: Request, game_id: str) -> Response:
        friends.check_invite(game_id, None, request.user)  # a private game: its players only
        body = RematchInputSerializer(data=request.data if request.data else {})
        body.is_valid(raise_exception=True)
        with transaction.atomic():
            game, created = friend_services.game_rematch(
                game_id=game_id,
                user=request.user,
                created_from=shares.address_key(request),
                **body.validated_data,
            )
            if created:
                shares.check_game(request, game)
        data = game_selectors.game_data(game=game, user=request.user)
        data["invite"] = game.invite
        return Response(data, status=201 if created else 200)


class HistoryPagination(PageNumberPagination):
    page_size = 20


class HistoryApi(JsonApiView):
    @extend_schema(
        operation_id="me_history",
        parameters=[HistoryQuerySerializer],
        responses={200: HistorySerializer, **_errors(400, 401, 404)},
        summary="Your finished games: result, rank and score, the latest first; "
        "a summary per ruleset.",
        description="20 a page; `ruleset` keeps one ruleset. 404 `not_found` for a page "
        "beyond the last.",
    )
    def get(self, request: Request) -> Response:
        query = HistoryQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        games = friends.history_games(
            user=request.user, ruleset=query.validated_data.get("ruleset")
        )
        paginator = HistoryPagination()
        page = paginator.paginate_queryset(games, request, view=self) or []
        answer: Any = paginator.get_paginated_response(
            [friends.history_row(game=game, user=request.user) for game in page]
        )
        answer.data = {"rulesets": friends.history_summary(user=request.user), **answer.data}
        return answer
