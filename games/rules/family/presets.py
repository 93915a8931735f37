"""What differs between the four Pablo-family rulesets (docs/rules.md), in one place.

The package ``games.rules.family`` is the one engine; each ruleset is a ``Preset`` of it: plain
parameters plus small functions (card values, scoring, total adjustment, game
end, start player). docs/rules.md has the same differences as one table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..cards import cabo_deck, french_deck, french_rank
from ..errors import Malformed
from ..events import JSON
from ..options import Option
from ..protocol import Presentation

#: A power: (kind, optional). kind: peek | spy | swap | spy_swap.
Power = tuple[str, bool]


@dataclass(frozen=True)
class RoundOutcome:
    """What a round's scoring looks at (``score`` functions below)."""

    totals: list[int]  # per seat: sum of the values in their field
    callers: list[int]  # in calling order; [] when the round ended on an exhausted pile
    reason: str  # "call" | "empty_field" | "exhausted"
    values: list[list[int]]  # per seat: values of the cards in the field (no empty slots)


@dataclass(frozen=True)
class Preset:
    id: str
    name: str
    min_players: int
    options: dict[str, Option]
    max_players: Callable[[JSON], int]
    max_players_any: int
    deck: Callable[[JSON], list[str]]
    value: Callable[[str], int]
    rank: Callable[[str], str]
    #: rank -> power, for a card drawn from the draw pile and discarded directly.
    powers: dict[str, Power]
    #: The player on turn may take the discard top instead of drawing.
    draw_discard: bool = True
    #: A card taken from the discard pile must replace exactly one slot (cabo).
    discard_draw_must_replace: bool = False
    #: "none" | "free" (pablo: any time, any number) | "match" (pablo-50: one per discard).
    throwing: str = "none"
    #: A wrong thrower sees their penalty card (pablo-50).
    penalty_seen: bool = False
    #: After the call nobody but the caller may swap or throw the caller's cards (pablo-50).
    protect_caller: bool = False
    #: Replacing several slots at once: "none" | "pairs" (tamalou: 2-4 equal ranks, wrong ->
    #: held card into a new slot) | "equal" (cabo: 2+ equal values, wrong -> held card to the
    #: discard pile).
    multi_replace: str = "none"
    #: The swap power shows the actor the card they receive (tamalou).
    swap_shows_received: bool = False
    #: A setup phase of initial looks (False: tamalou knows slots 0-1 from the deal).
    setup_look: bool = True
    #: "after_turn" (right after one's own turn, until the next player draws) |
    #: "instead_of_draw" (cabo).
    call_when: str = "after_turn"
    #: Several players may call in one round (pablo).
    multiple_callers: bool = False
    #: "caller_turn": the round ends when the first caller completed one more turn (pablo);
    #: "back_to_caller": when the turn would return to the caller.
    round_end: str = "back_to_caller"
    #: The round ends at once when a field becomes empty (pablo).
    empty_field_ends_round: bool = False
    #: ``advanced`` pablo-50: an empty field must discard; a discarded Q draws a card.
    empty_field_queen_draws: Callable[[JSON], bool] = field(default=lambda options: False)
    score: Callable[[RoundOutcome], tuple[list[int], list[int]]] = field(
        default=lambda o: (list(o.totals), [])
    )
    adjust_total: Callable[[int], int] = field(default=lambda total: total)
    game_over: Callable[[list[int], JSON], bool] = field(default=lambda totals, options: False)
    #: (winners, losers) of a finished game from the game totals.
    result: Callable[[list[int], JSON], tuple[list[int], list[int]]] = field(
        default=lambda totals, options: (_lowest(range(len(totals)), totals), [])
    )
    #: Candidates for the next round's start seat; more than one -> drawn at random.
    #: (previous start seat, round totals, game totals, round winners, seats)
    next_start: Callable[[int, list[int], list[int], list[int], int], list[int]] = field(
        default=lambda prev, totals, game, winners, seats: [(prev + 1) % seats]
    )
    check_options: Callable[[int, JSON], None] = field(default=lambda seats, options: None)
    #: How the pages show it (a field of slots per seat: the "family" board).
    presentation: Presentation = field(default=Presentation("french", "family"))


def _lowest(seats: range | list[int], values: list[int]) -> list[int]:
    seats = list(seats)
    if not seats:
        return []
    low = min(values[s] for s in seats)
    return [s for s in seats if values[s] == low]


def _lowest_then_game_total(candidates: list[int], game: list[int]) -> list[int]:
    """Ties among ``candidates`` broken by the lower game total (still tied: all)."""
    return _lowest(candidates, game)


# --------------------------------------------------------------------------- pablo


def pablo_value(code: str) -> int:
    if code == "JK":
        return -1
    if code == "KH":
        return 0
    rank = french_rank(code)
    return _FACES[rank] if rank in _FACES else int(rank)


_FACES = {"A": 1, "J": 11, "Q": 12, "K": 13}


def pablo_score(o: RoundOutcome) -> tuple[list[int], list[int]]:
    scores = list(o.totals)
    for c in o.callers:
        if o.reason == "empty_field":
            scores[c] = 25
            continue
        others = [t for s, t in enumerate(o.totals) if s != c]
        scores[c] = -20 if all(o.totals[c] < t for t in others) else 25
    return scores, _lowest(range(len(o.totals)), o.totals)


def _pablo_losers(totals: list[int], options: JSON) -> list[int]:
    return [s for s, t in enumerate(totals) if t >= 100 or (options.get("forty_two") and t == 42)]


def _pablo_sixty_niners(totals: list[int], options: JSON) -> list[int]:
    if not options.get("minus_sixty_nine"):
        return []
    return [s for s, t in enumerate(totals) if t == -69]


def pablo_game_over(totals: list[int], options: JSON) -> bool:
    return bool(_pablo_losers(totals, options) or _pablo_sixty_niners(totals, options))


def pablo_result(totals: list[int], options: JSON) -> tuple[list[int], list[int]]:
    losers = _pablo_losers(totals, options)
    winners = _pablo_sixty_niners(totals, options)
    if not winners:
        # Decision: when every player lost there is no winner.
        winners = _lowest([s for s in range(len(totals)) if s not in losers], totals)
    return winners, losers


PABLO = Preset(
    id="pablo",
    name="Pablo",
    min_players=2,
    options={
        "jokers": Option("integer", 1, "Jokers in the deck (each -1).", choices=(1, 2)),
        "forty_two": Option(
            "boolean", False, "A player whose total becomes exactly 42 loses at once."
        ),
        "minus_sixty_nine": Option(
            "boolean", False, "A player whose total becomes exactly -69 wins at once."
        ),
    },
    max_players=lambda options: 8,
    max_players_any=8,
    deck=lambda options: french_deck(jokers=options.get("jokers", 1)),
    value=pablo_value,
    rank=french_rank,
    powers={"7": ("peek", True), "8": ("spy", True), "9": ("swap", False)},
    throwing="free",
    multiple_callers=True,
    round_end="caller_turn",
    empty_field_ends_round=True,
    score=pablo_score,
    game_over=pablo_game_over,
    result=pablo_result,
    presentation=Presentation("french", "family", "round", (100, "game ends at 100"), "Pablo"),
)


# --------------------------------------------------------------------------- pablo-50


def pablo50_value(code: str) -> int:
    if code in ("KH", "KD"):
        return 0
    rank = french_rank(code)
    return {"A": -1, "J": 10, "Q": 10, "K": 10}[rank] if rank in ("A", "J", "Q", "K") else int(rank)


def pablo50_score(o: RoundOutcome) -> tuple[list[int], list[int]]:
    scores = list(o.totals)
    low = min(o.totals)
    tied = o.totals.count(low) > 1
    for c in o.callers:
        if o.totals[c] > low:
            scores[c] += 10
        elif tied:
            scores[c] += 5
    return scores, _lowest(range(len(o.totals)), o.totals)


def pablo50_next_start(
    prev: int, totals: list[int], game: list[int], winners: list[int], seats: int
) -> list[int]:
    return _lowest_then_game_total(_lowest(range(seats), totals), game)


PABLO_50 = Preset(
    id="pablo-50",
    name="Pablo (50)",
    min_players=2,
    options={
        "advanced": Option(
            "boolean",
            False,
            "A player with no card left must discard what they draw; a discarded Q then "
            "draws one more card into their field.",
        ),
    },
    max_players=lambda options: 8,
    max_players_any=8,
    deck=lambda options: french_deck(),
    value=pablo50_value,
    rank=french_rank,
    powers={
        "10": ("peek", True),
        "J": ("spy", True),
        "Q": ("swap", False),
        "K": ("spy_swap", True),
    },
    draw_discard=False,
    throwing="match",
    penalty_seen=True,
    protect_caller=True,
    empty_field_queen_draws=lambda options: bool(options.get("advanced")),
    score=pablo50_score,
    adjust_total=lambda total: 0 if total == 50 else total,
    game_over=lambda totals, options: any(t > 50 for t in totals),
    next_start=pablo50_next_start,
    presentation=Presentation("french", "family", "round", (50, "game ends above 50"), "Pablo"),
)


# --------------------------------------------------------------------------- tamalou


def tamalou_value(code: str) -> int:
    if code == "KD":
        return 0
    rank = french_rank(code)
    return {"A": 1, "J": 10, "Q": 10, "K": 10}[rank] if rank in ("A", "J", "Q", "K") else int(rank)


def tamalou_score(o: RoundOutcome) -> tuple[list[int], list[int]]:
    scores = list(o.totals)
    for c in o.callers:
        others = [t for s, t in enumerate(o.totals) if s != c]
        scores[c] = -5 if all(o.totals[c] < t for t in others) else o.totals[c] + 10
    return scores, _lowest(range(len(o.totals)), o.totals)


def tamalou_max_players(options: JSON) -> int:
    return 6 if options.get("decks", 1) == 1 else 12


def tamalou_check_options(seats: int, options: JSON) -> None:
    if isinstance(seats, int) and seats > tamalou_max_players(options):
        raise Malformed(
            "seats: tamalou takes at most %(most)s players with "
            "options.decks = %(decks)s; use options.decks = 2 for up to 12.",
            "invalid_seats",
            most=tamalou_max_players(options),
            decks=options.get("decks", 1),
        )


TAMALOU = Preset(
    id="tamalou",
    name="Tamalou",
    min_players=2,
    options={
        "decks": Option(
            "integer", 1, "52-card decks: 1 (2-6 players) or 2 (up to 12).", choices=(1, 2)
        ),
    },
    max_players=tamalou_max_players,
    max_players_any=12,
    deck=lambda options: french_deck(decks=options.get("decks", 1)),
    value=tamalou_value,
    rank=french_rank,
    powers={"7": ("peek", True), "8": ("swap", True)},
    multi_replace="pairs",
    swap_shows_received=True,
    setup_look=False,
    score=tamalou_score,
    game_over=lambda totals, options: any(t >= 100 for t in totals),
    check_options=tamalou_check_options,
    presentation=Presentation("french", "family", "round", (100, "game ends at 100"), "Tamalou"),
)


# --------------------------------------------------------------------------- cabo

KAMIKAZE = [12, 12, 13, 13]


def kamikaze_seat(values: Sequence[Sequence[int]]) -> int | None:
    """The seat whose field (its cards' values, empty slots left out) is exactly 12,
    12, 13 and 13, the first in seat order; None when there is none. The scoring and
    the round's reveal (``round_reveal``) both ask here."""
    return next((s for s, held in enumerate(values) if sorted(held) == KAMIKAZE), None)


def cabo_score(o: RoundOutcome) -> tuple[list[int], list[int]]:
    seats = range(len(o.totals))
    kamikaze = kamikaze_seat(o.values)
    if kamikaze is not None:
        return [0 if i == kamikaze else 50 for i in seats], [kamikaze]
    low = min(o.totals)
    scores = list(o.totals)
    caller = o.callers[0] if o.callers else None
    if caller is not None and o.totals[caller] == low:
        winners = [caller]
    else:
        winners = [s for s in seats if o.totals[s] == low]
        if caller is not None:
            scores[caller] += 5
    for s in winners:
        scores[s] = 0
    return scores, winners


def cabo_next_start(
    prev: int, totals: list[int], game: list[int], winners: list[int], seats: int
) -> list[int]:
    return _lowest_then_game_total(winners, game)


CABO_POWERS: dict[str, Power] = {
    "7": ("peek", True),
    "8": ("peek", True),
    "9": ("spy", True),
    "10": ("spy", True),
    "11": ("swap", True),
    "12": ("swap", True),
}

CABO = Preset(
    id="cabo",
    name="Cabo",
    min_players=2,
    options={},
    max_players=lambda options: 8,
    max_players_any=8,
    deck=lambda options: cabo_deck(),
    value=int,
    rank=lambda code: code,
    powers=CABO_POWERS,
    discard_draw_must_replace=True,
    multi_replace="equal",
    call_when="instead_of_draw",
    score=cabo_score,
    adjust_total=lambda total: 50 if total == 100 else total,
    game_over=lambda totals, options: any(t > 100 for t in totals),
    next_start=cabo_next_start,
    presentation=Presentation(
        "cabo",
        "family",
        "round",
        (100, "game ends above 100"),
        "Cabo",
        faces=tuple((code, kind) for code, (kind, _optional) in CABO_POWERS.items()),
    ),
)

PRESETS = (PABLO, PABLO_50, TAMALOU, CABO)
