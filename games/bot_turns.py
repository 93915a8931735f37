"""Bots in real games: seats at creation, turns through the Celery worker, stand-ins.

(The pure bots are ``games.bots``; this module is their only contact with the
database and Celery, kept apart from ``services`` so that both can move.)

* **Seats.** ``POST /api/games/`` may carry ``"bots": [{"seat", "level"}]``:
  ``services._add_bots`` joins each bot at its seat right after the creation, inside the
  same transaction (``player_joined`` with ``"bot": level``); the last seat
  taken starts the game. A bot's user is ``"<level> bot <seat>"`` -- no person
  can register a name with spaces, so the name alone says it is a bot
  (``games.bots.bot_level``), and the seat makes it unique within the game.
* **Turns.** After every committed append (``events_appended``) ``schedule``
  looks at the new state: each bot seat with a legal action, and each absent
  player whose game has ``stand_in`` = a bot level and who must act, gets a
  task ``games.bot_act(game_id, seat, version)`` with a countdown of
  ``PABLO_BOT_DELAY`` seconds. The task (``act``) locks the game, and acts
  only if the game is still at ``version``: a duplicate, a redelivered or a
  stale task stores nothing. So a bot acts at least ``PABLO_BOT_DELAY`` after
  the state it reacts to -- in particular it never throws sooner than that
  after the card it matches appeared -- its move is an ordinary event stored
  under the row lock and version check, and it never runs inside a person's
  request (the request only enqueues, after its commit).
* **A killed worker.** Tasks are acknowledged late and re-queued when a
  worker is lost (settings); and beat runs ``games.bots_catch_up`` every
  ``PABLO_SWEEP_SECONDS``: every active game that waits for a bot (or a
  stand-in) and has not moved for ``3 x PABLO_BOT_DELAY`` (at least 5 s) gets
  its tasks again. A task that finds the game moved on stores nothing, so a
  second one costs one read. The turn deadline stays the last resort.
* **Stand-ins.** With option ``stand_in`` = a bot level, an absent player's
  turns are not played at once by the automatic timeout action but by that bot,
  through ``rules.act(..., stand_in=True)``: no ``player_returned``, the
  player stays absent until they act or come back themselves.
"""

from __future__ import annotations

import logging
import random
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from games import queue, rules, selectors, services, streams
from games.bots import LEVELS, bot_level, bot_name, decide, waits_for
from games.bots.play import bot_view
from games.models import FairDraw, Game
from games.signals import events_appended

log = logging.getLogger(__name__)

JSON = dict[str, Any]


def delay() -> float:
    return float(getattr(settings, "PABLO_BOT_DELAY", 1.0))


# --------------------------------------------------------------------------- seats


# --------------------------------------------------------------------------- who acts


def bot_seats(state: rules.State) -> dict[int, tuple[str, bool]]:
    """Seats a bot plays now: {seat: (level, as a stand-in)}."""
    out: dict[int, tuple[str, bool]] = {}
    stand_in = state.options.get("stand_in", "rules")
    for seat, name in enumerate(state.players):
        level = bot_level(name)
        if level is not None:
            out[seat] = (level, False)
        elif stand_in != "rules" and state.absent[seat]:
            out[seat] = (stand_in, True)
    return out


def due(state: rules.State, *, waited_only: bool = False) -> list[int]:
    """The bot seats that may act now (``waited_only``: only those the game waits for)."""
    if state.status != "active":
        return []
    rulebook = rules.get_ruleset(state.ruleset)
    out = []
    for seat, (_level, stand_in) in bot_seats(state).items():
        legal = rulebook.legal_actions(state, seat)
        if not legal:
            continue
        if (waited_only or stand_in) and not waits_for(legal):
            continue  # a stand-in only plays the absent player's turns
        out.append(seat)
    return out


def schedule(game_id: Any, version: int, seats: list[int]) -> None:
    for seat in seats:
        try:
            queue.enqueue("games.bot_act", (str(game_id), seat, version), countdown=delay())
        except Exception:
            log.warning("bot task for game %s seat %s not enqueued; catch-up will", game_id, seat)


@receiver(events_appended, dispatch_uid="games.bot_turns.on_events_appended")
def on_events_appended(sender: Any, game_id: Any, version: int, events: Any, **kwargs: Any) -> None:
    """After every committed append: enqueue the bots that may act at ``version``."""
    try:
        state = selectors.game_state(game=Game.objects.get(pk=game_id))
        if state.version != version:
            return  # a later append has its own turn
        seats = due(state)
        if seats:
            schedule(game_id, version, seats)
    except Exception:
        log.exception("bots of game %s v%s not scheduled", game_id, version)


# --------------------------------------------------------------------------- acting


@transaction.atomic
def act(*, game_id: Any, seat: int, version: int, rng: random.Random | None = None) -> int:
    """The bot of ``seat`` acts if the game is still at ``version``; events stored (0: none)."""
    try:
        stream = streams.lock(game_id)
    except Exception:
        return 0
    game, state = stream.game, stream.state
    if game.status != Game.Status.ACTIVE or stream.version != version:
        return 0
    playing = bot_seats(state).get(seat)
    if playing is None:
        return 0
    level, stand_in = playing
    if stand_in and seat not in due(state):
        return 0
    body = decide(level, state.ruleset, bot_view(state, seat), seat, rng or random.Random())
    if body is None:
        return 0
    try:
        events = rules.act(state, seat, body, services._context(game), stand_in=stand_in)
    except rules.RulesError as exc:
        log.warning("bot of game %s seat %s refused: %s (%s)", game_id, seat, exc.detail, body)
        return 0
    draws = services._fair_rows(game)
    streams.append(stream, events)
    if draws:  # fair deals: the draws are stored with the events, under the lock
        FairDraw.objects.bulk_create(draws)
    return len(events)


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
        seats = due(state, waited_only=True)
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
    (``manage.py simulate --store``).
    """
    users = get_user_model()
    person, _ = users.objects.get_or_create(username="simulator")
    game = services.game_create(
        user=person,
        ruleset=ruleset,
        seats=len(levels),
        options=dict(options),
        bots=[{"seat": s, "level": lv} for s, lv in enumerate(levels) if s],
    )
    for _ in range(max_actions):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = selectors.game_state(game=game)
        rulebook = rules.get_ruleset(ruleset)
        actors = rulebook.actors(state)
        order = [s for s in range(state.seats) if s not in actors] + list(actors)
        for seat in order:
            waited = seat in actors
            if not waited and not rulebook.legal_actions(state, seat):
                continue
            if seat == 0:
                body = decide(levels[0], ruleset, bot_view(state, 0), 0, rng)
                if body is None:
                    continue
                services.game_act(game_id=game.id, user=person, command=body)
                break
            if act(game_id=game.id, seat=seat, version=state.version, rng=rng):
                break
        else:
            raise RuntimeError(f"nobody acted in game {game.id} at v{state.version}")
    game.refresh_from_db()
    return game
