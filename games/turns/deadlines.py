"""Turn deadlines: the sweep that enforces them, and the fast path.

A deadline is data (RULES.md §8, docs/deadlines.md): the engine writes it into
a ``deadline_set`` event and the services project it onto ``Game.deadline`` /
``Game.turn_key`` (indexed). This module only *finds* overdue games and hands
each to ``services.bots.game_timeout(game_id=, turn_key=)``, an ordinary command to
the rules that carries the turn it means: when the game has moved on (a player
acted at the last moment, another sweep or a redelivered task got there
first) it stores nothing. So every path below may run twice, concurrently, or
after a crash, and each turn still times out exactly once.

* **The sweep** (``sweep``), run by Celery beat every ``PABLO_SWEEP_SECONDS``:
  in short transactions it selects a batch of overdue games with
  ``SELECT ... FOR UPDATE SKIP LOCKED`` against the database's clock and
  enforces each while holding the row lock -- but a game whose turn waits for a
  bot, which is enforced after that transaction, so that the bot decides
  without a lock (``services.bots``); a turn that waits for a bot of a heavy
  level (an ``expert``) is handed to the ``bots`` queue instead, where that bot
  plays as itself (games/lanes.py). Two sweeps at once take disjoint
  batches; a worker killed mid-batch loses its connection, its transaction
  rolls back and the next sweep takes the games again. It is the primary
  mechanism because it needs nothing but the database: no ETA message has to
  survive for days in a broker (Redis redelivers ETA tasks older than its
  visibility timeout, RabbitMQ kills consumers that hold them too long).
* **The fast path** (``schedule_fast_path`` / ``enforce``): a deadline closer
  than ``PABLO_FAST_PATH_SECONDS`` also gets a Celery task with that ETA,
  enqueued after the commit that set it; it only shortens the lag. Losing it
  costs nothing: the sweep is still there.

SQLite (the embedded default) has no ``SKIP LOCKED``: there the selection is a
plain one. SQLite lets one writer in at a time (``transaction_mode
IMMEDIATE`` in the settings), so concurrent sweeps simply take turns, and the
turn key still makes a duplicate store nothing.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models.functions import Now
from django.utils import timezone

from games import lanes
from games.models import Game
from games.outbox import publish
from games.services import bots as bot_services
from games.store import parse_deadline

__all__ = ["enforce", "on_append", "parse_deadline", "schedule_fast_path", "sweep"]

log = logging.getLogger(__name__)


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


def _due_batch(batch: int, skip: set[Any]) -> list[Game]:
    """Lock and return up to ``batch`` overdue games (full rows, as locked).

    Must run inside a transaction; the row locks last until it ends.
    """
    query = Game.objects.filter(
        status=Game.Status.ACTIVE, deadline__isnull=False, deadline__lte=Now()
    ).order_by("deadline")
    if skip:
        query = query.exclude(id__in=skip)
    if connection.features.has_select_for_update_skip_locked:
        query = query.select_for_update(skip_locked=True)
    return list(query[:batch])


def _pause() -> None:
    pause = float(_setting("PABLO_ENFORCE_PAUSE", 0) or 0)
    if pause:
        # Test hook (crash tests): widen the window in which the timeout's
        # events are written but not yet committed.
        time.sleep(pause)


def _enforce_one(game_id: Any, turn_key: str) -> int:
    """Enforce one game's deadline: its bots move (each in its own transaction, no lock
    held while they decide), then the rest times out under the row lock."""
    moved = bot_services.game_bots_at_deadline(game_id=game_id, turn_key=turn_key)
    with transaction.atomic():
        stored = bot_services.game_timeout_rest(game_id=game_id, turn_key=turn_key)
        _pause()
    return moved + stored


def _enforce_batch(due: list[Game]) -> tuple[dict[Any, int], list[tuple[Any, str]]]:
    """Enforce a locked batch at once; the games left for after its commit (their turn
    waits for a bot, or the batch failed: then every game, one by one)."""
    # The turns as locked: game_timeout_many updates the objects in ``due`` before
    # its last statement, so a failure there would leave them naming the new turns.
    turns = [(game.id, game.turn_key) for game in due]
    try:
        # A savepoint: should the batch fail, the games are enforced one by one.
        with transaction.atomic():
            stored, later = bot_services.game_timeout_many(games=due)
    except Exception:
        log.exception("batch of %s deadlines failed; enforcing them one by one", len(due))
        return {}, turns
    _pause()
    return stored, later


def sweep(*, batch: int | None = None, budget: float | None = None) -> int:
    """Enforce every overdue game; returns how many games timed out.

    Works in transactions of ``batch`` games (``PABLO_SWEEP_BATCH``): it locks
    them with SKIP LOCKED and hands them to ``services.bots.game_timeout_many``
    (one read per game not in this process's cache, one insert, one update for
    the batch). A game whose turn waits for a bot is enforced after that
    transaction, by ``_enforce_one``: the bot decides without the batch's locks
    (so may another sweep, which then stores nothing). A player whose game is in
    a batch waits at most for that batch. Stops after ``budget`` seconds
    (``PABLO_SWEEP_BUDGET``) even when games are still due: beat starts
    another sweep soon, possibly on another worker. A game whose enforcement
    fails or stores nothing is logged and left for the next sweep.
    """
    batch = batch or int(_setting("PABLO_SWEEP_BATCH", 50))
    budget = float(_setting("PABLO_SWEEP_BUDGET", 30.0) if budget is None else budget)
    started = time.monotonic()
    enforced = 0
    skip: set[Any] = set()  # games that failed or stored nothing in this run
    while True:
        with transaction.atomic():
            due = _due_batch(batch, skip)
            stored, later = _enforce_batch(due) if due else ({}, [])
        for game_id, turn_key in later:
            try:
                if _to_the_lane(game_id, turn_key):
                    continue
                count = _enforce_one(game_id, turn_key)
            except Exception:
                log.exception("deadline of game %s (turn %s) not enforced", game_id, turn_key)
                continue
            if count:
                stored[game_id] = count
        enforced += len(stored)
        skip.update(game.id for game in due if game.id not in stored)
        if len(due) < batch or time.monotonic() - started > budget:
            return enforced


def _to_the_lane(game_id: Any, turn_key: str) -> bool:
    """Whether the turn waits for a bot of a heavy level (an ``expert``, or an expert
    stand-in): then its enforcement is heavy work, handed to the ``bots`` queue
    (``lanes.forward_deadline``, once per turn) where that bot plays as itself."""
    if not lanes.heavy(bot_services.levels_at_deadline(game_id=game_id, turn_key=turn_key)):
        return False
    lanes.forward_deadline(game_id, turn_key)
    return True


def enforce(*, game_id: Any, turn_key: str, on_lane: bool = True) -> int:
    """The fast path: enforce ``turn_key`` of one game if it is due and still current.

    ``on_lane``: whether this runs where heavy work may (a heavy queue, or a test's
    own process); the interactive task passes False, and a turn that waits for a heavy
    bot is then handed to the ``bots`` queue (``_to_the_lane``).
    Returns the number of events stored (0 when stale, not yet due or handed on).
    """
    row = Game.objects.filter(id=game_id).values("status", "turn_key", "deadline").first()
    if row is None or row["status"] != Game.Status.ACTIVE or row["turn_key"] != turn_key:
        return 0
    deadline = row["deadline"]
    if deadline is None:
        return 0
    if deadline > timezone.now():
        # This worker's clock runs behind the one that wrote the deadline: try
        # again at the deadline (the sweep covers us if that never happens).
        schedule_fast_path(game_id=game_id, turn_key=turn_key, deadline=deadline, force=True)
        return 0
    if not on_lane and _to_the_lane(game_id, turn_key):
        return 0
    return _enforce_one(game_id, turn_key)


def schedule_fast_path(
    *, game_id: Any, turn_key: str, deadline: datetime, force: bool = False
) -> bool:
    """Enqueue the ETA task for a near deadline; never raises (the sweep is the safety net)."""
    window = float(_setting("PABLO_FAST_PATH_SECONDS", 300) or 0)
    now = timezone.now()
    if not force and (window <= 0 or deadline - now > timedelta(seconds=window)):
        return False
    try:
        publish(
            "games.enforce_deadline",
            (str(game_id), turn_key),
            eta=deadline,
            # A worker that was down past this point leaves it to the sweep.
            expires=deadline + timedelta(minutes=10),
        )
    except Exception:
        log.warning("fast path for game %s not enqueued; the sweep will enforce it", game_id)
        return False
    return True


def on_append(game_id: Any, events: Any) -> None:
    """After a committed append: the fast path for the deadline it set, if any (no query)."""
    turn = None
    for event in events:
        if event.type == "deadline_set":
            turn = event
        elif event.type in ("game_finished", "game_aborted"):
            return
    if turn is not None:
        deadline = parse_deadline(turn.data.get("deadline"))
        if deadline is not None:
            schedule_fast_path(game_id=game_id, turn_key=turn.data["key"], deadline=deadline)
