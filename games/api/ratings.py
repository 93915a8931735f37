"""The ratings' REST views (docs/ratings.md), mounted by games/api/urls.py."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response

from games.errors import NotFound
from games.ratings import selectors as ratings
from games.selectors import games as selectors

from .schema import GameSummarySerializer
from .views import JsonApiView, _errors


class BoardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    rating = serializers.IntegerField(help_text="mu - 3 sigma, scaled: 1000 for a newcomer.")
    games = serializers.IntegerField(help_text="Rated games in this ruleset.")
    provisional = serializers.BooleanField(help_text="True while the uncertainty is large.")


class BoardPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = BoardRowSerializer(many=True)


class PlayerRatingSerializer(serializers.Serializer):
    rating = serializers.IntegerField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()


class PlayerGameSerializer(GameSummarySerializer):
    place = serializers.IntegerField(
        allow_null=True,
        help_text="The player's place in it, of `seats`: 1 for the best; ties share a place "
        "and the next skips (1, 2, 2, 4). Every finished game has one, whether its rules name "
        "a loser or not.",
    )
    tied = serializers.BooleanField(help_text="Another player shares that place.")
    points = serializers.IntegerField(
        allow_null=True,
        help_text="The player's final count as the ruleset counts it (Skip-Bo: cards left in "
        "the stock pile; the Pablo family: the game's total, lower is better); null where none.",
    )


class PlayerPageSerializer(serializers.Serializer):
    username = serializers.CharField()
    bot_account = serializers.BooleanField()
    ratings = serializers.DictField(child=PlayerRatingSerializer(), help_text="By ruleset.")
    recent = PlayerGameSerializer(
        many=True, help_text="Finished games, the latest first, with the player's place."
    )


class BoardPagination(PageNumberPagination):
    page_size = 50


class BoardQuerySerializer(serializers.Serializer):
    page = serializers.IntegerField(required=False, min_value=1)


#: Recent games on a player's page.
RECENT = 10


class LeaderboardApi(JsonApiView):
    @extend_schema(
        operation_id="ratings_leaderboard",
        parameters=[BoardQuerySerializer],
        responses={200: BoardPageSerializer, **_errors(400, 401, 404)},
        summary="A ruleset's leaderboard, highest rating first.",
        description="People with at least PABLO_LEADERBOARD_MIN_GAMES rated games in the "
        "ruleset, one within 30 days; 50 a page. 404 for an unknown ruleset, 404 "
        "`not_found` for a page beyond the last; a `page` that is not a whole number "
        "from 1 is a 400.",
    )
    def get(self, request: Request, ruleset: str) -> Response:
        if not ratings.known_ruleset(ruleset):
            raise NotFound("No ruleset %(ruleset)s.", ruleset=repr(ruleset))
        BoardQuerySerializer(data=request.query_params).is_valid(raise_exception=True)
        paginator = BoardPagination()
        page = paginator.paginate_queryset(ratings.leaderboard(ruleset), request, view=self) or []
        first = 1 + (paginator.page.number - 1) * paginator.page_size if page else 1
        return paginator.get_paginated_response(ratings.board_rows(list(page), first))


class PlayerApi(JsonApiView):
    @extend_schema(
        operation_id="ratings_player",
        responses={200: PlayerPageSerializer, **_errors(401, 404)},
        summary="A player's ratings per ruleset and recent games.",
        description="Private games are listed only to their players.",
    )
    def get(self, request: Request, username: str) -> Response:
        return Response(player_data(username, request.user))


def player_data(username: str, viewer: Any) -> dict[str, Any]:
    """``GET /api/players/{username}/``'s answer (the player page reads it too)."""
    player = ratings.player(username)
    games = list(
        selectors.game_list(user=viewer, status="finished").filter(seat_set__user=player)[:RECENT]
    )
    changes = ratings.changes([g.id for g in games])
    ends = ratings.endings([g.id for g in games])
    recent = []
    for game in games:
        summary = selectors.game_summary(game=game, user=viewer)
        for p in summary["players"]:
            p["rating_change"] = changes.get((summary["id"], p["seat"]))
        seat = next(p["seat"] for p in summary["players"] if p["username"] == player.username)
        end = ends.get(summary["id"]) or game.result
        recent.append({**summary, **ratings.standing(end, seat, game.seats)})
    return {
        "username": player.username,
        "bot_account": ratings.is_bot_account(player),
        "ratings": ratings.player_ratings(player),
        "recent": recent,
    }
