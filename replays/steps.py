"""A finished game as steps the viewer can show, built from the game's stream.

A *step* is a moment of the game the viewer can show (docs/viewer.md):

* step 0 is the table right after the first deal -- everything before it
  (creation, joins, the deal) is summed up in one sentence;
* every later event is one step, except those that merely end the step before
  (``describe.own_step``: ``deadline_set``, and what the ruleset's
  ``merges_back`` says: a new turn, a turn ending with the discard that said it).

A ``Replay`` is built once per ``(game id, version)`` -- a finished game never
changes -- by one fold over the stream (``games.selectors.games.game_events``): the
steps, and a checkpoint every ``CHECKPOINT`` events. It is kept in Django's
default cache (``settings.CACHES``, shared by the worker processes), so a step
costs one small cache read, a checkpoint or two unpickled, fewer than
``CHECKPOINT`` ``apply`` calls and a few ``view`` calls (docs/viewer.md
"Speed", bench/bench_replay.py).

Redaction stays in the rules: a seat's table is ``rules.view(state, seat)``
(read with ``memory="assisted"`` when the game's ``memory`` hides what the seat was
shown: a replay shows what a seat *knew*), a seat's sentences are built from
``rules.event_view(before, event, seat)``, and the all-face-up table is
``rules.reveal(state)``.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import logging
import pickle
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from django.core.cache import cache
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games import rules
from games.names import player_name
from games.rules import Event, State
from games.selectors import games as game_selectors
from tabletop import describe as words
from tabletop.layouts import layout

logger = logging.getLogger(__name__)

JSON = dict[str, Any]
#: Events between two stored states: a step applies fewer than this many events.
CHECKPOINT = 32
#: How long a built replay stays in the cache (seconds); rebuilding one is cheap.
CACHE_SECONDS = 24 * 3600


# --------------------------------------------------------------------------- the replay


class Step(NamedTuple):
    """One step. A tuple of plain values: the garbage collector soon stops tracking it."""

    number: int
    event_index: int  # the table is the state after events[: event_index + 1]
    main: int | None  # index of the event this step is about (None: step 0)
    first: int  # index of the first event said in this step (main, or after the deal)
    actor: int | None  # the seat that acted, whose knowledge marks cards
    round: int = 1
    tags: tuple[str, ...] = ()  # "round" (a round starts), "call", "end"
    chart_x: int = 0  # points of the chart recorded up to this step (rounds or turns)
    intro: tuple[str, ...] = ()  # said before the step's events (step 0: who sits down)


@dataclass
class Replay:
    """A finished game, ready to draw at any step: built by one fold, cached whole.

    The stream is kept as checkpoints: every ``CHECKPOINT`` events, the state
    there and the events up to the next one, pickled together. A step unpickles
    the one or two it needs; the rest stays bytes, which cost nothing to read
    from the cache and are no work for the garbage collector.
    """

    game_id: str
    version: int
    ruleset: str
    kind: str  # of card codes (tabletop.layouts.kind_of)
    names: list[str]
    steps: list[Step]
    #: ``checkpoints[k]``: pickled ``(state after events[: max(1, k * CHECKPOINT)],
    #: events[k * CHECKPOINT : (k + 1) * CHECKPOINT] as (type, data, seat) tuples)``
    checkpoints: list[bytes]
    totals_by_round: list[tuple[int, ...]]  # game totals after round 0, 1, ... (Skip-Bo: stocks)
    chart_axis: str  # "round", or "turn" for Skip-Bo
    jumps: list[tuple[int, str]]  # (step number, label)
    result: JSON

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    def checkpoint(self, k: int) -> tuple[State, list[Event]]:
        """A private copy of checkpoint ``k``: its state and its events."""
        state, rows = pickle.loads(self.checkpoints[k])
        return state, [Event(kind, data, seat) for kind, data, seat in rows]

    def events_between(self, lo: int, hi: int) -> list[Event]:
        """``events[lo:hi]`` of the stream."""
        out: list[Event] = []
        for k in range(lo // CHECKPOINT, -(-hi // CHECKPOINT)):
            out += self.checkpoint(k)[1]
        skip = lo - lo // CHECKPOINT * CHECKPOINT
        return out[skip : skip + max(0, hi - lo)]

    def state_at(self, step: Step) -> State:
        """A private copy of the state after ``step``."""
        return self.state_after(step.event_index)

    def state_after(self, index: int) -> State:
        """A private copy of the state after ``events[: index + 1]``."""
        k = (index + 1) // CHECKPOINT
        state, events = self.checkpoint(k)
        start = k * CHECKPOINT
        for event in events[max(1, start) - start : index + 1 - start]:
            rules.apply(state, event)
        return state

    def sentences(self, perspective: int | None, lo: int, hi: int) -> list[list[str]]:
        """What steps ``lo..hi`` say to ``perspective`` (None: everything).

        All cards: the words of the events' own data. A seat: the words of
        ``rules.event_view`` of each event, folding from the state before the
        window, so a sentence never names a card the seat had not seen.
        """
        steps = self.steps[lo : hi + 1]
        said = {step.number: list(step.intro) for step in steps}
        first, end = steps[0].first, steps[-1].event_index + 1
        state = self.state_after(first - 1) if perspective is not None else None
        number = lo
        for i, event in enumerate(self.events_between(first, end), start=first):
            while self.steps[number].event_index < i:
                number += 1
            if event.type != "deadline_set":
                data = event.data if state is None else rules.event_view(state, event, perspective)
                said[number] += words.describe(
                    event, data, self.names, self.kind, viewer=perspective, ruleset=self.ruleset
                )
            if state is not None:
                rules.apply(state, event)
        return [said[n] for n in range(lo, hi + 1)]


def game_replay(game: Any) -> Replay:
    """The game's ``Replay``, from Django's default cache or built (and cached).

    A finished game never changes, so an entry needs no invalidation; its key
    names the code that built it (``code_version``), so a deploy that changes
    the rules or the viewer never reads a state pickled by the old code.
    """
    # The jumps' labels are words of the page's language: one entry per language.
    key = f"replay:{game.id}:{game.version}:{code_version()}:{get_language()}"
    try:
        replay = cache.get(key)
    except Exception:  # an unreadable entry, a cache server away: build instead
        logger.warning("replay cache: cannot read %s", key, exc_info=True)
        replay = None
    if isinstance(replay, Replay):
        return replay
    with _collector_paused():
        replay = build_replay(str(game.id), game.version, game_selectors.game_events(game))
    try:
        cache.set(key, replay, timeout=CACHE_SECONDS)
    except Exception:  # the cache is an optimisation, never a reason to fail a page
        logger.warning("replay cache: cannot store %s", key, exc_info=True)
    return replay


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a stream is loaded and folded.

    That allocates tens of thousands of objects that reference counting frees; the
    collector, counting allocations, would otherwise run full collections over the
    whole process in the middle of the request (bench/README.md).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@functools.cache
def code_version() -> str:
    """A fingerprint of the code a replay depends on: the rules (the stream's own
    fingerprint, ``selectors.games.rules_version``), the viewer and the words it says."""
    digest = hashlib.blake2b(game_selectors.rules_version().encode(), digest_size=8)
    paths = [*Path(__file__).parent.glob("*.py"), *Path(words.__file__).parent.glob("*.py")]
    for path in sorted(paths):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _start_index(events: list[Event]) -> int:
    """Index of the event after which step 0 is drawn: the first deadline after the start."""
    started = next((i for i, e in enumerate(events) if e.type == "game_started"), None)
    pre_play = words.PRE_PLAY | {rules.get_ruleset(events[0].data["ruleset"]).round_start_event}
    if started is None:
        return len(events) - 1
    for i in range(started + 1, len(events)):
        if events[i].type == "deadline_set":
            return i
        if events[i].seat is not None and events[i].type not in pre_play:
            return i - 1
    return len(events) - 1


def _names(events: list[Event]) -> list[str]:
    """The players' names as the page shows them (in its language, like the cache entry)."""
    names = [_("Seat %(seat)s") % {"seat": s} for s in range(events[0].data["seats"])]
    for e in events:
        if e.type == "player_joined":
            names[e.data["seat"]] = player_name(e.data.get("username")) or names[e.data["seat"]]
    return names


def build_replay(game_id: str, version: int, events: list[Event]) -> Replay:
    """One fold over ``events``: checkpoints, steps, jumps and the chart's points.

    Step 0 is the table after the deal; every later event that ``describe.own_step``
    calls a step starts one, and the others extend the step before. The chart gets
    a point at every round's end (rulesets without ``round_ended``: whenever the
    totals change); for Skip-Bo a point per turn, the stock counts (its game totals).
    """
    ruleset = events[0].data["ruleset"]
    drawn = layout(ruleset)
    kind = drawn.cards
    by_turn = drawn.chart_axis == "turn"  # Skip-Bo: a point per turn, the stocks
    names = _names(events)
    start = _start_index(events)
    rs = rules.get_ruleset(ruleset)
    by_round = any(e.type == rs.round_end_event for e in events)
    intro = (words.describe_start(events[: start + 1], names, kind, ruleset),)

    state = rules.fold(events[:1])
    checkpoints = []
    steps: list[Step] = []
    jumps: list[tuple[int, str]] = []
    totals: list[tuple[int, ...]] = []
    round_no = 1
    for i, event in enumerate(events):
        if i:
            rules.apply(state, event)
        if i == 0 or (i + 1) % CHECKPOINT == 0:
            k = (i + 1) // CHECKPOINT
            # events as plain tuples: pickled in C, unlike the Event dataclass
            rows = [(e.type, e.data, e.seat) for e in events[k * CHECKPOINT : (k + 1) * CHECKPOINT]]
            checkpoints.append(pickle.dumps((state, rows), pickle.HIGHEST_PROTOCOL))
        if i < start:
            continue
        scores = tuple(state.scores)
        if i == start:  # step 0: the deal
            steps.append(Step(0, i, None, i + 1, None, 1, ("round",), intro=intro))
            jumps.append((0, _("Deal") if by_turn else _("Round %(n)s") % {"n": 1}))
            totals.append(scores if by_turn else (0,) * len(names))
            continue
        if by_turn:  # each turn's start, and the end (the winner's last card off the stock)
            point = event.type == "deadline_set" or (
                event.type in ("game_finished", "game_aborted") and scores != totals[-1]
            )
        elif by_round:
            point = event.type == rs.round_end_event
        else:
            point = scores != totals[-1]
        if point:
            totals.append(scores)
        if words.own_step(event, ruleset):
            number, tags = len(steps), []
            if event.type == rs.round_start_event:
                round_no += 1
                tags.append("round")
                jumps.append((number, _("Round %(n)s") % {"n": round_no}))
            if rs.call_event is not None and event.type == rs.call_event:
                tags.append("call")
                jumps.append(
                    (
                        number,
                        _("%(name)s called") % {"name": names[event.seat]}
                        if event.seat is not None
                        else _("Call"),
                    )
                )
            if event.type in ("game_finished", "game_aborted"):
                tags.append("end")
                end = _("Game over") if event.type == "game_finished" else _("Aborted")
                jumps.append((number, end))
            steps.append(Step(number, i, i, i, event.seat, round_no, tuple(tags)))
        steps[-1] = steps[-1]._replace(event_index=i, chart_x=len(totals) - 1)
    return Replay(
        game_id=game_id,
        version=version,
        ruleset=ruleset,
        kind=kind,
        names=names,
        steps=steps,
        checkpoints=checkpoints,
        totals_by_round=totals,
        chart_axis=drawn.chart_axis,
        jumps=jumps,
        result=state.result or {"winners": [], "losers": []},
    )


# --------------------------------------------------------------------------- one frame


def table_views(
    replay: Replay, step: Step, perspective: int | None
) -> tuple[JSON, JSON | None, list[int]]:
    """``(table, actor_view, game totals)`` at ``step``.

    ``table`` is seat ``perspective``'s view, or with ``None`` every card face
    up; ``actor_view`` (only for ``None``) is what the acting seat saw then, to
    mark the cards they did not know.
    """
    state = replay.state_at(step)
    if perspective is not None:
        return rules.view(state, perspective, memory="assisted") or {}, None, list(state.scores)
    table = rules.reveal(state)
    if table is None:
        raise LookupError(f"ruleset {replay.ruleset!r} cannot turn every card face up (reveal)")
    actor = step.actor
    if actor is None:
        actor = ((table.get("turn") or {}).get("seat")) if step.main is not None else None
    actor_view = (rules.view(state, actor, memory="assisted") or {}) if actor is not None else None
    return table, actor_view, list(state.scores)
