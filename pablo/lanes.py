"""The worker's side of the lanes (games/lanes.py): heavy queues run outside the pool.

``LaneStep`` is a step of every ``celery -A pablo worker`` (``pablo.celery``):
for each heavy queue its pool does not consume it spawns ``PABLO_HEAVY_LANES``
lane processes, each running ``Lane`` -- one task at a time, taken from the
queue with kombu's ``SimpleQueue`` (Redis or the embedded file broker), its
``eta`` awaited, run, then acknowledged -- ``PABLO_HEAVY_NICE`` steps nicer
than the worker. A stopping worker asks its lanes to stop after the task in
hand and kills them after ``STOP_SECONDS`` (a killed lane's message is handed
out again by the broker, as for the pool).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from datetime import UTC, datetime
from typing import Any

import django
from celery import bootsteps
from django.conf import settings
from django.db import close_old_connections, connections

from games.lanes import HEAVY_QUEUES, current_lane, lanes_setting
from pablo.celery import app

log = logging.getLogger(__name__)

#: how long a stopping worker waits for a lane's task in hand before killing it
STOP_SECONDS = 5.0


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
    django.setup()
    os.nice(max(0, int(getattr(settings, "PABLO_HEAVY_NICE", 10))))  # interactive work first

    lane = Lane(app, queue, index)
    signal.signal(signal.SIGTERM, lambda *_: lane.stopping.set())
    signal.signal(signal.SIGINT, lambda *_: lane.stopping.set())
    lane.run()
    # Out at once: an interpreter's orderly finalisation (Django, Celery, kombu
    # loaded) takes seconds on a busy machine, and the worker waits for its lanes
    # before it stops (a stop within STOP_SECONDS of run.sh and service managers).
    connections.close_all()
    logging.shutdown()
    os._exit(0)


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
