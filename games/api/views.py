"""The REST API of API.md: thin views over ``games.services`` and ``games.selectors``.

Each view turns its input into a typed command with an explicit serializer
(``games.commands``), calls one service or selector, and renders the data it
gets. Errors are raised as domain errors (``games.errors``) and mapped to
``{"code", "detail"}`` and a status by the project's one exception handler
(settings ``EXCEPTION_HANDLER``) alone. The order of checks for an action:
404 unknown game, 403 not a player, 400 malformed body, then 409 from the rules.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import friends, review
from games.api import shares, throttling
from games.errors import ApplicationError
from games.feed import waiting
from games.selectors import games as game_selectors
from games.services import accounts as account_services
from games.services import analysis as analysis_services
from games.services import games as game_services
from games.tokens import CachedTokenAuthentication

from .schema import (
    ActionAnswerSerializer,
    AnalysisProgressSerializer,
    AnalysisSerializer,
    ErrorSerializer,
    EventFeedSerializer,
    GamePageSerializer,
    GameSerializer,
    RegisterOutputSerializer,
    ReplaySerializer,
    RulesetSerializer,
    TokenOutputSerializer,
)
from .serializers import (
    ACTION_SERIALIZERS,
    EventFeedQuerySerializer,
    GameCreateInputSerializer,
    GameJoinInputSerializer,
    GameListQuerySerializer,
    RegisterInputSerializer,
    TokenInputSerializer,
    parse_action,
)


def _errors(*statuses: int) -> dict[int, OpenApiResponse]:
    text = {
        400: "Malformed request; the detail names the field.",
        401: "No valid token.",
        403: "Not a player of this game.",
        404: "No game with this id.",
        409: "Not allowed now; nothing stored.",
        429: "Over a limit (a throttle, or PABLO_FEED_WAITS for waits); see Retry-After.",
    }
    return {s: OpenApiResponse(ErrorSerializer, description=text[s]) for s in statuses}


GAME_ID = OpenApiParameter(
    "game_id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="The game's id."
)


class JsonApiView(throttling.RateLimitHeaders, APIView):
    """Bodies are JSON only (the project's default parser): anything else is a 400.
    Tokens are looked up through a short cache (``games.tokens``)."""

    # The web table's script calls the API with the browser's session (CSRF enforced).
    authentication_classes: list[Any] = [CachedTokenAuthentication, SessionAuthentication]


class PublicApiView(JsonApiView):
    """No token needed (and a stale one is ignored)."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]


# --------------------------------------------------------------------------- auth


class RegisterApi(PublicApiView):
    @extend_schema(
        operation_id="auth_register",
        request=RegisterInputSerializer,
        responses={201: RegisterOutputSerializer, **_errors(400, 429)},
        auth=[],
        summary="Create an account and get its token.",
    )
    def post(self, request: Request) -> Response:
        data = RegisterInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        wait = throttling.signing_up(request)  # PABLO_THROTTLE_SIGNUPS
        if wait is not None:
            raise Throttled(
                wait=wait, detail=gettext("Too many accounts made from your address lately.")
            )
        user, token = account_services.user_register(**data.validated_data)
        return Response({"username": user.username, "token": token}, status=201)


class TokenApi(PublicApiView):
    @extend_schema(
        operation_id="auth_token",
        request=TokenInputSerializer,
        responses={200: TokenOutputSerializer, **_errors(400)},
        auth=[],
        summary="Get the token of an account.",
    )
    def post(self, request: Request) -> Response:
        data = TokenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            token = account_services.user_token(request=request, **data.validated_data)
        except ApplicationError:
            # The authentication backend refused the name without checking the
            # password (too many failed log-ins, counted atomically): 429.
            wait = getattr(request, "login_refused_wait", None)
            if wait is not None:
                raise Throttled(wait=wait) from None
            raise
        return Response({"token": token})


class TokenRotateApi(JsonApiView):
    @extend_schema(
        operation_id="auth_token_rotate",
        request=None,
        responses={200: TokenOutputSerializer, **_errors(401)},
        summary="Replace your token with a new one.",
        description="The old token answers 401 from this moment on, in every process.",
    )
    def post(self, request: Request) -> Response:
        current = getattr(request.auth, "key", None)  # the token this request came with
        return Response(
            {"token": account_services.user_token_rotate(user=request.user, current=current)}
        )


# --------------------------------------------------------------------------- rulesets


class RulesetListApi(PublicApiView):
    @extend_schema(
        operation_id="rulesets_list",
        responses={200: RulesetSerializer(many=True)},
        auth=[],
        summary="The rulesets and their options.",
    )
    def get(self, request: Request) -> Response:
        return Response(game_selectors.ruleset_list())


# --------------------------------------------------------------------------- games


class GamePagination(PageNumberPagination):
    page_size = 20


class GameListCreateApi(JsonApiView):
    @extend_schema(
        operation_id="games_list",
        parameters=[GameListQuerySerializer],
        responses={200: GamePageSerializer, **_errors(400, 401, 404)},
        summary="List games (newest first), optionally by status and only your own.",
        description="404 `not_found` for a page beyond the last.",
    )
    def get(self, request: Request) -> Response:
        query = GameListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        games = game_selectors.game_list(
            user=request.user,
            status=query.validated_data.get("status"),
            mine=query.validated_data["mine"],
        )
        paginator = GamePagination()
        page = paginator.paginate_queryset(games, request, view=self) or []
        return paginator.get_paginated_response(
            [game_selectors.game_summary(game=game, user=request.user) for game in page]
        )

    @extend_schema(
        operation_id="games_create",
        request=GameCreateInputSerializer,
        responses={201: GameSerializer, **_errors(400, 401, 429)},
        summary="Create a game; you take seat 0.",
        description="429 over `PABLO_THROTTLE_GAMES`, or for a game with bots over "
        "`PABLO_BOT_GAMES` (per account) or `PABLO_BOT_GAMES_PER_ADDRESS` games with bots "
        "going on at once (bot seats, or a bot as `stand_in`).",
    )
    def post(self, request: Request) -> Response:
        data = GameCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        with transaction.atomic():
            game = game_services.game_create(
                user=request.user,
                created_from=shares.address_key(request),
                **data.validated_data,
            )
            shares.check_game(request, game)
        return Response(game_selectors.game_data(game=game, user=request.user), status=201)


def _seen(request: Request, game_id: str) -> Any:
    """The game, or the unknown game's 404 for a private game the caller may not see
    (not a player, no ``?invite=`` of it)."""
    return game_selectors.game_seen(game_id, request.user, request.query_params.get("invite"))


class GameDetailApi(JsonApiView):
    @extend_schema(
        operation_id="games_retrieve",
        parameters=[GAME_ID],
        responses={200: GameSerializer, **_errors(401, 404)},
        summary="A game, with its state as you see it.",
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = _seen(request, game_id)
        return Response(game_selectors.game_data(game=game, user=request.user))


class GameJoinApi(JsonApiView):
    @extend_schema(
        operation_id="games_join",
        parameters=[GAME_ID],
        request=GameJoinInputSerializer,
        responses={200: GameSerializer, **_errors(400, 401, 404, 409)},
        summary="Take the lowest free seat; the last seat starts the game.",
        description="A private game needs its `invite` in the body: without it, or with a "
        "wrong one, the answer is the 404 of an unknown game.",
    )
    def post(self, request: Request, game_id: str) -> Response:
        # fair deals (#12): an optional seed; an empty body is no seed
        body = GameJoinInputSerializer(data=request.data if request.data else {})
        if not body.is_valid():
            # 404 before 400 -- and a private game without its invite is not found
            raw = request.data.get("invite") if isinstance(request.data, dict) else None
            friends.check_invite(game_id, raw, request.user)
            body.is_valid(raise_exception=True)
        game = game_services.game_join(game_id=game_id, user=request.user, **body.validated_data)
        return Response(game_selectors.game_data(game=game, user=request.user))


class GameComeBackApi(JsonApiView):
    @extend_schema(
        operation_id="games_come_back",
        parameters=[GAME_ID],
        request=None,
        responses={200: GameSerializer, **_errors(401, 403, 404, 409)},
        summary="Say you are back after being marked absent.",
        description="After `max_timeouts` consecutive timeouts a player is marked absent and "
        "their turns are played for them at once. Any action of theirs clears the mark; this "
        "call clears it without acting (the only way back in rulesets with no action out of "
        "turn). 409 `not_absent` when the caller is not marked absent.",
    )
    def post(self, request: Request, game_id: str) -> Response:
        game = game_services.game_come_back(game_id=game_id, user=request.user)
        return Response(game_selectors.game_data(game=game, user=request.user))


ACTION_REQUEST = PolymorphicProxySerializer(
    component_name="Action",
    serializers={name: cls for name, cls in ACTION_SERIALIZERS.items()},
    resource_type_field_name="type",
)


class GameActionApi(JsonApiView):
    @extend_schema(
        operation_id="games_act",
        parameters=[
            GAME_ID,
            OpenApiParameter(
                "Idempotency-Key",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="Repeats with the same key (same user, same game) get the first "
                "successful answer again, byte for byte; refusals are not remembered. "
                "A key is remembered for PABLO_IDEMPOTENCY_SECONDS (7 days by default); "
                "a later repeat is a new request.",
            ),
        ],
        request=ACTION_REQUEST,
        responses={201: ActionAnswerSerializer, **_errors(400, 401, 403, 404, 409)},
        summary="Do one action.",
    )
    def post(self, request: Request, game_id: str) -> Response:
        try:
            action = parse_action(request.data, request.headers.get("Idempotency-Key"))
        except (ApplicationError, ValidationError):
            # A malformed body is 400 only for a player of an existing game: 404 and 403
            # first (read here, on the error path alone, so an action reads its game once).
            game_selectors.game_seat(game_id=game_id, user=request.user)
            raise
        answer = game_services.game_act(
            game_id=game_id,
            user=request.user,
            command=action.command,
            expected_version=action.expected_version,
            idempotency_key=action.idempotency_key,
        )
        return Response(answer.data, status=201)


class GameEventsApi(JsonApiView):
    @extend_schema(
        operation_id="games_events",
        parameters=[GAME_ID, EventFeedQuerySerializer],
        responses={200: EventFeedSerializer, **_errors(400, 401, 404, 429)},
        summary="The game's events after seq `after`, each as you saw it at its own moment; "
        "`wait` (0-30 s) long-polls for news.",
    )
    def get(self, request: Request, game_id: str) -> Response:
        query = EventFeedQuerySerializer(data=request.query_params)
        game = _seen(request, game_id)
        query.is_valid(raise_exception=True)
        # (the wait, on gunicorn's thread or parked on the ASGI hub: games.feed.waiting)
        return waiting.answer(
            request,
            game=game,
            after=query.validated_data["after"],
            wait=query.validated_data["wait"],
        )


class GameReplayApi(JsonApiView):
    @extend_schema(
        operation_id="games_replay",
        parameters=[GAME_ID],
        responses={200: ReplaySerializer, **_errors(401, 404, 409)},
        summary="Every event, unredacted, once the game is finished or aborted.",
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = _seen(request, game_id)
        return Response(game_selectors.game_replay(game=game, user=request.user))


class GameAnalysisApi(JsonApiView):
    """A finished game's analysis (docs/analysis.md): started by POST, read by GET."""

    @extend_schema(
        operation_id="games_analysis_start",
        parameters=[GAME_ID],
        request=None,
        responses={
            200: AnalysisSerializer,
            202: AnalysisProgressSerializer,
            **_errors(401, 404, 409),
            429: OpenApiResponse(
                ErrorSerializer,
                description="Too many analyses started (`PABLO_THROTTLE_ANALYSES`), or too "
                "many still queued or running (`PABLO_ANALYSES_QUEUED` per account, "
                "`PABLO_ANALYSES_QUEUED_PER_ADDRESS`).",
            ),
        },
        summary="Start analysing a finished or aborted game (202 while it runs, 200 when done).",
    )
    def post(self, request: Request, game_id: str) -> Response:
        game = _seen(request, game_id)
        with transaction.atomic():
            row = analysis_services.analysis_request(
                game=game, user=request.user, requested_from=shares.address_key(request)
            )
            shares.check_analysis(request, row)
        data = review.analysis_data(row)
        return Response(data, status=200 if data["status"] == "done" else 202)

    @extend_schema(
        operation_id="games_analysis",
        parameters=[GAME_ID],
        responses={
            200: AnalysisSerializer,
            202: AnalysisProgressSerializer,
            **_errors(401),
            404: OpenApiResponse(
                ErrorSerializer, description="No such game, or no analysis started (no_analysis)."
            ),
        },
        summary="The game's analysis: its progress while it runs, every decision when done.",
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = _seen(request, game_id)
        row = review.analysis_get(game=game)
        if row is None:
            raise review.not_started()
        data = review.analysis_data(row)
        return Response(data, status=200 if data["status"] == "done" else 202)
