"""What a ruleset provides (``Ruleset``): the protocol ``family`` and ``skipbo`` implement."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .events import JSON, Context, Event
from .options import Option
from .state import State
from .words import Part


@dataclass(frozen=True)
class Presentation:
    """What the pages need to know of a ruleset to show it, as plain data.

    The pages ask the ruleset for these instead of naming it: the table and the
    replay viewer pick their board by ``board`` (one table in
    ``tabletop.layouts`` maps a board kind to its templates), the cards by
    ``cards``, and the words below.
    """

    #: The family of card codes the pages draw (``tabletop.cards``: "french", "cabo",
    #: "skipbo", or a kind of a ruleset's own whose drawing the UI gains with it).
    cards: str
    #: The kind of board the cards lie on ("family": a field of slots per seat,
    #: a deck and a discard pile; "skipbo": hand, stock, four discard piles, building piles).
    board: str
    #: The viewer's chart: one point per "round", or per "turn".
    chart_axis: str = "round"
    #: The chart's end line: (value, words), or None.
    threshold: tuple[int, str] | None = None
    #: What a call is called ("Pablo"); "" for a ruleset without calls.
    call_word: str = ""
    #: What a player's final score counts, for one and for many (history rows).
    score_words: tuple[str, str] = ("point", "points")
    #: Common options that change nothing a player would notice in this ruleset
    #: (the game-creation form does not show them).
    unused_options: frozenset[str] = frozenset()
    #: A word printed on a card's face, by code (Cabo's powers: ``("7", "peek")``).
    faces: tuple[tuple[str, str], ...] = ()
    #: The table's button for a house verb this ruleset means its own way, as a
    #: message id the pages translate (``("skip", "Pass")``); the house's words otherwise.
    verbs: tuple[tuple[str, str], ...] = ()


class Ruleset(Protocol):
    """What a ruleset provides. See ``games/rules/family/`` and ``skipbo.py``."""

    id: str
    name: str
    min_players: int
    #: Ruleset-specific options (the common ones are added by the engine).
    options: dict[str, Option]
    #: Its own event types -> a sentence (the OpenAPI schema documents them).
    event_types: dict[str, str]
    #: Whether a seat may ever act while the game does not wait for it (throws, a call
    #: after one's turn): the bots then look for such chances at every version.
    off_turn_actions: bool
    #: Its event types that record a seat's own action (a timeout's action for it too).
    action_events: frozenset[str]
    #: Its event type that ends a round (and opens the round's reveal); None: no rounds.
    round_end_event: str | None
    #: Its event type that deals a new round (the viewer jumps to it); None: no rounds.
    round_start_event: str | None
    #: Its event type of a call ("Pablo", "Cabo": the viewer jumps to it); None: no calls.
    call_event: str | None
    #: The card codes its actions name (``play``/``end``'s ``card``), in order; () if none.
    action_cards: tuple[str, ...]
    #: How many piles its actions name by index (``pile``, ``discard_pile``); 0 if none.
    action_piles: int
    #: How the pages show it.
    presentation: Presentation

    def max_players(self, options: JSON) -> int:
        """Largest seat count allowed with these (validated) options."""
        ...

    @property
    def max_players_any(self) -> int:
        """Largest ``max_players`` over all options (``GET /api/rulesets/``)."""
        ...

    def check_options(self, seats: int, options: JSON) -> None:
        """Cross-field checks beyond each option's own range; raise ``Malformed``."""
        ...

    def deck(self, options: JSON) -> list[str]:
        """Every card code of one round's full deck (validates stacked decks)."""
        ...

    def initial_state(self, header: JSON) -> State:
        """The state right after ``game_created`` (header = that event's data)."""
        ...

    def start(self, state: State, ctx: Context) -> list[Event]:
        """The events that begin play once every seat is taken (deal round 1)."""
        ...

    def decide(self, state: State, seat: int, command: JSON, ctx: Context) -> list[Event]:
        """The events of ``seat`` doing ``command`` (already shape-checked), or raise."""
        ...

    def apply(self, state: State, event: Event) -> None:
        """Evolve ``state`` in place by one of the ruleset's own events."""
        ...

    def timeout(self, state: State, seat: int, ctx: Context) -> list[Event]:
        """The automatic action (docs/rules.md "Timeouts") for ``seat`` (one of ``actors``)."""
        ...

    def actors(self, state: State) -> list[int]:
        """Seats that must act before the game can go on (deadline, timeouts)."""
        ...

    def turn_key(self, state: State) -> str | None:
        """Names the current turn (or setup phase); a change starts a new deadline."""
        ...

    def view(
        self,
        state: State,
        seat: int | None,
        recent: Sequence[Event] = (),
        *,
        memory: str | None = None,
    ) -> JSON:
        """The API ``state`` object as ``seat`` (None: a non-player) sees it.

        ``recent`` are the events the viewer's own action just produced
        (``memory: strict`` shows field cards only when they reveal them).
        ``memory``: read the game as if its option were this (``"assisted"``:
        every card the seat knows, for the bots and the replay viewer); None:
        the game's own option.
        Includes ``legal_actions`` and ``turn.deadline``.
        """
        ...

    def event_view(self, before: State, event: Event, seat: int | None) -> JSON:
        """``event.data`` as ``seat`` saw it at that moment (``before`` = state before it)."""
        ...

    def legal_actions(self, state: State, seat: int | None) -> list[JSON]:
        """What ``seat`` may do now: complete bodies or templates (see docs/design.md)."""
        ...

    def describe(self, event: Event, data: JSON, reader: int | None) -> Part:
        """One of its own events in words (``rules.words``), from ``data`` as the viewer
        saw it (``event_view``): a sentence the pages translate, or None when the event
        before said it already. ``reader``: the seat reading at their own table."""
        ...

    def describe_start(self, seats: int, rounds: int) -> Part:
        """The replay's first step in words: who sits down, and the deal."""
        ...

    def merges_back(self, event: Event) -> bool:
        """Whether ``event`` only ends the step before it (a new turn; an event whose
        words the one before said), instead of being a step of its own."""
        ...
