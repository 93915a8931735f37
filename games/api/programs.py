"""The API for programs (API.md "For programs", docs/programs.md), mounted by
games/api/urls.py: thin views over ``games.services`` and ``games.selectors``."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from games.feed import followers as account_feed
from games.feed import waiting
from games.selectors import programs as program_selectors
from games.services import accounts as account_services

from .serializers import MAX_INT
from .views import JsonApiView, _errors


class BotAccountSerializer(serializers.Serializer):
    bot_account = serializers.BooleanField(help_text="Always true.")


class TurnSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    ruleset = serializers.CharField()
    deadline = serializers.DateTimeField(allow_null=True, help_text="null: no turn timer.")
    version = serializers.IntegerField(help_text="The game's version: act with it.")


class AccountEventsQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_INT,
        help_text="The last position you read (the answer's `position`). Without it: no "
        "events, and the position to start from.",
    )
    wait = serializers.FloatField(
        required=False,
        default=0,
        min_value=0,
        max_value=30,
        help_text="Seconds (0-30) to wait for an event after `after` when there is none yet.",
    )


class AccountEventSerializer(serializers.Serializer):
    position = serializers.IntegerField(
        help_text="1, 2, ...: the event's place in your feed, without a gap."
    )
    type = serializers.ChoiceField(
        choices=list(account_feed.TYPES),
        help_text="`game_started` (data: ruleset, seat); `your_turn` (data: deadline, seat, "
        "version, turn); `turn_timed_out` (data: seat); `game_finished` (data: result, "
        "status `finished` or `aborted`, seat); `rematch_offered` (data: rematch, the new "
        "game's id, and seat; `game` is the finished game).",
    )
    game = serializers.UUIDField()
    at = serializers.DateTimeField(help_text="When it happened in the game.")
    data = serializers.DictField(help_text="Public facts only: never a card.")


class AccountFeedSerializer(serializers.Serializer):
    events = AccountEventSerializer(many=True, help_text="Oldest first, at most 100.")
    position = serializers.IntegerField(
        help_text="Ask again with `after` set to this: the last event's position, else your newest."
    )


class AccountEventsApi(JsonApiView):
    @extend_schema(
        operation_id="me_events",
        parameters=[AccountEventsQuerySerializer],
        responses={200: AccountFeedSerializer, **_errors(400, 401, 429)},
        summary="What concerns you across your games, after position `after`, oldest first; "
        "`wait` (0-30 s) long-polls for news.",
        description="Your own feed (docs/programs.md): the games that start, your turns "
        "(with their deadlines), your turns that timed out, the games that end and the "
        "rematches offered to you, in the order they happened, numbered 1, 2, ... without a "
        "gap. Resume with `after` = the `position` you were given: nothing is missed or "
        "repeated. Without `after`: no events, and the position to wait from. An `after` "
        "beyond your newest position is answered at once with your newest position.",
    )
    def get(self, request: Request) -> Response:
        query = AccountEventsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        # (the wait, on gunicorn's thread or parked on the ASGI hub: games.feed.waiting)
        return waiting.account_answer(
            request, after=query.validated_data.get("after"), wait=query.validated_data["wait"]
        )


class TurnsApi(JsonApiView):
    @extend_schema(
        operation_id="me_turns",
        responses={200: TurnSerializer(many=True), **_errors(401)},
        summary="The games where you may act now, soonest deadline first.",
        description="Running games whose rules wait for your seat (in the setup phase, "
        "every seat that still has to act).",
    )
    def get(self, request: Request) -> Response:
        return Response(program_selectors.turns(user=request.user))


class BotAccountApi(JsonApiView):
    @extend_schema(
        operation_id="me_bot",
        request=None,
        responses={200: BotAccountSerializer, **_errors(401, 409)},
        summary="Make your account a bot account, for good.",
        description="Only an account that has never sat at a game (else 409 `has_played`); "
        "there is no way back. Its players show `bot_account`; it never enters the "
        "people's leaderboard. Again: 200, nothing changes.",
    )
    def post(self, request: Request) -> Response:
        account_services.bot_account_make(user=request.user)
        return Response({"bot_account": True})
