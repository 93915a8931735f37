"""Bots in real games: when they move (the one place that schedules them).

The pure policies are ``games.bots``; which seats a bot plays and which may act
now are selectors (``selectors.bot_seats``, ``bots_due``); the move itself is
a service (``services.game_bot_act``); this module enqueues the moves and
catches up on lost ones.

* **Seats.** ``POST /api/games/`` may carry ``"bots": [{"seat", "level"}]``
  (checked by the API's input serializer): ``services.game_create`` joins each
  bot at its seat right after the creation, inside the same transaction
  (``player_joined`` with ``"bot": level``); the last seat taken starts the
  game. A bot's user is ``"<level> bot <seat>"`` -- no person can register a
  name with spaces, so the name alone says it is a bot
  (``games.bots.bot_level``), and the seat makes it unique within the game.
* **Turns.** After every committed append (``events_appended``, which carries
  the new state: no query) ``games.turns.receivers`` asks ``bots_due`` of that
  state: each bot seat with a legal action, and each absent player whose game
  has ``stand_in`` = a bot level and who must act, gets a task
  ``games.bot_act(game_id, seat, version)`` with a countdown of
  ``PABLO_BOT_DELAY`` seconds when its turn begins, and of a third of that
  for the actions that finish a turn it already began (a discard after its
  draw, a power, the next card of a Skip-Bo turn: ``countdown``), so that a
  person sees each action without waiting a whole delay for each. The task
  (``services.game_bot_act``) locks the game, and acts only if the game is
  still at ``version``: a duplicate, a redelivered or a stale task stores
  nothing. So a bot acts at least ``PABLO_BOT_DELAY`` after another player's
  move -- in particular it never throws sooner than that after a card another
  player showed -- its move is an ordinary event stored under the row lock and
  version check, and it never runs inside a person's request (the request only
  enqueues, after its commit).
* **A killed worker.** Tasks are acknowledged late and re-queued when a
  worker is lost (settings); and beat runs ``games.bots_catch_up`` every
  ``PABLO_SWEEP_SECONDS``: every active game that waits for a bot (or a
  stand-in) and has not moved for ``3 x PABLO_BOT_DELAY`` (at least 5 s) gets
  its tasks again. A task that finds the game moved on stores nothing, so a
  second one costs one read. The turn deadline stays the last resort.
* **Stand-ins.** With option ``stand_in`` = a bot level, an absent player's
  turns are not played at once by the automatic timeout action but by that bot,
  through ``rules.act_in_place(..., stand_in=True)``: no ``player_returned``, the
  player stays absent until they act or come back themselves.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games import outbox, rules, selectors, services
from games.bots import LEVELS, bot_name
from games.bots.driver import bots_move, drive, has_off_turn_actions
from games.bots.play import chooser
from games.models import Game

log = logging.getLogger(__name__)

JSON = dict[str, Any]


def delay() -> float:
    return float(getattr(settings, "PABLO_BOT_DELAY", 1.0))


def has_bots(state: rules.State) -> bool:
    """Whether a bot may ever play in this game (cheap: no legal actions asked)."""
    return bool(selectors.bot_seats(state)) or state.options.get("stand_in", "rules") != "rules"


def countdown(seat: int, events: Sequence[Any]) -> float:
    """How long the bot of ``seat`` waits before acting after ``events`` were stored.

    A third of the delay when ``events`` are that seat's own action within a turn
    that goes on (no new deadline: the same turn); the whole delay otherwise.
    """
    actors = {e.seat for e in events if e.seat is not None}
    new_turn = any(e.type == "deadline_set" for e in events)
    if events and actors == {seat} and not new_turn:
        return delay() / 3
    return delay()


def schedule(game_id: Any, version: int, seats: list[int], events: Sequence[Any] = ()) -> None:
    for seat in seats:
        try:
            outbox.publish(
                "games.bot_act", (str(game_id), seat, version), countdown=countdown(seat, events)
            )
        except Exception:
            log.warning("bot task for game %s seat %s not enqueued; catch-up will", game_id, seat)


def on_append(game_id: Any, state: rules.State, events: Sequence[Any] = ()) -> None:
    """After a committed append of ``events``: enqueue the bots that may act in ``state``."""
    if state.status != "active" or not has_bots(state):
        return
    seats = selectors.bots_due(state)
    if seats:
        schedule(game_id, state.version, seats, events)


def catch_up(*, limit: int = 200) -> int:
    """Re-enqueue the bots that active games wait for, if nothing moved for a while."""
    quiet = timezone.now() - timedelta(seconds=max(5.0, 3 * delay()))
    names = [bot_name(level, seat) for level in LEVELS for seat in range(1, 13)]
    with_bots = Game.objects.filter(
        status=Game.Status.ACTIVE, updated_at__lte=quiet, seat_set__user__username__in=names
    )
    with_stand_ins = Game.objects.filter(
        status=Game.Status.ACTIVE, updated_at__lte=quiet, options__stand_in__in=list(LEVELS)
    )
    ids = list(dict.fromkeys([*with_bots.values_list("id", flat=True)[:limit]]))
    ids += [g for g in with_stand_ins.values_list("id", flat=True)[:limit] if g not in ids]
    enqueued = 0
    for game_id in ids:
        game = Game.objects.get(pk=game_id)
        state = selectors.game_state(game=game)
        seats = selectors.bots_due(state, waited_only=True)
        if seats:
            schedule(game_id, state.version, seats)
            enqueued += len(seats)
    return enqueued


# --------------------------------------------------------------------------- whole games


def play_stored_game(
    ruleset: str, levels: list[str], options: JSON, *, rng: random.Random, max_actions: int = 50_000
) -> Game:
    """A game between bots played to its end through the services, in this process.

    Seat 0 is the user ``simulator`` (its moves chosen by ``levels[0]``); the
    other seats are bots added at creation. Every move is an ordinary event
    (``manage.py simulate --store``). The loop is the one whole-game driver's
    (``games.bots.driver``), in the service's order; a bot seat's move goes
    through ``services.game_bot_act`` like a worker's.
    """
    person = services.user_without_login(username="simulator")
    game = services.game_create(
        user=person,
        ruleset=ruleset,
        seats=len(levels),
        options=dict(options),
        bots=[{"seat": s, "level": lv} for s, lv in enumerate(levels) if s],
    )
    choosers = [chooser(level, ruleset) for level in levels]
    off_turn = has_off_turn_actions(rules.get_ruleset(ruleset))
    current = [selectors.game_state(game=game)]

    def act(seat: int, body: JSON) -> None:
        state = current[0]
        if seat == 0:
            services.game_act(game_id=game.id, user=person, command=body)
        elif not services.game_bot_act(
            game_id=game.id, seat=seat, version=state.version, move=body
        ):
            raise RuntimeError(f"the bot of seat {seat} in game {game.id} did not move")
        game.refresh_from_db()
        current[0] = selectors.game_state(game=game)

    drive(
        finished=lambda: current[0].status != "active",
        next_move=lambda: bots_move(current[0], choosers, rng, off_turn=off_turn),
        act=act,
        max_actions=max_actions,
    )
    game.refresh_from_db()
    return game
