"""The API for programs (API.md "For programs", docs/programs.md), mounted by
games/api/urls.py: thin views over ``games.services`` and ``games.selectors``."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from games.selectors import programs as program_selectors
from games.services import accounts as account_services

from .views import JsonApiView, _errors


class BotAccountSerializer(serializers.Serializer):
    bot_account = serializers.BooleanField(help_text="Always true.")


class TurnSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    ruleset = serializers.CharField()
    deadline = serializers.DateTimeField(allow_null=True, help_text="null: no turn timer.")
    version = serializers.IntegerField(help_text="The game's version: act with it.")


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
