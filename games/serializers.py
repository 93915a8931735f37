"""Input and output serializers of the REST API (API.md).

Input serializers check shapes only -- types, required fields, values that can
never be valid -- before anything reaches the rules. They are strict about
JSON types: ``"3"`` is not an integer, ``true`` is not an integer, ``7`` is not
a string. Output serializers exist for the OpenAPI schema: the views build
their answers in ``games.selectors`` and return them as they are.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games import rules
from games.commands import (
    DEFAULT_TURN_TIMEOUT,
    MAX_IDEMPOTENCY_KEY,
    MAX_TURN_TIMEOUT,
    MIN_TURN_TIMEOUT,
    Action,
)
from games.errors import ApplicationError
from games.rules.skipbo import CODES as SKIPBO_CARDS
from games.rules.skipbo import PILES  # building piles, and discard piles per player

MAX_INT = 2**31 - 1


def _card_order(code: str) -> int:
    return 99 if code == "SB" else int(code)


# --------------------------------------------------------------------------- strict fields


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer: no strings, no booleans, no floats."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_value", MAX_INT)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """A JSON string."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """A JSON boolean: ``true`` or ``false`` only (no ``"yes"``, no ``1``)."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class StrictChoiceField(serializers.ChoiceField):
    """One of a few JSON strings."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid_choice", input=data)
        return super().to_internal_value(data)


@extend_schema_field({"type": "string", "enum": sorted(SKIPBO_CARDS, key=_card_order)})
class CardCodeField(serializers.Field):
    """A Skip-Bo card code: ``"1"`` ... ``"12"`` or ``"SB"`` (a JSON integer 1-12 is accepted)."""

    default_error_messages = {"invalid": "Not a Skip-Bo card code (1 to 12, or SB)."}

    def to_internal_value(self, data: Any) -> str:
        if isinstance(data, int) and not isinstance(data, bool):
            data = str(data)
        if isinstance(data, str):
            data = data.upper()
        if not isinstance(data, str) or data not in SKIPBO_CARDS:
            self.fail("invalid")
        return data

    def to_representation(self, value: Any) -> str:
        return str(value)


class TurnTimeoutField(StrictIntegerField):
    """Seconds per turn. The bounds are documented here (the schema) and checked once, by
    ``games.commands.check_turn_timeout``, for every caller of ``services.game_create``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_value=MIN_TURN_TIMEOUT, **kwargs)
        self.max_value = MAX_TURN_TIMEOUT
        self.validators = []


def _position(**kwargs: Any) -> StrictIntegerField:
    return StrictIntegerField(min_value=0, **kwargs)


# --------------------------------------------------------------------------- auth


class RegisterInputSerializer(serializers.Serializer):
    username = StrictCharField(max_length=150, validators=[UnicodeUsernameValidator()])
    password = StrictCharField(write_only=True, trim_whitespace=False, max_length=128)

    def validate_username(self, value: str) -> str:
        if get_user_model().objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError(
                "A user with that username already exists.", code="username_taken"
            )
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        user = get_user_model()(username=attrs["username"])
        try:
            password_validation.validate_password(attrs["password"], user)
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from None
        return attrs


class RegisterOutputSerializer(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField()


class TokenInputSerializer(serializers.Serializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(write_only=True, trim_whitespace=False, max_length=128)


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="A stable machine code, e.g. `not_your_turn`.")
    detail = serializers.CharField(help_text="A sentence a person can act on.")


# --------------------------------------------------------------------------- rulesets


class RulesetSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField(help_text="The largest over all options.")
    bot_levels = serializers.ListField(
        child=serializers.CharField(), help_text="Bot levels for `bots` and `stand_in`."
    )
    options = serializers.DictField(
        child=serializers.DictField(),
        help_text='Per option: {"type", "default", and "enum", "minimum", "maximum", '
        '"nullable", "description" where they apply}.',
    )


# --------------------------------------------------------------------------- games


class GameCreateInputSerializer(serializers.Serializer):
    ruleset = StrictCharField(help_text="pablo, pablo-50, tamalou, cabo or skipbo.")
    seats = StrictIntegerField(help_text="Number of players, within the ruleset's range.")
    turn_timeout = TurnTimeoutField(default=DEFAULT_TURN_TIMEOUT)
    options = serializers.DictField(
        default=dict,
        help_text="Ruleset options plus start_seat, memory, max_timeouts (GET /api/rulesets/).",
    )
    decks = serializers.ListField(
        child=serializers.ListField(child=StrictCharField(allow_blank=False)),
        required=False,
        allow_null=True,
        help_text="Stacked decks for testing: one list of card codes per round, top first "
        "(only where the server allows them).",
    )
    bots = serializers.ListField(
        child=serializers.JSONField(),
        required=False,
        allow_null=True,
        help_text='Seats taken by bots at once: [{"seat": n >= 1, "level": "random" | '
        '"basic"}]. A game whose other seats are all bots starts at once.',
    )
    seed = StrictCharField(  # fair deals (#12)
        max_length=64,
        required=False,
        default="",
        allow_blank=True,
        trim_whitespace=False,
        help_text="Your fair-deal seed (docs/fairness.md): any string of at most 64 "
        "characters, public at once; mixed into every draw of the game.",
    )
    private = StrictBooleanField(  # games among friends
        required=False,
        default=False,
        help_text="A private game is listed to its players only; others join it with its "
        "`invite` (shown to its players).",
    )


class GameJoinInputSerializer(serializers.Serializer):  # fair deals (#12)
    seed = StrictCharField(
        max_length=64,
        required=False,
        default="",
        allow_blank=True,
        trim_whitespace=False,
        help_text="Your fair-deal seed (docs/fairness.md): any string of at most 64 "
        "characters, public at once. After the game has started: 409.",
    )
    invite = StrictCharField(  # games among friends
        max_length=64,
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        help_text="A private game's invite (its players see it in the game): without it, "
        "or with a wrong one, a private game answers 404 like an unknown id.",
    )


# --- fair deals (#12) -------------------------------------------------------------------


class FairDrawSerializer(serializers.Serializer):
    k = serializers.IntegerField(help_text="The draw's number: 0, 1, 2, ... over the game.")
    kind = serializers.ChoiceField(choices=["deal", "reshuffle", "start_seat"])
    round = serializers.IntegerField(help_text="The round the draw belongs to.")
    input = serializers.ListField(
        allow_null=True,
        help_text="deal/reshuffle: the card codes shuffled, sorted by UTF-8 bytes; "
        "start_seat: null (any seat) or the candidate seats.",
    )
    output = serializers.JSONField(
        help_text="deal/reshuffle: the shuffled codes, first dealt (top) first; "
        "start_seat: the seat."
    )


class FairnessSerializer(serializers.Serializer):
    commitment = serializers.CharField(help_text="sha256 of the secret server seed, hex.")
    player_seeds = serializers.DictField(
        child=serializers.CharField(allow_blank=True), help_text="{seat: seed} as given."
    )
    server_seed = serializers.CharField(
        allow_null=True, help_text="The 32-byte server seed as hex, once the game has ended."
    )


class ReplayFairnessSerializer(FairnessSerializer):
    draws = FairDrawSerializer(many=True, help_text="Every draw of the game, in order.")


# --- end fair deals ---------------------------------------------------------------------


class PlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField()
    score = serializers.IntegerField(help_text="The game total.")
    absent = serializers.BooleanField()
    bot = serializers.CharField(allow_null=True, help_text="The bot's level; null for a person.")


class GameSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    ruleset = serializers.CharField()
    status = serializers.ChoiceField(choices=["waiting", "active", "finished", "aborted"])
    version = serializers.IntegerField(help_text="The seq of the game's last event.")
    seats = serializers.IntegerField()
    options = serializers.DictField()
    turn_timeout = serializers.IntegerField()
    players = PlayerSerializer(many=True)
    you = serializers.IntegerField(allow_null=True, help_text="Your seat, or null.")
    state = serializers.DictField(
        allow_null=True,
        help_text="The game as you see it (API.md 'The game and its state'); "
        "null while the game waits for players. The Pablo family adds `reveal`: the last "
        'finished round, public: {"round", "reason", "fields": {seat: [{"code", "value"} | '
        'null]}, "calls": [{"seat", "succeeded"}], "totals", "scores", "game_totals", '
        '"winners"} (null before the first round ends).',
    )
    created_at = serializers.DateTimeField()
    fairness = FairnessSerializer(  # fair deals (#12)
        allow_null=True,
        help_text="Fair deals (docs/fairness.md); null for a game with stacked decks.",
    )
    private = serializers.BooleanField(help_text="Listed to its players only; joined by invite.")
    invite = serializers.CharField(
        required=False,
        help_text="A private game's invite token, shown to its players only (the table's "
        "link: /play/{id}/?invite=<token>).",
    )
    rematch = serializers.UUIDField(
        required=False,
        allow_null=True,
        help_text="Shown to its players: the id of this finished game's rematch, or null.",
    )


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField()
    bot = serializers.CharField(allow_null=True, help_text="The bot's level; null for a person.")


class GameSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    ruleset = serializers.CharField()
    status = serializers.ChoiceField(choices=["waiting", "active", "finished", "aborted"])
    version = serializers.IntegerField()
    seats = serializers.IntegerField()
    options = serializers.DictField()
    turn_timeout = serializers.IntegerField()
    players = SeatSerializer(many=True)
    you = serializers.IntegerField(allow_null=True)
    result = serializers.DictField(allow_null=True, help_text='{"winners", "losers"} or null.')
    created_at = serializers.DateTimeField()
    private = serializers.BooleanField(help_text="Listed to its players only; joined by invite.")
    invite = serializers.CharField(
        required=False,
        help_text="A private game's invite token, shown to its players only (the table's "
        "link: /play/{id}/?invite=<token>).",
    )
    rematch = serializers.UUIDField(
        required=False,
        allow_null=True,
        help_text="Shown to its players: the id of this finished game's rematch, or null.",
    )


class GamePageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameSummarySerializer(many=True)


class GameListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["waiting", "active", "finished", "aborted"], required=False
    )
    mine = serializers.BooleanField(required=False, default=False)
    page = serializers.IntegerField(required=False, min_value=1)


# --------------------------------------------------------------------------- events


def event_types_description() -> str:
    lines = [
        "The event's type. Engine events (every ruleset):",
        "",
        "| type | data |",
        "|---|---|",
        "| `game_created` | `{ruleset, seats, options, turn_timeout}` |",
        "| `player_joined` | `{seat, username}` |",
        "| `game_started` | `{}`; the ruleset's dealing events follow |",
        "| `deadline_set` | `{key, deadline, seats}`: a turn (or setup phase) began |",
        "| `turn_timed_out` | `{}`, `seat` = the player acted for; the auto action follows |",
        "| `player_absent` | `{}`: max_timeouts consecutive timeouts |",
        "| `player_returned` | `{}`: an absent or timed-out player acted again |",
        "| `game_finished` | `{winners, losers}` |",
        "| `game_aborted` | `{reason}`: every player absent, or `cancelled` by the creator |",
    ]
    for ruleset in rules.rulesets():
        described = getattr(ruleset, "event_types", None)
        if described:
            lines += ["", f"`{ruleset.id}` events:", "", "| type | meaning |", "|---|---|"]
            lines += [f"| `{name}` | {text} |" for name, text in dict(described).items()]
    return "\n".join(lines)


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="1, 2, ...: the event's place in the game.")
    type = serializers.CharField(help_text=event_types_description())
    seat = serializers.IntegerField(allow_null=True, help_text="The seat it concerns, or null.")
    at = serializers.DateTimeField()
    data = serializers.DictField(
        help_text="What the event showed you at its own moment (hidden cards removed)."
    )


class EventFeedSerializer(serializers.Serializer):
    events = EventSerializer(many=True)
    version = serializers.IntegerField()


class EventFeedQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(required=False, default=0, min_value=0, max_value=MAX_INT)
    wait = serializers.FloatField(required=False, default=0, min_value=0, max_value=30)


class ReplaySerializer(serializers.Serializer):
    game = GameSerializer()
    events = EventSerializer(many=True, help_text="Every event, unredacted.")
    fairness = ReplayFairnessSerializer(  # fair deals (#12)
        allow_null=True, help_text="The game's fairness with the server seed and every draw."
    )


class ActionAnswerSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    events = EventSerializer(many=True, help_text="The action's events, as you may see them.")
    game = GameSerializer()


# --------------------------------------------------------------------------- actions


class ActionSerializer(serializers.Serializer):
    """Common to every action: the optional ``expected_version``."""

    action_type = ""
    expected_version = StrictIntegerField(
        min_value=0,
        required=False,
        allow_null=True,
        help_text="Refuse (409 version_conflict) unless the game is at this version.",
    )

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = {"type": StrictChoiceField(choices=[self.action_type])}
        fields.update(super().get_fields())
        return fields

    def command(self) -> dict[str, Any]:
        """The validated command for the rules (without ``expected_version``)."""
        data = {k: v for k, v in self.validated_data.items() if k != "expected_version"}
        return {k: v for k, v in data.items() if v is not None}


class LookActionSerializer(ActionSerializer):
    action_type = "look"
    positions = serializers.ListField(child=_position(), min_length=2, max_length=2)

    def validate_positions(self, value: list[int]) -> list[int]:
        if value[0] == value[1]:
            raise serializers.ValidationError("Two different positions are needed.")
        return value


class DrawActionSerializer(ActionSerializer):
    action_type = "draw"
    source = StrictChoiceField(choices=["deck", "discard"])


class DiscardActionSerializer(ActionSerializer):
    action_type = "discard"


class ReplaceActionSerializer(ActionSerializer):
    action_type = "replace"
    positions = serializers.ListField(child=_position(), min_length=1)

    def validate_positions(self, value: list[int]) -> list[int]:
        if len(set(value)) != len(value):
            raise serializers.ValidationError("Each position may be named once.")
        return value


class PeekActionSerializer(ActionSerializer):
    action_type = "peek"
    position = _position()


class SpyActionSerializer(ActionSerializer):
    action_type = "spy"
    seat = StrictIntegerField(min_value=0)
    position = _position()


class SwapActionSerializer(ActionSerializer):
    action_type = "swap"
    position = _position()
    seat = StrictIntegerField(min_value=0)
    their_position = _position()


class SkipActionSerializer(ActionSerializer):
    action_type = "skip"


class ThrowActionSerializer(ActionSerializer):
    action_type = "throw"
    seat = StrictIntegerField(min_value=0, help_text="Whose field the thrown card is in.")
    position = _position()
    onto = StrictIntegerField(min_value=0, help_text="The discard.serial you saw.")
    give_position = _position(
        required=False,
        allow_null=True,
        help_text="Only when throwing another player's card: a slot of yours to give.",
    )


class CallActionSerializer(ActionSerializer):
    action_type = "call"


class PlayActionSerializer(ActionSerializer):
    action_type = "play"
    card = CardCodeField(
        required=False,
        help_text="For from=hand: the card code; for stock or discard, an optional claim "
        "of the top card (refused with 409 if it differs).",
    )
    discard_pile = StrictIntegerField(
        min_value=0, max_value=PILES - 1, required=False, help_text="For from=discard."
    )
    pile = StrictIntegerField(min_value=0, max_value=PILES - 1, help_text="The building pile.")

    def get_fields(self) -> dict[str, serializers.Field]:
        # "from" is a Python keyword: the field is declared here, not as an attribute.
        fields = super().get_fields()
        fields = {
            "type": fields.pop("type"),
            "from": StrictChoiceField(choices=["hand", "stock", "discard"]),
            **fields,
        }
        return fields

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        origin = attrs["from"]
        if origin == "hand" and attrs.get("card") is None:
            raise serializers.ValidationError({"card": "Name the hand card to play."})
        if origin == "discard" and attrs.get("discard_pile") is None:
            raise serializers.ValidationError({"discard_pile": "Name your discard pile."})
        return attrs


class EndActionSerializer(ActionSerializer):
    action_type = "end"
    card = CardCodeField(
        required=False, help_text="The hand card to discard (omit both with an empty hand)."
    )
    discard_pile = StrictIntegerField(min_value=0, max_value=PILES - 1, required=False)


ACTION_SERIALIZERS: dict[str, type[ActionSerializer]] = {
    cls.action_type: cls
    for cls in (
        LookActionSerializer,
        DrawActionSerializer,
        DiscardActionSerializer,
        ReplaceActionSerializer,
        PeekActionSerializer,
        SpyActionSerializer,
        SwapActionSerializer,
        SkipActionSerializer,
        ThrowActionSerializer,
        CallActionSerializer,
        PlayActionSerializer,
        EndActionSerializer,
    )
}
assert set(ACTION_SERIALIZERS) == rules.ACTION_TYPES


def parse_action(body: Any, idempotency_key: str | None = None) -> Action:
    """An action body (and ``Idempotency-Key`` header) as a typed ``Action``; 400 otherwise.

    Everything a body can get wrong whatever the game is checked here; what
    depends on the game (a seat of it, the thrower's own card) is the rules'.
    """
    if not isinstance(body, dict):
        raise ApplicationError("The body must be a JSON object naming the action's type.")
    kind = body.get("type")
    if kind is None:
        raise ApplicationError("type: This field is required.")
    if not isinstance(kind, str) or kind not in ACTION_SERIALIZERS:
        known = ", ".join(sorted(ACTION_SERIALIZERS))
        raise ApplicationError(f"type: unknown action type; one of {known}.")
    action = ACTION_SERIALIZERS[kind](data=body)
    action.is_valid(raise_exception=True)
    if idempotency_key is not None and not 0 < len(idempotency_key) <= MAX_IDEMPOTENCY_KEY:
        raise ApplicationError(f"Idempotency-Key: must be 1 to {MAX_IDEMPOTENCY_KEY} characters.")
    return Action(
        command=action.command(),
        expected_version=action.validated_data.get("expected_version"),
        idempotency_key=idempotency_key,
    )
