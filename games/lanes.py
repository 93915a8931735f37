"""Interactive work first: heavy work runs in lanes of its own (docs/operations.md "Workers").

Interactive work -- bot moves of the cheap levels, deadlines, notifications, the
outbox -- must keep its timing whatever else is queued. Heavy work -- analyses
(a minute or two of CPU each) and the ``expert`` bot's moves (rollouts; a few
accounts can run many such games) -- goes to queues of its own,
``HEAVY_QUEUES``, which a worker's pool never consumes unless told to:

* ``analysis``: ``games.analyse_game`` (``CELERY_TASK_ROUTES``);
* ``bots``: ``games.bot_act`` of an ``expert`` seat (or an ``expert`` stand-in).
  Bot moves are published to the interactive queue like every other (whoever
  publishes them need not know the level); a move that turns out to be an
  expert's is forwarded to ``bots`` by the task itself (``forward``: one small
  query), at once -- its delay has already passed. Should it still be late at
  its turn's deadline, that deadline is heavy work too: the sweep and the fast
  path hand it to ``bots`` (``games.enforce_deadline`` published there, once per
  turn: ``forward_deadline``), where the expert plays its turn at its own level
  and budget -- the one recipe of games/services/bots.py -- before whoever else
  the turn waits for times out. (It was first played inline by the deadline's
  task with the cheap policy: a second recipe, and not the level the game was
  created with.)

Two ways to run them:

* **A plain** ``celery -A pablo worker`` (``make run``, a small deployment)
  consumes the interactive queues with its pool and runs each heavy queue in
  ``PABLO_HEAVY_LANES`` lanes (default 1): processes of its own, spawned by the
  worker (``pablo.lanes.LaneStep``), outside the pool. Heavy work never takes a pool slot,
  so however much of it is queued the pool's slots stay free for interactive
  work, and heavy work still finishes, one task at a time per lane, in the
  order it was queued. A lane runs ``PABLO_HEAVY_NICE`` (10) steps nicer than
  the worker: on a busy machine the interactive processes get the CPU first.
  (Lanes were threads of the worker first: the CPU-bound lanes then held the
  interpreter's lock against the pool's threads, and a ``basic`` bot's move,
  dozens of short database round trips each waiting to get the lock back,
  came up to 5 s late.)
* **Dedicated workers** (the production split): ``celery -A pablo worker -Q
  bots,analysis`` takes the heavy queues with its whole pool, and the
  interactive workers run with ``PABLO_HEAVY_LANES=0``. A worker never runs
  lanes for a queue its pool consumes.

The lanes themselves (a worker step, the lane processes) are ``pablo.lanes``.

How much heavy work one account or one address can have queued is bounded
where it is asked for (``games.api.shares``: games with bots and
unfinished analyses, per account and per address), so that in these FIFO
queues nobody has more than their share ahead of anyone else.
"""

from __future__ import annotations

import contextvars
from typing import Any

from celery import current_app
from django.apps import apps
from django.conf import settings
from django.core.cache import cache

from games.bots import bot_level

BOTS = "bots"
ANALYSIS = "analysis"
HEAVY_QUEUES = (BOTS, ANALYSIS)
#: bot levels whose moves are heavy work
HEAVY_LEVELS = frozenset({"expert"})

#: the heavy queue whose lane runs the current task (None: the pool)
current_lane: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "pablo_lane", default=None
)


def lanes_setting() -> int:
    return max(0, int(getattr(settings, "PABLO_HEAVY_LANES", 1)))


# ----------------------------------------------------------------------------- bot moves


def bot_move_is_heavy(game_id: Any, seat: int) -> bool:
    """Whether the bot playing ``seat`` of the game is of a heavy level (one query)."""
    found = (
        apps.get_model("games", "Seat")
        .objects.filter(game_id=game_id, seat=seat)
        .values_list("user__username", "game__options")
        .first()
    )
    if found is None:
        return False
    username, options = found
    level = bot_level(username) or (options or {}).get("stand_in")
    return level in HEAVY_LEVELS


def heavy(levels: set[str]) -> bool:
    """Whether a move of any of these bot levels is heavy work."""
    return not levels.isdisjoint(HEAVY_LEVELS)


#: How long a deadline handed to the ``bots`` queue is not handed again (the sweep finds
#: the game overdue at each run until the lane gets to it).
FORWARDED_FOR = 300.0


def forward_deadline(game_id: Any, turn_key: str) -> bool:
    """Publish the enforcement of ``turn_key`` on the ``bots`` queue, once per turn (a
    key in the shared cache); True when published now. Raises when the broker refuses
    (the sweep's next run tries again)."""
    key = f"lanes:deadline:{game_id}:{turn_key}"
    if not cache.add(key, 1, timeout=FORWARDED_FOR):
        return False
    try:
        current_app.tasks["games.enforce_deadline"].apply_async(
            (str(game_id), turn_key), queue=BOTS, retry=False
        )
    except Exception:
        cache.delete(key)
        raise
    return True


def on_heavy_queue(request: Any) -> bool:
    """Whether the running task was taken from a heavy queue (a lane, or a dedicated
    worker's pool)."""
    if current_lane.get() is not None or getattr(request, "is_eager", False):
        return True  # (an eager task runs where it is: there are no lanes)
    delivery = getattr(request, "delivery_info", None) or {}
    return delivery.get("routing_key") in HEAVY_QUEUES


def forward(task: Any, args: tuple[Any, ...]) -> None:
    """Publish ``task`` again on the ``bots`` queue, to run as soon as a lane is free."""
    task.apply_async(args, queue=BOTS, retry=False)
