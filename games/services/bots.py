"""A bot's move and a passed deadline: the bots' and the timeouts' writes.

**One recipe for a bot's move** (``_bot_turn``), whoever asks: a bot's task
(``game_bot_act``), a stand-in's (the same task, for an absent player's seat
under ``stand_in``), a bot the game still waits for at its deadline
(``game_bots_at_deadline``), a whole-game driver (``move``). The bot decides
from a snapshot of its seat's view -- the game's state as this process can read
it, without a lock -- at its level with that level's budget (the ``expert``'s
``PABLO_EXPERT_ITERATIONS``); then, in a short transaction, the row is locked,
the game must still be at the snapshot's version, and the move is applied and
appended there. When another writer moved the game meanwhile the decision is
never applied: the recipe takes a new snapshot and decides again (a task that
was for one version then finds it gone and stores nothing; a deadline decides
again while the same turn lasts). So no writer of a game waits for a bot's
decision (an expert's takes up to ~200 ms), only for its append.

**A passed deadline** (``game_timeout``): first every bot the turn waits for
moves by that recipe, then whoever still must act times out (RULES.md §8):
a bot never times out. The sweep's batches (``game_timeout_many``) time out
the games whose turn waits for no bot under the batch's row locks, from each
game's snapshot (``store.append_many``), and leave the others to
``game_timeout`` once those locks are released.

The recipe is the same for all of them, level and budget included: an ``expert``
at its deadline decides as an expert with ``PABLO_EXPERT_ITERATIONS``. *Where*
that runs is the tasks' business: a deadline that waits for a heavy level is
enforced on the heavy lane (``games.turns.deadlines``, games/lanes.py).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import transaction

from games import errors, rules, store
from games.bots import decide
from games.bots.play import bot_view
from games.models import Game
from games.selectors import bots as bot_selectors

JSON = dict[str, Any]

log = logging.getLogger(__name__)

#: At most this many bot actions per passed deadline (a turn is a few: draw, discard, power).
BOT_STEPS_AT_DEADLINE = 20
#: A bot decides again at most this many times when other writers keep moving its game
#: between its snapshot and its append.
BOT_ATTEMPTS = 5


class _Moved(Exception):
    """The game moved on between the bot's snapshot and its append: nothing was stored."""


def game_bot_act(
    *,
    game_id: Any,
    seat: int,
    version: int,
    rng: random.Random | None = None,
    move: JSON | None = None,
) -> int:
    """The bot of ``seat`` acts if the game is still at ``version``; events stored (0: none).

    A bot's move is an ordinary action under the row lock and version check: a
    duplicate, redelivered or stale task stores nothing (docs/bots.md).
    ``move``: the body the bot's policy already chose (a whole-game driver
    choosing for every seat, ``games.turns.bots.play_stored_game``) instead of
    deciding here.
    """
    return _bot_turn(game_id, seat, rng or random.Random(), version=version, move=move)


def game_bots_at_deadline(*, game_id: Any, turn_key: str) -> int:
    """Every bot (or stand-in) turn ``turn_key`` waits for moves, as its task would have,
    until the turn is over or none of them moves; the number of events stored.

    A bot's move normally comes from its task ``PABLO_BOT_DELAY`` after its turn
    began (games/turns/bots.py); should that task be late or lost, the deadline
    makes the bot move here, with no ``turn_timed_out`` (issue 19). Each move is
    its own short transaction: never call this holding the game's row lock.
    """
    rng = random.Random()
    stored = 0
    for _ in range(BOT_STEPS_AT_DEADLINE):  # a turn may take several actions
        snapshot = _snapshot(game_id)
        if snapshot is None or not _at_turn(snapshot, turn_key):
            break  # the turn is over; the next one has a deadline of its own
        moved = sum(
            _bot_turn(game_id, seat, rng, turn_key=turn_key)
            for seat in bot_selectors.bots_due(snapshot, waited_only=True)
        )
        if not moved:
            break
        stored += moved
    return stored


def levels_at_deadline(*, game_id: Any, turn_key: str) -> set[str]:
    """The levels of the bots (and stand-ins) turn ``turn_key`` still waits for (none when
    the turn is over): where its deadline is enforced depends on them (games/lanes.py)."""
    snapshot = _snapshot(game_id)
    if snapshot is None or not _at_turn(snapshot, turn_key):
        return set()
    seats = bot_selectors.bot_seats(snapshot)
    return {seats[seat][0] for seat in bot_selectors.bots_due(snapshot, waited_only=True)}


def game_timeout(*, game_id: Any, turn_key: str) -> int:
    """Enforce the deadline of turn ``turn_key``; the number of events stored (0 when stale).

    The bots the turn waits for move first (``game_bots_at_deadline``, each in its
    own transaction), then the rest times out (``game_timeout_rest``). Not inside a
    transaction that holds the game's row lock: the bots decide without it.
    """
    moved = game_bots_at_deadline(game_id=game_id, turn_key=turn_key)
    return moved + game_timeout_rest(game_id=game_id, turn_key=turn_key)


@transaction.atomic
def game_timeout_rest(*, game_id: Any, turn_key: str) -> int:
    """The rules' timeout of turn ``turn_key`` for whoever still must act (the bots have
    moved: ``game_bots_at_deadline``); the number of events stored (0 when stale).

    Safe to call inside an outer transaction that already locked the row.
    """
    try:
        stream = store.lock(game_id)
    except errors.NotFound:
        return 0
    if stream.state.status != "active" or stream.state.turn_key != turn_key:
        return 0
    # The stream's state is private: the rules evolve it in place, applied once.
    events = rules.timeout_in_place(stream.state, turn_key, stream.context())
    if events:
        store.append(stream, events, after=stream.state)
    return len(events)


@transaction.atomic
def game_timeout_many(*, games: Sequence[Game]) -> tuple[dict[Any, int], list[tuple[Any, str]]]:
    """``game_timeout_rest`` for a batch of locked games, each for its own ``turn_key``
    (the deadline sweep), from each game's snapshot.

    Returns the number of events stored per game id (stale games left out), and
    the ``(game id, turn key)`` of the games whose turn waits for a bot: they are
    not timed out here, under the batch's locks -- the caller hands them to
    ``game_timeout`` once it has committed.
    """
    live = [g for g in games if g.status == Game.Status.ACTIVE and g.turn_key]
    waiting: list[tuple[Any, str]] = []

    def timeout(stream: store.Stream) -> list[rules.Event]:
        turn_key = stream.game.turn_key
        if bot_selectors.bots_due(stream.state, waited_only=True):
            waiting.append((stream.game.id, turn_key))
            return []
        return rules.timeout_in_place(stream.state, turn_key, stream.context())

    return store.append_many(live, timeout), waiting


# --------------------------------------------------------------------------- the recipe


def _snapshot(game_id: Any) -> rules.State | None:
    """The game's current state as this process reads it, without a lock (None: no game)."""
    try:
        game = Game.objects.filter(pk=store.game_key(game_id)).first()
    except errors.NotFound:
        return None
    return None if game is None else store.state(game)


def _at_turn(state: rules.State, turn_key: str) -> bool:
    return state.status == "active" and state.turn_key == turn_key


def _bot_turn(
    game_id: Any,
    seat: int,
    rng: random.Random,
    *,
    version: int | None = None,
    turn_key: str | None = None,
    move: JSON | None = None,
) -> int:
    """The one recipe of a bot's move (module docstring): decide on a snapshot without
    the lock, append at the snapshot's version, decide again on a conflict. ``version``:
    only at this version (a task's); ``turn_key``: only in this turn, and only if the
    turn waits for the seat (a deadline's). The number of events stored (0: none)."""
    for _ in range(BOT_ATTEMPTS):
        state = _snapshot(game_id)
        if state is None or state.status != "active":
            return 0
        if (version is not None and state.version != version) or (
            turn_key is not None and state.turn_key != turn_key
        ):
            return 0
        playing = bot_selectors.bot_seats(state).get(seat)
        if playing is None:
            return 0
        level, stand_in = playing
        if (stand_in or turn_key is not None) and seat not in bot_selectors.bots_due(
            state, waited_only=turn_key is not None
        ):
            return 0
        body = move
        if body is None:
            view = bot_view(state, seat)
            iterations = settings.PABLO_EXPERT_ITERATIONS
            body = decide(level, state.ruleset, view, seat, rng, iterations=iterations)
        if body is None:
            return 0
        try:
            return _bot_append(game_id, seat, body, stand_in=stand_in, at=state.version)
        except _Moved:
            if move is not None:
                return 0  # a move chosen elsewhere is not decided again here
    log.warning("bot of game %s seat %s: the game kept moving; it did not act", game_id, seat)
    return 0


@transaction.atomic
def _bot_append(game_id: Any, seat: int, body: JSON, *, stand_in: bool, at: int) -> int:
    """Apply and append the bot's ``body`` if the game is still at version ``at``
    (``_Moved`` otherwise: nothing stored)."""
    try:
        stream = store.lock(game_id)
    except errors.NotFound:
        return 0
    if stream.version != at:
        raise _Moved
    try:
        # In place: the stream's state is private, so the rules' new state is kept as it
        # is and the store does not apply the events again.
        events = rules.act_in_place(stream.state, seat, body, stream.context(), stand_in=stand_in)
    except rules.RulesError as exc:
        # (the action's type and the refusal's code only: the body and the rules' sentence
        # may name a card of the bot's hand, and logs are read by more than the players)
        kind = body.get("type") if isinstance(body, dict) else None
        log.warning("bot of game %s seat %s refused: %s (%s)", game_id, seat, exc.code, kind)
        return 0
    store.append(stream, events, after=stream.state)
    return len(events)
