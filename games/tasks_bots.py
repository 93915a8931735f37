"""Celery tasks of the bots (``games.bot_turns``): one bot move, and the catch-up.

=========================  ==================================================
task                       what
=========================  ==================================================
``games.bot_act``          one bot's move at the version it was enqueued for
``games.bots_catch_up``    beat: re-enqueue bots that games wait for
=========================  ==================================================
"""

from __future__ import annotations

from celery import shared_task

from . import bot_turns


@shared_task(name="games.bot_act", ignore_result=True)
def bot_act(game_id: str, seat: int, version: int) -> int:
    return bot_turns.act(game_id=game_id, seat=seat, version=version)


@shared_task(name="games.bots_catch_up", ignore_result=True)
def bots_catch_up() -> int:
    return bot_turns.catch_up()
