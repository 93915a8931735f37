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
  its turn's deadline, the deadline's task (interactive) makes the move with
  the ``basic`` policy instead (``at_deadline``), never with rollouts.

Two ways to run them:

* **A plain** ``celery -A pablo worker`` (``make run``, a small deployment)
  consumes the interactive queues with its pool and runs each heavy queue in
  ``PABLO_HEAVY_LANES`` lanes (default 1): processes of its own, spawned by the
  worker (``LaneStep``), outside the pool. Heavy work never takes a pool slot,
  so however much of it is queued the pool's slots stay free for interactive
  work, and heavy work still finishes, one task at a time per lane, in the
  order it was queued. A lane runs ``PABLO_HEAVY_NICE`` (10) steps nicer than
  the worker: on a busy machine the interactive processes get the CPU first.
  (Lanes were threads of the worker first: the CPU-bound
  lanes then held the interpreter's lock against the pool's threads, and a
  ``basic`` bot's move, dozens of short database round trips each waiting to
  get the lock back, came up to 5 s late.)
* **Dedicated workers** (the production split): ``celery -A pablo worker -Q
  bots,analysis`` takes the heavy queues with its whole pool, and the
  interactive workers run with ``PABLO_HEAVY_LANES=0``. A worker never runs
  lanes for a queue its pool consumes.

A lane takes one message at a time from its queue (kombu's ``SimpleQueue``:
works on Redis and on the embedded file broker), waits for its ``eta`` if it
has one, runs the task in the lane's thread and acknowledges it afterwards
(killed midway, the broker hands the message out again, as for the pool).

How much heavy work one account or one address can have queued is bounded
where it is asked for (``games.api.throttling``: self-playing bot games and
unfinished analyses, per account and per address), so that in these FIFO
queues nobody has more than their share ahead of anyone else.
"""

from __future__ import annotations

import contextvars
import logging
import multiprocessing
import os
import signal
import threading
import time
from datetime import UTC, datetime
from typing import Any

from celery import bootsteps
from django.conf import settings
from django.db import close_old_connections

from games.bots import bot_level

log = logging.getLogger(__name__)

BOTS = "bots"
ANALYSIS = "analysis"
HEAVY_QUEUES = (BOTS, ANALYSIS)
#: bot levels whose moves are heavy work
HEAVY_LEVELS = frozenset({"expert"})
#: how long a stopping worker waits for a lane's task in hand before killing it
STOP_SECONDS = 5.0

#: the heavy queue whose lane runs the current task (None: the pool)
current_lane: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "pablo_lane", default=None
)


def lanes_setting() -> int:
    return max(0, int(getattr(settings, "PABLO_HEAVY_LANES", 1)))


# ----------------------------------------------------------------------------- bot moves


def bot_move_is_heavy(game_id: Any, seat: int) -> bool:
    """Whether the bot playing ``seat`` of the game is of a heavy level (one query)."""
    from games.models import Seat

    found = (
        Seat.objects.filter(game_id=game_id, seat=seat)
        .values_list("user__username", "game__options")
        .first()
    )
    if found is None:
        return False
    username, options = found
    level = bot_level(username) or (options or {}).get("stand_in")
    return level in HEAVY_LEVELS


def at_deadline(level: str) -> str:
    """The level that makes a late bot's move at its turn's deadline, inline in the
    deadline's task (interactive work): ``basic`` in place of a heavy level."""
    return "basic" if level in HEAVY_LEVELS else level


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


# ----------------------------------------------------------------------------- lanes


class Lane:
    """Runs the tasks of one heavy queue, one at a time (in a lane process: ``run_lane``)."""

    POLL = 1.0

    def __init__(self, app: Any, queue: str, index: int) -> None:
        self.name = f"pablo-lane-{queue}-{index}"
        self.app = app
        self.queue = queue
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                with (
                    self.app.connection_for_read() as connection,
                    connection.SimpleQueue(self.app.amqp.queues[self.queue]) as queue,
                ):
                    self._consume(queue)
            except Exception as exc:  # the broker went away: try again shortly
                log.warning("lane %s: %s; reconnecting", self.name, exc)
                self.stopping.wait(2)

    def _consume(self, queue: Any) -> None:
        while not self.stopping.is_set():
            try:
                message = queue.get(block=True, timeout=self.POLL)
            except queue.Empty:
                continue
            self._wait_for(message.headers.get("eta"))
            if self.stopping.is_set():
                message.requeue()
                return
            try:
                self.execute(message)
            finally:
                message.ack()

    def _wait_for(self, eta: str | None) -> None:
        if not eta:
            return
        try:
            due = datetime.fromisoformat(eta)
        except ValueError:
            return
        if due.tzinfo is None:
            due = due.replace(tzinfo=UTC)
        seconds = (due - datetime.now(UTC)).total_seconds()
        if seconds > 0:
            self.stopping.wait(seconds)

    def execute(self, message: Any) -> None:
        name = message.headers.get("task")
        task = self.app.tasks.get(name)
        if task is None:
            log.error("lane %s: unknown task %r dropped", self.name, name)
            return
        args, kwargs, _embed = message.decode()
        token = current_lane.set(self.queue)
        close_old_connections()
        started = time.monotonic()
        try:
            task(*args, **kwargs)
        except Exception:
            log.exception("lane %s: task %s failed", self.name, name)
        finally:
            close_old_connections()
            current_lane.reset(token)
        log.debug("lane %s: %s in %.2f s", self.name, name, time.monotonic() - started)


def run_lane(queue: str, index: int) -> None:
    """A lane process's life (``LaneStep``): Django and the Celery app set up afresh,
    then one ``Lane`` until SIGTERM (after the task in hand)."""
    import django

    django.setup()
    from pablo.celery import app

    os.nice(max(0, int(getattr(settings, "PABLO_HEAVY_NICE", 10))))  # interactive work first

    lane = Lane(app, queue, index)
    signal.signal(signal.SIGTERM, lambda *_: lane.stopping.set())
    signal.signal(signal.SIGINT, lambda *_: lane.stopping.set())
    lane.run()


class LaneStep(bootsteps.StartStopStep):
    """A worker step: lanes for the heavy queues its pool does not consume, each a
    process of its own (spawned: heavy work never shares the worker's interpreter, so
    it takes neither a pool slot nor the pool's GIL)."""

    requires = {"celery.worker.components:Pool"}

    def __init__(self, worker: Any, **kwargs: Any) -> None:
        super().__init__(worker, **kwargs)
        self.lanes: list[Any] = []

    def start(self, worker: Any) -> None:
        consumed = worker.app.amqp.queues.consume_from
        consumed = set(consumed or worker.app.amqp.queues)
        spawn = multiprocessing.get_context("spawn")
        for queue in HEAVY_QUEUES:
            if queue in consumed:
                continue
            for index in range(lanes_setting()):
                lane = spawn.Process(
                    target=run_lane, args=(queue, index), name=f"pablo-lane-{queue}-{index}"
                )
                lane.daemon = True
                lane.start()
                self.lanes.append(lane)

    def stop(self, worker: Any) -> None:
        for lane in self.lanes:
            if lane.is_alive():
                lane.terminate()  # SIGTERM: the lane stops after the task in hand
        for lane in self.lanes:
            lane.join(STOP_SECONDS)
            if lane.is_alive():
                lane.kill()  # (its message is handed out again by the broker)
                lane.join(1)
        self.lanes = []

    shutdown = stop
