"""Input serializers of the REST API: the checks made once, at the edge.

They check shapes only -- types, required fields, values that can never be
valid -- before anything reaches the services and the rules, and turn a body
into what the services take (``parse_action`` -> ``games.commands.Action``).
They are strict about JSON types: ``"3"`` is not an integer, ``true`` is not
an integer, ``7`` is not a string. The answers' serializers, which only
describe the schema, are in ``games.api.schema``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games import rules
from games.bots import LEVELS as BOT_LEVELS
from games.bots import levels as bot_levels
from games.commands import (
    DEFAULT_TURN_TIMEOUT,
    MAX_IDEMPOTENCY_KEY,
    MAX_TURN_TIMEOUT,
    MIN_TURN_TIMEOUT,
    Action,
)
from games.errors import ApplicationError
from games.selectors import accounts as account_selectors
from games.usernames import clean_username, username_problem

MAX_INT = 2**31 - 1
#: The piles an action may name by index (building piles, a player's discard piles).
PILES = rules.action_piles()


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


@extend_schema_field({"type": "string", "enum": rules.action_cards()})
class CardCodeField(serializers.Field):
    """A card code the rulesets' actions name (``rules.action_cards``: Skip-Bo's ``"1"`` ...
    ``"12"`` and ``"SB"``); a JSON integer is read as its code, and case does not matter."""

    default_error_messages = {"invalid": _("Not a card code of any game's actions ({codes}).")}

    def to_internal_value(self, data: Any) -> str:
        code = rules.action_card(data)
        if code is None:
            self.fail("invalid", codes=", ".join(rules.action_cards()))
        return code

    def to_representation(self, value: Any) -> str:
        return str(value)


class TurnTimeoutField(StrictIntegerField):
    """Seconds per turn. The bounds are documented here (the schema) and checked once, by
    ``games.commands.check_turn_timeout``, for every caller of ``services.games.game_create``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_value=MIN_TURN_TIMEOUT, **kwargs)
        self.max_value = MAX_TURN_TIMEOUT
        self.validators = []


def _position(**kwargs: Any) -> StrictIntegerField:
    return StrictIntegerField(min_value=0, **kwargs)


class RegisterInputSerializer(serializers.Serializer):
    username = StrictCharField(max_length=150, validators=[UnicodeUsernameValidator()])
    password = StrictCharField(write_only=True, trim_whitespace=False, max_length=128)

    def validate_username(self, value: str) -> str:
        # Compared after trimming, NFKC and case folding (API.md): fullwidth
        # ``ALICE`` is ``ALICE`` is ``alice``; what NFKC makes of a name must be a valid name too.
        value = clean_username(value)
        try:
            UnicodeUsernameValidator()(value)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.messages, code="invalid") from None
        problem = username_problem(value)
        if problem:
            raise serializers.ValidationError(problem, code="invalid_username")
        if account_selectors.username_taken(value):
            raise serializers.ValidationError(
                _("A user with that username already exists."), code="username_taken"
            )
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        user = get_user_model()(username=attrs["username"])
        try:
            password_validation.validate_password(attrs["password"], user)
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from None
        return attrs


class TokenInputSerializer(serializers.Serializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(write_only=True, trim_whitespace=False, max_length=128)


class StrictSerializer(serializers.Serializer):
    # An object whose keys are all known: a misspelt field is a 400, not a switch
    # silently left as it was ({"privat": true} made a public game, listed to everyone;
    # a misspelt notification kind or channel). (No docstring: the schema would give
    # it to every subclass as its description.)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(str(k) for k in set(data) - set(self.fields))
            if unknown:
                known = ", ".join(self.fields)
                raise serializers.ValidationError(
                    {
                        k: [_("unknown key; the known ones are %(known)s.") % {"known": known}]
                        for k in unknown
                    }
                )
        return super().to_internal_value(data)


class GameCreateInputSerializer(StrictSerializer):
    ruleset = StrictCharField(help_text="A ruleset's `id` (GET /api/rulesets/).")
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
        help_text='Seats taken by bots at once: [{"seat": n >= 1, "level"}], a level of the '
        "ruleset's `bot_levels` (default basic). A game whose other seats are all bots "
        "starts at once.",
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
    rated = StrictBooleanField(  # ratings (docs/ratings.md)
        required=False,
        default=True,
        help_text="Whether the game counts for ratings; a game with `decks` never does.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        levels = ruleset_levels(attrs["ruleset"])
        if attrs.get("bots") is not None:
            attrs["bots"] = check_bots(attrs["bots"], attrs["seats"], levels)
        stand_in = attrs["options"].get("stand_in")
        if stand_in in BOT_LEVELS and stand_in not in levels:
            raise ApplicationError(
                "options.stand_in: no %(level)s bot plays this ruleset; its bots: %(levels)s.",
                "invalid_option",
                level=stand_in,
                levels=", ".join(levels),
            )
        return attrs


def ruleset_levels(ruleset: str) -> list[str]:
    """The bot levels that play ``ruleset``; every level for a ruleset the rules do not
    know (the service answers ``unknown_ruleset``)."""
    if ruleset not in {r.id for r in rules.rulesets()}:
        return list(BOT_LEVELS)
    return bot_levels(ruleset)


def check_bots(bots: list[Any], seats: int, levels: Sequence[str]) -> list[dict[str, Any]]:
    """``bots`` of ``POST /api/games/`` as ``[{"seat", "level"}]``, each a level of
    ``levels``; 400 ``invalid_bots`` naming the field (the level defaults to ``basic``)."""
    out: list[dict[str, Any]] = []
    for i, item in enumerate(bots):
        if not isinstance(item, dict) or set(item) - {"seat", "level"}:
            raise ApplicationError("bots[%(i)s]: must be {seat, level}.", "invalid_bots", i=i)
        seat = item.get("seat")
        level = item.get("level", "basic")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ApplicationError("bots[%(i)s].seat: must be an integer.", "invalid_bots", i=i)
        if seat < 1 or seat >= seats:
            raise ApplicationError(
                "bots[%(i)s].seat: must be from 1 to seats - 1 (seat 0 is yours).",
                "invalid_bots",
                i=i,
            )
        if level not in levels:
            raise ApplicationError(
                "bots[%(i)s].level: must be one of %(levels)s.",
                "invalid_bots",
                i=i,
                levels=", ".join(levels),
            )
        if any(seat == known["seat"] for known in out):
            raise ApplicationError(
                "bots[%(i)s].seat: seat %(seat)s is named twice.", "invalid_bots", i=i, seat=seat
            )
        out.append({"seat": seat, "level": level})
    return out


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


class GameListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["waiting", "active", "finished", "aborted"], required=False
    )
    mine = serializers.BooleanField(required=False, default=False)
    page = serializers.IntegerField(required=False, min_value=1)


class EventFeedQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(required=False, default=0, min_value=0, max_value=MAX_INT)
    wait = serializers.FloatField(required=False, default=0, min_value=0, max_value=30)


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
            raise serializers.ValidationError(_("Two different positions are needed."))
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
            raise serializers.ValidationError(_("Each position may be named once."))
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
            raise serializers.ValidationError({"card": _("Name the hand card to play.")})
        if origin == "discard" and attrs.get("discard_pile") is None:
            raise serializers.ValidationError({"discard_pile": _("Name your discard pile.")})
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
        raise ApplicationError("type: unknown action type; one of %(known)s.", known=known)
    action = ACTION_SERIALIZERS[kind](data=body)
    action.is_valid(raise_exception=True)
    if idempotency_key is not None and not 0 < len(idempotency_key) <= MAX_IDEMPOTENCY_KEY:
        raise ApplicationError(
            "Idempotency-Key: must be 1 to %(most)s characters.", most=MAX_IDEMPOTENCY_KEY
        )
    if idempotency_key is not None and "\x00" in idempotency_key:
        # (PostgreSQL's text cannot hold NUL: stored after the action, it was a 500)
        raise ApplicationError("Idempotency-Key: must not hold a null character.")
    return Action(
        command=action.command(),
        expected_version=action.validated_data.get("expected_version"),
        idempotency_key=idempotency_key,
    )
