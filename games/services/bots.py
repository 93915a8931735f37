"""A bot's move and a passed deadline: the bots' and the timeouts' writes."""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import transaction

from games import errors, lanes, rules, store
from games.bots import bot_level, decide
from games.bots.play import bot_view
from games.models import Game
from games.selectors import bots as bot_selectors

JSON = dict[str, Any]

log = logging.getLogger(__name__)


@transaction.atomic
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
    try:
        stream = store.lock(game_id)
    except errors.NotFound:
        return 0
    state = stream.state
    if state.status != "active" or stream.version != version:
        return 0
    playing = bot_selectors.bot_seats(state).get(seat)
    if playing is None:
        return 0
    level, stand_in = playing
    if stand_in and seat not in bot_selectors.bots_due(state):
        return 0
    if move is not None:
        body: JSON | None = move
    else:
        body = decide(
            level,
            state.ruleset,
            bot_view(state, seat),
            seat,
            rng or random.Random(),
            iterations=settings.PABLO_EXPERT_ITERATIONS,
        )
    if body is None:
        return 0
    try:
        # In place: the stream's state is private, so the rules' new state is kept as it
        # is and the store does not apply the events again.
        events = rules.act_in_place(state, seat, body, stream.context(), stand_in=stand_in)
    except rules.RulesError as exc:
        log.warning("bot of game %s seat %s refused: %s (%s)", game_id, seat, exc.detail, body)
        return 0
    store.append(stream, events, after=state)
    return len(events)


@transaction.atomic
def game_timeout(*, game_id: Any, turn_key: str) -> int:
    """Enforce the deadline of turn ``turn_key``; the number of events stored (0 when stale).

    Safe to call inside an outer transaction that already locked the row.
    """
    try:
        stream = store.lock(game_id)
    except errors.NotFound:
        return 0
    if stream.state.status != "active" or stream.state.turn_key != turn_key:
        return 0
    events = _deadline_events(stream)
    if events:
        store.append(stream, events)
    return len(events)


@transaction.atomic
def game_timeout_many(*, games: Sequence[Game]) -> dict[Any, int]:
    """``game_timeout`` for a batch of locked games, each for its own ``turn_key`` (the
    deadline sweep): the number of events stored per game id (stale games left out)."""
    live = [g for g in games if g.status == Game.Status.ACTIVE and g.turn_key]
    return store.append_many(live, _deadline_events)


#: At most this many bot actions per passed deadline (a turn is a few: draw, discard, power).
BOT_STEPS_AT_DEADLINE = 20


def _deadline_events(stream: store.Stream) -> list[rules.Event]:
    """What a passed deadline stores: first every bot the game waits for makes its own
    move, then the others time out (RULES.md §8).

    A bot never times out and is never marked absent (issue 19): its move normally
    comes from its Celery task ``PABLO_BOT_DELAY`` after its turn began
    (games/bot_turns.py); should that task be late or lost, the deadline makes the
    bot decide here, as the task would have, with no ``turn_timed_out``.
    """
    turn_key = stream.game.turn_key
    ctx = stream.context()  # one context: a fair game's draws are collected on it
    work = stream.state.copy()
    events: list[rules.Event] = []
    rulebook = rules.get_ruleset(work.ruleset)
    for _ in range(BOT_STEPS_AT_DEADLINE):  # a turn may take several actions
        if work.status != "active" or work.turn_key != turn_key:
            break  # the turn is over; the next one has a deadline of its own
        bots = [s for s in rulebook.actors(work) if bot_level(work.players[s]) is not None]
        moved = False
        for seat in bots:
            level = bot_level(work.players[seat])
            if level is None or seat not in rulebook.actors(work):
                continue
            # (inline in the deadline's task, interactive work: a heavy level's late
            # move is made by the cheap policy -- games/lanes.py)
            level = lanes.at_deadline(level)
            body = decide(level, work.ruleset, bot_view(work, seat), seat, random.Random())
            if body is None:
                continue
            try:
                new = rules.act(work, seat, body, ctx)
            except rules.RulesError:
                continue  # the timeout below plays the turn instead
            for event in new:
                rules.apply(work, event)
            events += new
            moved = True
        if not moved:
            break
    return events + rules.timeout(work, turn_key, ctx)
