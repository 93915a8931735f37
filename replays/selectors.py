"""Reads for the replay viewer: the list of finished games, and a game's steps.

A *step* is a moment of the game the viewer can show (docs/viewer.md):

* step 0 is the table right after the first deal -- everything before it
  (creation, joins, the start seat, the deal) is summed up in one sentence;
* every later event is one step, except those that merely end the step before
  (``describe.own_step``: ``deadline_set``, ``turn_started``, a Skip-Bo turn
  ending with its discard).

A ``Replay`` is built once per ``(game id, version)`` -- a finished game never
changes -- by one fold over the stream, and kept compact: the events as pickled
segments of ``CHECKPOINT`` events and the pickled state at every segment's
start (``bytes``: nothing for the cyclic garbage collector to walk), the
steps' numbering, the jump targets and the chart's numbers. Drawing a step
then costs one small unpickle, at most ``CHECKPOINT - 1`` ``apply`` calls and a
few ``view`` calls; the words of a step are made on demand for the steps shown
(``Replay.sentences``) and kept. A built replay also goes into the shared
``replays`` cache (settings ``CACHES``), so that the other worker processes
load it instead of folding again (docs/viewer.md "Speed", bench/bench_replay.py).

Redaction stays in the rules: a seat's table is ``engine.view(state, seat)``,
a seat's sentences are built from ``engine.event_view(before, event, seat)``,
and the all-face-up table is ``engine.reveal(state)`` where the ruleset
provides it (otherwise the seats' views merged, so a card nobody knew stays
face down).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import gc
import hashlib
import json
import logging
import pickle
import sys
import threading
import zlib
from array import array
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

from django.db import connection
from django.db.models import Q, QuerySet

from games.models import Event as EventRow
from games.models import Game
from games.rules import engine
from games.rules.engine import Event, State

from . import describe as words
from .cards import kind_of

logger = logging.getLogger(__name__)

JSON = dict[str, Any]
CHECKPOINT = 32
PICKLE = pickle.HIGHEST_PROTOCOL
FORMAT = 2  # of a built Replay; part of the shared cache key (code_version)
VIEWABLE = (Game.Status.FINISHED, Game.Status.ABORTED)
#: Display names, as the rulesets give them (``GET /api/rulesets/`` shows the same).
RULESET_NAMES = {ruleset.id: ruleset.name for ruleset in engine.rulesets()}


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


@dataclass(slots=True)
class Step:
    number: int
    event_index: int  # the table is the state after events[: event_index + 1]
    main: int | None  # index of the event this step is about (None: step 0)
    first: int  # index of the first event said in this step (main, or after the deal)
    actor: int | None  # the seat that acted, whose knowledge marks cards
    round: int = 1
    tags: tuple[str, ...] = ()  # "round" (a round starts), "call", "end"
    chart_x: int = 0  # points of the chart recorded up to this step (rounds or turns)
    intro: tuple[str, ...] = ()  # said before the step's events (step 0: who sits down)


TAGS = ("round", "call", "end")  # Steps.tags: bit n is TAGS[n]


class Steps(Sequence[Step]):
    """A replay's steps, packed into a few arrays; ``steps[n]`` makes a ``Step``.

    A thousand ``Step`` objects kept for as long as the replay is cached are a
    thousand more containers for every full pass of the cyclic garbage collector
    (the pauses bench/bench_replay.py measured); a few arrays are none.
    """

    __slots__ = ("actor", "chart_x", "event_index", "first", "intro", "main", "round", "tags")

    def __init__(
        self,
        *,
        event_index: Iterable[int],
        main: Iterable[int],  # -1: None
        first: Iterable[int],
        actor: Iterable[int],  # -1: None
        round: Iterable[int],
        chart_x: Iterable[int],
        tags: Iterable[int],  # bit n: TAGS[n]
        intro: dict[int, tuple[str, ...]],
    ) -> None:
        self.event_index = array("i", event_index)
        self.main = array("i", main)
        self.first = array("i", first)
        self.actor = array("i", actor)
        self.round = array("i", round)
        self.chart_x = array("i", chart_x)
        self.tags = array("B", tags)
        self.intro = intro

    @classmethod
    def of(cls, steps: Sequence[Step]) -> Steps:
        def packed(values: Iterable[int | None]) -> list[int]:
            return [-1 if v is None else v for v in values]

        return cls(
            event_index=[s.event_index for s in steps],
            main=packed(s.main for s in steps),
            first=[s.first for s in steps],
            actor=packed(s.actor for s in steps),
            round=[s.round for s in steps],
            chart_x=[s.chart_x for s in steps],
            tags=[sum(1 << TAGS.index(t) for t in s.tags) for s in steps],
            intro={s.number: s.intro for s in steps if s.intro},
        )

    def __len__(self) -> int:
        return len(self.event_index)

    @overload
    def __getitem__(self, index: int) -> Step: ...

    @overload
    def __getitem__(self, index: slice) -> list[Step]: ...

    def __getitem__(self, index: int | slice) -> Step | list[Step]:
        if isinstance(index, slice):
            return [self[n] for n in range(*index.indices(len(self)))]
        n = range(len(self))[index]  # negative indexes, IndexError
        main, actor, tags = self.main[n], self.actor[n], self.tags[n]
        return Step(
            number=n,
            event_index=self.event_index[n],
            main=None if main < 0 else main,
            first=self.first[n],
            actor=None if actor < 0 else actor,
            round=self.round[n],
            tags=tuple(t for bit, t in enumerate(TAGS) if tags >> bit & 1),
            chart_x=self.chart_x[n],
            intro=self.intro.get(n, ()),
        )

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        return None, {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        for name, value in state[1].items():
            setattr(self, name, value)


@dataclass
class Replay:
    game_id: str
    version: int
    ruleset: str
    kind: str
    names: list[str]
    length: int  # events in the stream
    steps: Steps
    #: ``segments[k]``: ``events[k * CHECKPOINT : (k + 1) * CHECKPOINT]`` pickled as
    #: ``(type, data, seat)`` tuples
    segments: list[bytes]
    #: ``checkpoints[k]``: the pickled state after ``max(1, k * CHECKPOINT)`` events
    checkpoints: list[bytes]
    totals_by_round: list[tuple[int, ...]]  # game totals after round 0, 1, ... (Skip-Bo: stocks)
    chart_axis: str
    jumps: list[tuple[int, str]]  # (step number, label)
    result: JSON
    memo: dict[str, Any] = field(default_factory=dict)  # things drawn once per game and process
    #: words of the steps shown so far, by perspective (None: all cards) and step number
    said: dict[int | None, dict[int, tuple[str, ...]]] = field(default_factory=dict)

    def __getstate__(self) -> dict[str, Any]:
        # What goes into the shared cache: what the build made, not this process's memos.
        return {**self.__dict__, "memo": {}, "said": {}}

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    def events(self, lo: int, hi: int) -> list[Event]:
        """``events[lo:hi]`` of the stream."""
        out: list[Event] = []
        if hi <= lo:
            return out
        for k in range(lo // CHECKPOINT, (hi - 1) // CHECKPOINT + 1):
            out += [Event(t, d, s) for t, d, s in pickle.loads(self.segments[k])]
        skip = lo - (lo // CHECKPOINT) * CHECKPOINT
        return out[skip : skip + hi - lo]

    def state_at(self, step: Step) -> State:
        """A private copy of the state after ``step``."""
        return self.state_after(step.event_index)

    def state_after(self, index: int) -> State:
        """A private copy of the state after ``events[: index + 1]``."""
        k = (index + 1) // CHECKPOINT
        state: State = pickle.loads(self.checkpoints[k])
        for event in self.events(max(1, k * CHECKPOINT), index + 1):
            engine.apply(state, event)
        return state

    def sentences(self, perspective: int | None, lo: int, hi: int) -> list[list[str]]:
        """What steps ``lo..hi`` say to ``perspective`` (None: everything).

        Made on demand -- the all-cards words from the events' data, a seat's from
        ``engine.event_view`` (one fold over the window) -- and kept: making them
        for every step and seat up front would dominate the cost of a game's first
        page.
        """
        with _SENTENCES_LOCK:
            said = self.said.setdefault(perspective, {})
            missing = [n for n in range(lo, hi + 1) if n not in said]
            if missing:
                self._say(perspective, missing, said)
            return [list(said[n]) for n in range(lo, hi + 1)]

    def _say(
        self, perspective: int | None, missing: list[int], said: dict[int, tuple[str, ...]]
    ) -> None:
        first, last = self.steps[missing[0]], self.steps[missing[-1]]
        state = self.state_after(first.first - 1) if perspective is not None else None
        wanted = set(missing)
        got: dict[int, list[str]] = {n: list(self.steps.intro.get(n, ())) for n in missing}
        ends = self.steps.event_index
        number = first.number
        for i, event in enumerate(
            self.events(first.first, last.event_index + 1), start=first.first
        ):
            while ends[number] < i:
                number += 1
            if number in wanted and event.type != "deadline_set":
                data = event.data if state is None else engine.event_view(state, event, perspective)
                got[number] += words.describe(
                    event, data, self.names, self.kind, viewer=perspective, ruleset=self.ruleset
                )
            if state is not None:
                engine.apply(state, event)
        for n, text in got.items():
            said[n] = tuple(text)


_CACHE: OrderedDict[tuple[str, int], Replay] = OrderedDict()
_CACHE_SIZE = 24
_LOCK = threading.Lock()
_SENTENCES_LOCK = threading.Lock()
SHARED_CACHE = "replays"  # the alias in settings.CACHES; absent: per process only


def game_replay(game: Game) -> Replay:
    """The game's ``Replay``: from this process's cache, else the shared one, else built.

    A finished game never changes, so neither cache needs invalidating; the shared
    key also names the code that built the replay (``code_version``), so a deploy
    that changes the rules or the viewer builds afresh.
    """
    key = (str(game.id), game.version)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return hit
    shared_key = f"replay:{key[0]}:{key[1]}:{code_version()}"
    replay = _shared_get(shared_key)
    if replay is None:
        with _collector_paused():
            replay = build_replay(str(game.id), game.version, load_events(game))
        _shared_set(shared_key, replay)
    with _LOCK:
        _CACHE[key] = replay
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return replay


def _shared() -> Any:
    from django.conf import settings
    from django.core.cache import caches

    return caches[SHARED_CACHE] if SHARED_CACHE in settings.CACHES else None


def _shared_get(key: str) -> Replay | None:
    cache = _shared()
    if cache is None:
        return None
    try:
        found = cache.get(key)
        replay = pickle.loads(zlib.decompress(found)) if isinstance(found, bytes) else None
    except Exception:  # an unreadable entry is a miss: the replay is rebuilt
        logger.warning("replay cache: unreadable entry %s", key, exc_info=True)
        return None
    return replay if isinstance(replay, Replay) else None


def _shared_set(key: str, replay: Replay) -> None:
    cache = _shared()
    if cache is None:
        return
    try:
        # Packed here, at zlib's fastest level: the file cache's own compression
        # (level 6, on every set) then has little left to do -- 2 ms instead of 7
        # on the request that built the replay.
        cache.set(key, zlib.compress(pickle.dumps(replay, PICKLE), 1), timeout=None)
    except Exception:  # the cache is an optimisation, never a reason to fail a page
        logger.warning("replay cache: could not store %s", key, exc_info=True)


@functools.cache
def code_version() -> str:
    """A fingerprint of the code a replay's contents depend on (rules and viewer)."""
    digest = hashlib.blake2b(f"{FORMAT}:{sys.version_info[:2]}".encode(), digest_size=8)
    for package in (engine.__file__, __file__):
        for path in sorted(Path(package).parent.glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def load_events(game: Game) -> list[Event]:
    """The stream as engine events, decoded with one ``json.loads`` for all of it.

    Decoding row by row (``values_list``: Django's converter per row) took three
    times as long for a long game, model instances (``games.selectors.game_events``)
    six times. On PostgreSQL the database builds the one JSON array; elsewhere
    (SQLite) the rows' JSON texts are joined into one.
    """
    table = connection.ops.quote_name(EventRow._meta.db_table)
    game_id = EventRow._meta.get_field("game").get_db_prep_value(game.pk, connection)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT json_agg(json_build_array(type, data, seat) ORDER BY seq)::text "
                f"FROM {table} WHERE game_id = %s",
                [game_id],
            )
            text = cursor.fetchone()[0]
            return [Event(t, d, s) for t, d, s in json.loads(text or "[]")]
        cursor.execute(
            f"SELECT type, data, seat FROM {table} WHERE game_id = %s ORDER BY seq", [game_id]
        )
        rows = cursor.fetchall()
    if all(isinstance(data, str) for _, data, _ in rows):
        datas = json.loads("[" + ",".join(data for _, data, _ in rows) + "]")
    else:  # a driver that decodes JSON itself
        datas = [json.loads(d) if isinstance(d, str) else d for _, d, _ in rows]
    return [Event(t, d, s) for (t, _, s), d in zip(rows, datas, strict=True)]


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


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection inside: for loading and folding a stream.

    Decoding and folding a long game allocates tens of thousands of containers
    that are either kept (the decoded events, until the replay is built) or freed
    by reference counting; the collector, counting allocations, would run dozens
    of young collections over them and some full ones over the whole process --
    most of a first page's time (bench/README.md). Only this thread's hot section
    is covered, and the collector's thresholds are left as they are.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def build_replay(game_id: str, version: int, events: list[Event]) -> Replay:
    """One fold over ``events``: checkpoints, steps, jumps and the chart's numbers."""
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
    checkpoints = [pickle.dumps(state, PICKLE)]
    for i in range(1, start + 1):
        engine.apply(state, events[i])
        if (i + 1) % CHECKPOINT == 0:
            checkpoints.append(pickle.dumps(state, PICKLE))

    round_no = 1
    intro = words.describe_start(events[: start + 1], names, kind)
    # the steps, column by column (Steps); step 0 is the deal
    ends, mains, firsts, actors, rounds, xs, tags = [start], [-1], [start + 1], [-1], [1], [0], [1]
    jumps: list[tuple[int, str]] = [(0, "Deal" if kind == "skipbo" else "Round 1")]
    # chart points: game totals after round 0, 1, ... (Skip-Bo: stock counts per turn,
    # which are its game totals -- docs/skipbo.md)
    totals: list[tuple[int, ...]] = [(0,) * seats]
    round_end_types = words.ROUND_END & {e.type for e in events}
    skipbo = kind == "skipbo"
    last_scores = tuple(state.scores)
    if skipbo:
        totals = [last_scores]

    for i in range(start + 1, len(events)):
        event = events[i]
        engine.apply(state, event)
        if not skipbo:
            scores = tuple(state.scores)
            if round_end_types:
                if event.type in round_end_types:
                    totals.append(scores)
            elif scores != last_scores:
                totals.append(scores)
            last_scores = scores
        elif event.type == "deadline_set":
            totals.append(tuple(state.scores))
        if not words.own_step(event):
            ends[-1] = i
        else:
            number, flags = len(ends), 0
            if event.type in words.ROUND_START:
                round_no += 1
                flags |= 1
                jumps.append((number, f"Round {round_no}"))
            if event.type in words.CALL:
                flags |= 2
                called = f"{names[event.seat]} called" if event.seat is not None else "Call"
                jumps.append((number, called))
            if event.type in ("game_finished", "game_aborted"):
                flags |= 4
                over = "Game over" if event.type == "game_finished" else "Aborted"
                jumps.append((number, over))
            ends.append(i)
            mains.append(i)
            firsts.append(i)
            actors.append(-1 if event.seat is None else event.seat)
            rounds.append(round_no)
            tags.append(flags)
            xs.append(0)
        xs[-1] = len(totals) - 1
        if (i + 1) % CHECKPOINT == 0:
            checkpoints.append(pickle.dumps(state, PICKLE))

    # plain tuples: pickled and unpickled in C, unlike the Event dataclass
    rows = [(e.type, e.data, e.seat) for e in events]
    segments = [
        pickle.dumps(rows[k : k + CHECKPOINT], PICKLE) for k in range(0, len(rows), CHECKPOINT)
    ]
    return Replay(
        game_id=game_id,
        version=version,
        ruleset=ruleset,
        kind=kind,
        names=names,
        length=len(events),
        steps=Steps(
            event_index=ends,
            main=mains,
            first=firsts,
            actor=actors,
            round=rounds,
            chart_x=xs,
            tags=tags,
            intro={0: (intro,)},
        ),
        segments=segments,
        checkpoints=checkpoints,
        totals_by_round=totals,
        chart_axis="turn" if skipbo else "round",
        jumps=jumps,
        result=state.result or {"winners": [], "losers": []},
    )


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
