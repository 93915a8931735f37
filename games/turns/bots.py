"""Bots in real games: when they move (the one place that schedules them).

The pure policies are ``games.bots``; which seats a bot plays and which may act
now are selectors (``selectors.bots.bot_seats``, ``bots_due``); the move itself is
a service (``services.bots.game_bot_act``); this module enqueues the moves and
catches up on lost ones.

* **Seats.** ``POST /api/games/`` may carry ``"bots": [{"seat", "level"}]``
  (checked by the API's input serializer): ``services.games.game_create`` joins each
  bot at its seat right after the creation, inside the same transaction
  (``player_joined`` with ``"bot": level``); the last seat taken starts the
  game. A bot's user is ``"<level> bot <seat>"`` -- no person can register a
  name with spaces, so the name alone says it is a bot
  (``games.bots.bot_level``), and the seat makes it unique within the game.
* **Turns.** The ``bots`` follower of the log (``games.turns.followers``,
  docs/design.md "The log and its followers") reads every stored event; for
  each game with bots whose newest event it reads, it asks ``bots_due`` of that
  state: each bot seat with a legal action, and each absent player whose game
  has ``stand_in`` = a bot level and who must act, gets a task
  ``games.bot_act(game_id, seat, version)``, due ``PABLO_BOT_DELAY`` seconds
  after the event was stored when the bot's turn begins, and a third of that
  for the actions that finish a turn it already began (a discard after its
  draw, a power, the next card of a Skip-Bo turn: ``countdown``), so that a
  person sees each action without waiting a whole delay for each. The task
  (``services.bots.game_bot_act``) locks the game, and acts only if the game is
  still at ``version``: a duplicate, a redelivered or a stale task stores
  nothing. So a bot acts at least ``PABLO_BOT_DELAY`` after another player's
  move -- in particular it never throws sooner than that after a card another
  player showed -- its move is an ordinary event stored under the row lock and
  version check, and it never runs inside a person's request.
* **A killed worker.** The follower resumes from its stored position: events
  it had not committed as handled are handled again (a task enqueued twice
  stores nothing the second time). A task is acknowledged late and re-queued
  when the worker running it is lost (settings); one the broker itself loses
  after the follower moved on, or one held by a worker killed before it ran
  (unacknowledged for the broker's visibility timeout), is enqueued again by
  beat's ``sweep_stalled`` once the game has waited ``PABLO_BOT_SWEEP_GRACE``
  seconds at a bot's turn; the turn's deadline stays the last resort.
* **Stand-ins.** With option ``stand_in`` = a bot level, an absent player's
  turns are not played at once by the automatic timeout action but by that bot,
  through ``rules.act_in_place(..., stand_in=True)``: no ``player_returned``, the
  player stays absent until they act or come back themselves.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

from games import outbox, rules
from games.bots import LEVELS, bot_name
from games.bots.driver import bots_move, drive, has_off_turn_actions
from games.bots.play import chooser
from games.models import Game
from games.selectors import bots as bot_selectors
from games.selectors import games as game_selectors
from games.services import accounts as account_services
from games.services import bots as bot_services
from games.services import games as game_services

JSON = dict[str, Any]


def delay() -> float:
    return float(getattr(settings, "PABLO_BOT_DELAY", 1.0))


def has_bots(state: rules.State) -> bool:
    """Whether a bot may ever play in this game (cheap: no legal actions asked)."""
    return bool(bot_selectors.bot_seats(state)) or state.options.get("stand_in", "rules") != "rules"


def schedule(game_id: Any, version: int, seats: list[int], *, countdown: float) -> None:
    """Enqueue the seats' moves; raises when the broker refuses (the follower retries)."""
    for seat in seats:
        outbox.publish("games.bot_act", (str(game_id), seat, version), countdown=countdown)


def countdown(seat: int, last: Any = None) -> float:
    """How long after ``last`` (the game's newest event) the bot of ``seat`` acts.

    A third of the delay when ``last`` is that seat's own action in a turn that
    goes on (a new turn ends its append with ``deadline_set``, which has no
    seat); the whole delay otherwise: its turn begins, or another player moved.
    """
    if last is not None and last.seat == seat and last.type != "deadline_set":
        return delay() / 3
    return delay()


def on_append(game_id: Any, state: rules.State, *, last: Any = None, waited: float = 0.0) -> None:
    """After a stored append: enqueue the bots that may act in ``state``, each
    ``countdown`` after ``last`` (the newest event), of which ``waited`` seconds
    have passed already."""
    if state.status != "active" or not has_bots(state):
        return
    for seat in bot_selectors.bots_due(state):
        due = max(0.0, countdown(seat, last) - waited)
        schedule(game_id, state.version, [seat], countdown=due)


def sweep_stalled(*, now: Any = None) -> int:
    """Enqueue again the bot moves of games that stalled at a bot's turn; how many.

    A ``bot_act`` task taken by a worker that was then killed stays unacknowledged in
    the broker for its visibility timeout (an hour on Redis) while the follower has
    moved past the event that enqueued it. Beat runs this every
    ``PABLO_BOT_SWEEP_SECONDS``: an active game with bots, last changed between
    ``PABLO_BOT_SWEEP_WINDOW`` and ``PABLO_BOT_SWEEP_GRACE`` seconds ago, whose bots
    may act now gets their tasks at once. A bot that was merely late stores nothing
    the second time (the task carries the version).

    A game's version is sent again at most once per grace period (a key in the
    cache): on a loaded worker the task sent at the last sweep may still wait in the
    queue, and sending it again at every sweep -- each copy a task that stores
    nothing -- would only lengthen that queue (the bots of every game slower still)."""
    now = now or timezone.now()
    grace = float(getattr(settings, "PABLO_BOT_SWEEP_GRACE", 30.0))
    window = float(getattr(settings, "PABLO_BOT_SWEEP_WINDOW", 900.0))
    stalled = Game.objects.filter(
        status=Game.Status.ACTIVE,
        updated_at__lte=now - timedelta(seconds=grace),
        updated_at__gte=now - timedelta(seconds=max(window, grace)),
    ).values_list("id", flat=True)
    sent = 0
    for game in games_with_bots(list(stalled[:500])):
        state = game_selectors.game_state(game=game)
        seats = bot_selectors.bots_due(state, waited_only=True)  # the game waits for them
        if seats and state.version == game.version and _first_sweep(game.id, state.version, grace):
            schedule(game.id, state.version, seats, countdown=0)
            sent += len(seats)
    return sent


def _first_sweep(game_id: Any, version: int, grace: float) -> bool:
    """Whether no sweep sent this version's moves in the last ``grace`` seconds (True
    when the cache cannot say: a duplicate stores nothing)."""
    try:
        return bool(cache.add(f"bots:swept:{game_id}:{version}", 1, timeout=max(grace, 1.0)))
    except Exception:
        return True


def games_with_bots(ids: list[Any]) -> list[Game]:
    """The active games among ``ids`` where a bot may play: a bot's seat, or a stand-in."""
    names = [bot_name(level, seat) for level in LEVELS for seat in range(1, 13)]
    active = Game.objects.filter(id__in=ids, status=Game.Status.ACTIVE)
    query = active.filter(
        Q(seat_set__user__username__in=names) | Q(options__stand_in__in=list(LEVELS))
    )
    return list(query.distinct())


# --------------------------------------------------------------------------- whole games


def play_stored_game(
    ruleset: str, levels: list[str], options: JSON, *, rng: random.Random, max_actions: int = 50_000
) -> Game:
    """A game between bots played to its end through the services, in this process.

    Seat 0 is the user ``simulator`` (its moves chosen by ``levels[0]``); the
    other seats are bots added at creation. Every move is an ordinary event
    (``manage.py simulate --store``). The loop is the one whole-game driver's
    (``games.bots.driver``), in the service's order; a bot seat's move goes
    through ``services.bots.game_bot_act`` like a worker's.
    """
    person = account_services.user_without_login(username="simulator")
    game = game_services.game_create(
        user=person,
        ruleset=ruleset,
        seats=len(levels),
        options=dict(options),
        bots=[{"seat": s, "level": lv} for s, lv in enumerate(levels) if s],
    )
    choosers = [chooser(level, ruleset) for level in levels]
    off_turn = has_off_turn_actions(rules.get_ruleset(ruleset))
    current = [game_selectors.game_state(game=game)]

    def act(seat: int, body: JSON) -> None:
        state = current[0]
        if seat == 0:
            game_services.game_act(game_id=game.id, user=person, command=body)
        elif not bot_services.game_bot_act(
            game_id=game.id, seat=seat, version=state.version, move=body
        ):
            raise RuntimeError(f"the bot of seat {seat} in game {game.id} did not move")
        game.refresh_from_db()
        current[0] = game_selectors.game_state(game=game)

    drive(
        finished=lambda: current[0].status != "active",
        next_move=lambda: bots_move(current[0], choosers, rng, off_turn=off_turn),
        act=act,
        max_actions=max_actions,
    )
    game.refresh_from_db()
    return game
