"""Reads for the replay viewer: the list of finished games, and a game's steps.

A *step* is a moment of the game the viewer can show (docs/viewer.md):

* step 0 is the table right after the first deal -- everything before it
  (creation, joins, the start seat, the deal) is summed up in one sentence;
* every later event is one step, except ``deadline_set``: a new deadline is
  bookkeeping, so it is folded into the step before it.

A ``Replay`` is built once per ``(game id, version)`` -- a finished game never
changes -- by one fold over the stream. It keeps a copy of the state every
``CHECKPOINT`` events, the plain-words sentence of every step for every
perspective, the jump targets and the chart's numbers. Drawing a step then
costs one state copy, at most ``CHECKPOINT - 1`` ``apply`` calls and a few
``view`` calls (bench/bench_replay.py measures it).

Redaction stays in the rules: a seat's table is ``engine.view(state, seat)``,
a seat's sentences are built from ``engine.event_view(before, event, seat)``,
and the all-face-up table is ``engine.reveal(state)`` where the ruleset
provides it (otherwise the seats' views merged, so a card nobody knew stays
face down).
"""

from __future__ import annotations

import copy
import gc
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet

from games.models import Event as EventRow
from games.models import Game
from games.rules import engine
from games.rules.engine import Event, State

from . import describe as words
from .cards import kind_of

JSON = dict[str, Any]
CHECKPOINT = 32
VIEWABLE = (Game.Status.FINISHED, Game.Status.ABORTED)
RULESET_NAMES = {
    "pablo": "Pablo",
    "pablo-50": "Pablo 50",
    "tamalou": "Tamalou",
    "cabo": "Cabo",
    "skipbo": "Skip-Bo",
}


# --------------------------------------------------------------------------- the list


def replay_list(*, ruleset: str = "", player: str = "") -> QuerySet[Game]:
    """Finished and aborted games, newest first, filtered by ruleset and player username."""
    games = Game.objects.filter(status__in=VIEWABLE).prefetch_related("seat_set__user")
    if ruleset:
        games = games.filter(ruleset=ruleset)
    if player:
        games = games.filter(Q(seat_set__user__username__iexact=player)).distinct()
    return games.order_by("-finished_at", "-created_at")


def replay_players() -> list[str]:
    """Usernames that appear in a viewable game (the player filter's choices)."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.filter(seats__game__status__in=VIEWABLE).distinct()
    return sorted(users.values_list("username", flat=True), key=str.lower)


def viewable_game(game_id: Any) -> Game | None:
    """The game if it is finished or aborted; None otherwise (the viewer answers 404)."""
    return Game.objects.filter(id=game_id, status__in=VIEWABLE).first()


# --------------------------------------------------------------------------- the replay


@dataclass
class Step:
    number: int
    event_index: int  # the table is the state after events[: event_index + 1]
    main: int | None  # index of the event this step is about (None: step 0)
    first: int  # index of the first event said in this step (main, or after the deal)
    actor: int | None  # the seat that acted, whose knowledge marks cards
    sentences: dict[int | None, list[str]] = field(default_factory=dict)  # by perspective
    round: int = 1
    tags: tuple[str, ...] = ()  # "round" (a round starts), "call", "end"
    chart_x: int = 0  # points of the chart recorded up to this step (rounds or turns)
    intro: tuple[str, ...] = ()  # said before the step's events (step 0: who sits down)


@dataclass
class Replay:
    game_id: str
    version: int
    ruleset: str
    kind: str
    names: list[str]
    events: list[Event]
    steps: list[Step]
    checkpoints: dict[int, State]
    totals_by_round: list[list[int]]  # game totals after round 0, 1, ... (Skip-Bo: stocks)
    chart_axis: str
    jumps: list[tuple[int, str]]  # (step number, label)
    result: JSON
    memo: dict[str, Any] = field(default_factory=dict)  # things drawn once per game

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    def state_at(self, step: Step) -> State:
        """A private copy of the state after ``step``."""
        return self.state_after(step.event_index)

    def state_after(self, index: int) -> State:
        """A private copy of the state after ``events[: index + 1]``."""
        base = max(i for i in self.checkpoints if i <= index)
        state = self.checkpoints[base].copy()
        for event in self.events[base + 1 : index + 1]:
            engine.apply(state, event)
        return state

    def sentences(self, perspective: int | None, lo: int, hi: int) -> list[list[str]]:
        """What steps ``lo..hi`` say to ``perspective`` (None: everything).

        A seat's sentences are made on demand from ``engine.event_view`` --
        one fold over the window -- and kept: building them for every seat up
        front would double the cost of a game's first page.
        """
        if perspective is None:
            return [self.steps[n].sentences[None] for n in range(lo, hi + 1)]
        with _SENTENCES_LOCK:
            self._seat_sentences(perspective, lo, hi)
        return [self.steps[n].sentences[perspective] for n in range(lo, hi + 1)]

    def _seat_sentences(self, perspective: int, lo: int, hi: int) -> None:
        missing = [n for n in range(lo, hi + 1) if perspective not in self.steps[n].sentences]
        if missing:
            first, last = self.steps[missing[0]], self.steps[missing[-1]]
            state = self.state_after(first.first - 1)
            wanted = set(missing)
            number = first.number
            for i in range(first.first, last.event_index + 1):
                while self.steps[number].event_index < i:
                    number += 1
                event = self.events[i]
                if number in wanted and event.type != "deadline_set":
                    step = self.steps[number]
                    text = words.describe(
                        event,
                        engine.event_view(state, event, perspective),
                        self.names,
                        self.kind,
                        viewer=perspective,
                        ruleset=self.ruleset,
                    )
                    got = step.sentences.setdefault(perspective, list(step.intro))
                    got.extend(text)
                engine.apply(state, event)
            for n in missing:
                self.steps[n].sentences.setdefault(perspective, list(self.steps[n].intro))


_CACHE: OrderedDict[tuple[str, int], Replay] = OrderedDict()
_CACHE_SIZE = 24
_LOCK = threading.Lock()
_SENTENCES_LOCK = threading.Lock()


def game_replay(game: Game) -> Replay:
    """The game's ``Replay``, from the per-process cache when it was built before."""
    key = (str(game.id), game.version)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return hit
    replay = build_replay(str(game.id), game.version, load_events(game))
    # A built replay is tens of thousands of long-lived objects; left to the cyclic
    # GC, every full collection walks them all again (100+ ms pauses in a later,
    # unrelated request -- bench/bench_replay.py showed it). Freezing moves what
    # exists now out of the collector's way; reference counting still frees the
    # replay when the cache drops it (it holds no cycles).
    gc.freeze()
    with _LOCK:
        _CACHE[key] = replay
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return replay


def load_events(game: Game) -> list[Event]:
    """The stream as engine events. ``values_list`` rather than model instances
    (``games.selectors.game_events``): twice as fast for a long game's first page.
    """
    rows = EventRow.objects.filter(game=game).order_by("seq").values_list("type", "data", "seat")
    return [Event(type=t, data=d, seat=s) for t, d, s in rows]


def _start_index(events: list[Event]) -> int:
    """Index of the event after which step 0 is drawn: the first deadline after the start."""
    started = next((i for i, e in enumerate(events) if e.type == "game_started"), None)
    if started is None:
        return len(events) - 1
    for i in range(started + 1, len(events)):
        if events[i].type == "deadline_set":
            return i
        if events[i].seat is not None and events[i].type not in words.PRE_PLAY:
            return i - 1
    return len(events) - 1


def build_replay(game_id: str, version: int, events: list[Event]) -> Replay:
    """One fold over ``events``: checkpoints, sentences, jumps and the chart's numbers."""
    header = events[0].data
    ruleset = header["ruleset"]
    kind = kind_of(ruleset)
    seats = header["seats"]
    names = [f"Seat {s}" for s in range(seats)]
    for e in events:
        if e.type == "player_joined":
            names[e.data["seat"]] = e.data.get("username") or names[e.data["seat"]]

    start = _start_index(events)
    state = engine.fold(events[:1])
    checkpoints: dict[int, State] = {0: state.copy()}
    for i in range(1, start + 1):
        engine.apply(state, events[i])
        if i % CHECKPOINT == 0:
            checkpoints[i] = state.copy()
    checkpoints[start] = state.copy()

    round_no = 1
    intro = words.describe_start(events[: start + 1], names, kind)
    step0 = Step(0, start, None, start + 1, None, {None: [intro]}, 1, ("round",), intro=(intro,))
    steps = [step0]
    jumps: list[tuple[int, str]] = [(0, "Deal" if kind == "skipbo" else "Round 1")]
    # chart points: game totals after round 0, 1, ... (Skip-Bo: stock counts per turn)
    totals: list[list[int]] = [[0] * seats]
    round_end_types = words.ROUND_END & {e.type for e in events}
    skipbo = kind == "skipbo"
    last_scores = list(state.scores)
    if skipbo:
        totals = [_stock_counts(state, seats)]

    for i in range(start + 1, len(events)):
        event = events[i]
        said: list[str] = []
        if event.type != "deadline_set":
            said = words.describe(event, event.data, names, kind, ruleset=ruleset)
        engine.apply(state, event)
        if not skipbo:
            if round_end_types:
                if event.type in round_end_types:
                    totals.append(list(state.scores))
            elif state.scores != last_scores:
                totals.append(list(state.scores))
            last_scores = list(state.scores)
        merged = event.type in words.MERGE_BACK or not said
        if merged:
            # bookkeeping, or the end of the step before: no step of its own
            steps[-1].event_index = i
            steps[-1].sentences[None].extend(said)
        if event.type == "deadline_set" and skipbo:
            totals.append(_stock_counts(state, seats))
        if not merged:
            tags: list[str] = []
            if event.type in words.ROUND_START:
                round_no += 1
                tags.append("round")
                jumps.append((len(steps), f"Round {round_no}"))
            if event.type in words.CALL:
                tags.append("call")
                jumps.append(
                    (
                        len(steps),
                        f"{names[event.seat]} called" if event.seat is not None else "Call",
                    )
                )
            if event.type in ("game_finished", "game_aborted"):
                tags.append("end")
                jumps.append(
                    (len(steps), "Game over" if event.type == "game_finished" else "Aborted")
                )
            step = Step(len(steps), i, i, i, event.seat, {None: said}, round_no, tuple(tags))
            steps.append(step)
        steps[-1].chart_x = len(totals) - 1
        if i % CHECKPOINT == 0:
            checkpoints[i] = state.copy()

    result = state.result or {"winners": [], "losers": []}
    return Replay(
        game_id=game_id,
        version=version,
        ruleset=ruleset,
        kind=kind,
        names=names,
        events=events,
        steps=steps,
        checkpoints=checkpoints,
        totals_by_round=totals,
        chart_axis="turn" if skipbo else "round",
        jumps=jumps,
        result=result,
    )


def _stock_counts(state: State, seats: int) -> list[int]:
    stock = (engine.view(state, None) or {}).get("stock") or {}
    return [int((stock.get(str(s)) or {}).get("count", 0)) for s in range(seats)]


# --------------------------------------------------------------------------- one frame


def _assisted(state: State) -> State:
    """The same state read with ``memory: assisted``: a replay shows what a seat *knew*."""
    if state.options.get("memory", "assisted") == "assisted":
        return state
    shallow = copy.copy(state)
    shallow.options = {**state.options, "memory": "assisted"}
    return shallow


def table_views(
    replay: Replay, step: Step, perspective: int | None
) -> tuple[JSON, JSON | None, list[int]]:
    """``(table, actor_view, game totals)`` at ``step``.

    ``table`` is seat ``perspective``'s view, or with ``None`` every card face
    up; ``actor_view`` (only for ``None``) is what the acting seat saw then, to
    mark the cards they did not know.
    """
    state = _assisted(replay.state_at(step))
    if perspective is not None:
        return engine.view(state, perspective) or {}, None, list(state.scores)
    table = engine.reveal(state)
    seat_views: dict[int, JSON] = {}

    def seat_view(s: int) -> JSON:
        if s not in seat_views:
            seat_views[s] = engine.view(state, s) or {}
        return seat_views[s]

    if table is None:
        table = _merge_views(state, seat_view)
    actor = step.actor
    if actor is None:
        actor = ((table.get("turn") or {}).get("seat")) if step.main is not None else None
    return table, (seat_view(actor) if actor is not None else None), list(state.scores)


def _merge_views(state: State, seat_view: Any) -> JSON:
    """Fallback for a ruleset without ``reveal``: every card some seat knew, face up."""
    merged = copy.deepcopy(engine.view(state, None) or {})
    views = [seat_view(s) for s in range(state.seats)]
    if "fields" in merged:
        for key, slots in merged["fields"].items():
            for pos, code in enumerate(slots):
                if code != "?":
                    continue
                for v in views:
                    theirs = (v.get("fields") or {}).get(key) or []
                    if pos < len(theirs) and theirs[pos] not in ("?", None):
                        slots[pos] = theirs[pos]
                        break
        if not merged.get("held"):
            for v in views:
                if v.get("held"):
                    merged["held"] = v["held"]
                    break
    if "hand_counts" in merged:
        merged["hands"] = {str(s): list(v.get("hand") or []) for s, v in enumerate(views)}
    return merged
