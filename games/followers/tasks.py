"""The followers' Celery task: ``games.follow`` catches every follower up.

Enqueued by the hint after a committed append (``wake``) and by beat every
``PABLO_FOLLOW_SECONDS``. It may run on several workers at once: each follower
is read by one of them at a time (its row lock), the others pass it by.
"""

from __future__ import annotations

from celery import shared_task

from . import follow_all, woken


@shared_task(name="games.follow", ignore_result=True)
def follow() -> int:
    woken()
    return follow_all()
