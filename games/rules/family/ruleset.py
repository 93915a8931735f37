"""``Family``: one Pablo-family ruleset, the package's jobs bound to a ``Preset``.

It is what the registry holds (the ``Ruleset`` protocol); every method hands
the preset to the module that does the job.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..events import JSON, Context, Event
from ..options import Option
from ..state import State, base_header
from ..words import Part, Told
from . import decide, evolve, legal, view, words
from .presets import Preset
from .state import FamilyState


class Family:
    """One Pablo-family ruleset: the shared engine driven by a ``Preset``."""

    #: Documented in the OpenAPI schema (the event feed's ``type``).
    event_types = {
        "round_started": "a round was dealt; the deck is shown to nobody in the feed",
        "looked": "setup: a player looked at two of their own slots",
        "turn_started": "a player's turn began (`may_call`: whose call window is open)",
        "drawn": "the player on turn drew from the deck or took the discard top",
        "reshuffled": "the discard pile (but its top) became the new draw pile",
        "discarded": "the held card went onto the discard pile (`power` if it has one)",
        "replaced": "the held card replaced one or more field slots",
        "peeked": "power: the actor looked at one of their own cards",
        "spied": "power: the actor looked at another player's card",
        "swapped": "power: two cards changed places between fields",
        "power_skipped": "a power was skipped (by choice, impossible, or on timeout)",
        "thrown": "a card was thrown onto the discard pile (`correct` or not)",
        "penalty": "a penalty card went into a new slot",
        "called": "the player called (Pablo / Cabo)",
        "round_ended": "the round was scored; every field card is shown",
    }

    action_events = frozenset(
        {
            "looked",
            "drawn",
            "discarded",
            "replaced",
            "peeked",
            "spied",
            "swapped",
            "power_skipped",
            "thrown",
            "called",
        }
    )
    round_end_event: str | None = "round_ended"
    round_start_event: str | None = "round_started"
    call_event: str | None = "called"
    action_cards: tuple[str, ...] = ()  # its actions name positions, never codes
    action_piles = 0

    def __init__(self, preset: Preset) -> None:
        self.preset = preset
        self.id = preset.id
        self.name = preset.name
        self.min_players = preset.min_players
        self.options: dict[str, Option] = dict(preset.options)
        self.presentation = preset.presentation
        self.off_turn_actions = preset.throwing != "none" or preset.call_when == "after_turn"

    def max_players(self, options: JSON) -> int:
        return self.preset.max_players(options)

    @property
    def max_players_any(self) -> int:
        return self.preset.max_players_any

    def check_options(self, seats: int, options: JSON) -> None:
        self.preset.check_options(seats, options)

    def deck(self, options: JSON) -> list[str]:
        return self.preset.deck(options)

    def initial_state(self, header: JSON) -> FamilyState:
        return base_header(FamilyState, header)

    def start(self, state: State, ctx: Context) -> list[Event]:
        return decide.start(self.preset, state, ctx)

    def decide(self, state: State, seat: int, command: JSON, ctx: Context) -> list[Event]:
        return decide.decide(self.preset, state, seat, command, ctx)

    def timeout(self, state: State, seat: int, ctx: Context) -> list[Event]:
        return decide.timeout(self.preset, state, seat, ctx)

    def actors(self, state: State) -> list[int]:
        return decide.actors(self.preset, state)

    def turn_key(self, state: State) -> str | None:
        return decide.turn_key(self.preset, state)

    def apply(self, state: State, event: Event) -> None:
        evolve.apply(self.preset, state, event)

    def view(
        self,
        state: State,
        seat: int | None,
        recent: Sequence[Event] = (),
        *,
        memory: str | None = None,
    ) -> JSON:
        return view.view(self.preset, state, seat, recent, memory=memory)

    def reveal(self, state: State) -> JSON:
        """Every card face up (the replay viewer)."""
        return view.reveal(self.preset, state)

    def event_view(self, before: State, event: Event, seat: int | None) -> JSON:
        return view.event_view(self.preset, before, event, seat)

    def legal_actions(self, state: State, seat: int | None) -> list[JSON]:
        return legal.legal_actions(self.preset, state, seat)

    def describe(self, event: Event, data: JSON, reader: int | None) -> Part:
        return words.describe(Told(event, data), reader, self.presentation.call_word)

    def describe_start(self, seats: int, rounds: int) -> Part:
        return words.start(seats, rounds)

    def merges_back(self, event: Event) -> bool:
        return event.type == "turn_started"
