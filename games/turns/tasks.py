"""Celery tasks of the turns: thin and idempotent; the work is in ``deadlines``, the
services and ``games.outbox``.

===================================  ===========================================
task                                 what
===================================  ===========================================
``games.sweep_deadlines``            beat, every ``PABLO_SWEEP_SECONDS``: enforce overdue games
``games.enforce_deadline``           fast path: ETA task for one near deadline
``games.bot_act``                    one bot's move at the version it was enqueued for
``games.sweep_bots``                 beat: bots stalled by a lost task (``sweep_stalled``)
``pablo.flush_outbox``               beat: publish the messages the broker refused
``games.prune_idempotent_answers``   beat: delete stored answers of actions, when old
===================================  ===========================================

Every task may run twice (acks late, redelivery): a timeout carries the turn
key it means and a bot's move the version it reacts to, so a duplicate stores
nothing. Task names are kept as they were when the modules moved, so messages
already in a broker still find their task.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from games import lanes, outbox
from games.services import bots as bot_services
from games.services import games as game_services

from . import bots, deadlines


@shared_task(name="games.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    return deadlines.sweep()


@shared_task(bind=True, name="games.enforce_deadline", ignore_result=True)
def enforce_deadline(self: Any, game_id: str, turn_key: str) -> int:
    # a turn that waits for an expert is heavy work: handed to its queue (games/lanes.py)
    on_lane = lanes.on_heavy_queue(self.request)
    return deadlines.enforce(game_id=game_id, turn_key=turn_key, on_lane=on_lane)


@shared_task(bind=True, name="games.bot_act", ignore_result=True)
def bot_act(self: Any, game_id: str, seat: int, version: int) -> int:
    # an expert's move is heavy work: forwarded to its own queue (games/lanes.py)
    if not lanes.on_heavy_queue(self.request) and lanes.bot_move_is_heavy(game_id, seat):
        lanes.forward(self, (game_id, seat, version))
        return 0
    return bot_services.game_bot_act(game_id=game_id, seat=seat, version=version)


@shared_task(name="games.sweep_bots", ignore_result=True)
def sweep_bots() -> int:
    return bots.sweep_stalled()


@shared_task(name="pablo.flush_outbox", ignore_result=True)
def flush_outbox() -> int:
    return outbox.flush()


@shared_task(name="games.prune_idempotent_answers", ignore_result=True)
def prune_idempotent_answers() -> int:
    return game_services.idempotent_answers_prune()
