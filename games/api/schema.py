"""Output serializers of the REST API: for the OpenAPI schema only.

The views build their answers in ``games.selectors`` (and the services) and
return them as they are; these classes describe those answers, so the schema
is complete (``manage.py spectacular --validate --fail-on-warn``). The input
checks are in ``games.api.serializers``.
"""

from __future__ import annotations

from rest_framework import serializers

from games import rules


class RegisterOutputSerializer(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField()


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="A stable machine code, e.g. `not_your_turn`.")
    detail = serializers.CharField(help_text="A sentence a person can act on.")


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


class PlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField()
    score = serializers.IntegerField(help_text="The game total.")
    absent = serializers.BooleanField()
    bot = serializers.CharField(allow_null=True, help_text="The bot's level; null for a person.")
    bot_account = serializers.BooleanField(
        help_text="A program's account (POST /api/me/bot/), never on the people's leaderboard."
    )
    rating_change = serializers.IntegerField(
        allow_null=True,
        help_text="A finished rated game: the change of this person's rating; null while "
        "not yet computed or for an unrated seat (docs/ratings.md).",
    )


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
        '"winners"} (null before the first round ends); in cabo also "kamikaze": the seat '
        "whose field held exactly 12, 12, 13 and 13, in a round where one did.",
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
        help_text="Shown to its players once it is finished: the id of its rematch, or null.",
    )


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField()
    bot = serializers.CharField(allow_null=True, help_text="The bot's level; null for a person.")
    bot_account = serializers.BooleanField(
        help_text="A program's account (POST /api/me/bot/), never on the people's leaderboard."
    )


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
        help_text="Shown to its players once it is finished: the id of its rematch, or null.",
    )


class GamePageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameSummarySerializer(many=True)


def event_types_description() -> str:
    lines = [
        "The event's type. Engine events (every ruleset):",
        "",
        "| type | data |",
        "|---|---|",
        "| `game_created` | `{ruleset, seats, options, turn_timeout, rated}` |",
        "| `player_joined` | `{seat, username}` |",
        "| `game_started` | `{}`; the ruleset's dealing events follow |",
        "| `deadline_set` | `{key, deadline, seats}`: a turn (or setup phase) began |",
        "| `turn_timed_out` | `{}`, `seat` = the player acted for; the auto action follows |",
        "| `player_absent` | `{}`: max_timeouts consecutive timeouts |",
        "| `player_returned` | `{}`: an absent or timed-out player acted again |",
        "| `game_finished` | `{winners, losers, places, points}`: places 1 = first (ties "
        "share), points the ruleset's final count |",
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


class ReplaySerializer(serializers.Serializer):
    game = GameSerializer()
    events = EventSerializer(many=True, help_text="Every event, unredacted.")
    fairness = ReplayFairnessSerializer(  # fair deals (#12)
        allow_null=True, help_text="The game's fairness with the server seed and every draw."
    )


class AnalysisProgressSerializer(serializers.Serializer):
    status = serializers.CharField(help_text='"queued" or "running".')
    progress = serializers.FloatField(help_text="0 to 1: the share of decisions analysed.")
    place = serializers.IntegerField(
        required=False,
        help_text='While "queued": its place in the queue of analyses (1: next).',
    )


class AnalysedDecisionSerializer(serializers.Serializer):
    step = serializers.IntegerField(help_text="The replay step: the decision event's seq.")
    seat = serializers.IntegerField()
    taken = serializers.DictField(help_text="The action taken, as POST .../actions/ takes it.")
    best = serializers.DictField(help_text="The best action by the analyser's estimate.")
    loss = serializers.FloatField(
        help_text="How much worse `taken` is than `best` (round points in the Pablo family, "
        "win probability in Skip-Bo); never negative."
    )
    stderr = serializers.FloatField(allow_null=True, help_text="The standard error of `loss`.")
    mark = serializers.CharField(
        allow_null=True,
        help_text='null, "inaccuracy", "mistake" or "blunder": only when `loss` exceeds two '
        "standard errors; by its size (settings).",
    )
    estimate = serializers.FloatField(
        help_text="The estimate of the action taken: expected round points, or win chance."
    )


class AnalysedPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    loss = serializers.FloatField(help_text="The sum of the losses beyond two standard errors.")
    decisions = serializers.IntegerField()
    inaccuracy = serializers.IntegerField()
    mistake = serializers.IntegerField()
    blunder = serializers.IntegerField()


class AnalysisSerializer(serializers.Serializer):
    status = serializers.CharField(help_text='"done".')
    analyser = serializers.CharField(help_text="The analyser's version.")
    decisions = AnalysedDecisionSerializer(many=True)
    players = AnalysedPlayerSerializer(many=True)


class ActionAnswerSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    events = EventSerializer(many=True, help_text="The action's events, as you may see them.")
    game = GameSerializer()
