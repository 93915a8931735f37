"""A finished game's analysis: the request and the task's work (the reads: games/review/)."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction

from games import errors, outbox, rules
from games.bots import analysis as bot_analysis
from games.models import Event as EventRow
from games.models import Game, GameAnalysis

JSON = dict[str, Any]

log = logging.getLogger(__name__)


#: The Celery task that runs ``analysis_run`` (games/review/tasks.py), enqueued by name.
TASK = "games.analyse_game"

#: An analysis' progress is written at most this often (decisions between two saves).
ANALYSIS_SAVE_EVERY = 5


@transaction.atomic
def analysis_request(*, game: Game, user: Any, requested_from: str = "") -> GameAnalysis:
    """Start the analysis of a finished (or aborted) game; an existing one is returned.

    ``requested_from``: the asker's address, hashed (``games.api.shares.address_key``).

    A running game is refused (``409 game_not_finished``): its events must not
    leak. A failed analysis is queued again.
    """
    if game.status not in (Game.Status.FINISHED, Game.Status.ABORTED):
        raise errors.Conflict("A game is analysed once it is finished.", "game_not_finished")
    if not bot_analysis.analysable(game.ruleset):
        raise errors.Conflict("This game's ruleset has no analysis.", "not_analysable")
    row, created = GameAnalysis.objects.select_for_update().get_or_create(
        game=game,
        analyser=bot_analysis.ANALYSER,
        defaults={
            "requested_by": user if getattr(user, "is_authenticated", False) else None,
            "requested_from": requested_from,
        },
    )
    if created or row.status == GameAnalysis.Status.FAILED:
        row.status = GameAnalysis.Status.QUEUED
        row.progress = 0.0
        row.save(update_fields=["status", "progress", "updated_at"])
        pk = row.pk
        transaction.on_commit(lambda: outbox.send(TASK, kwargs={"analysis_id": pk}))
    return row


def _marks(ruleset: str) -> bot_analysis.Marks:
    """The marks' thresholds of the settings, by the unit the ruleset's analysis counts in."""
    values = (
        settings.PABLO_ANALYSIS_MARKS
        if bot_analysis.unit(ruleset) == "points"
        else settings.PABLO_ANALYSIS_MARKS_SKIPBO
    )
    return bot_analysis.Marks(*(float(v) for v in values))


def analysis_run(*, analysis_id: int) -> int:
    """The task's work: analyse the game and store the result (idempotent).

    A duplicate delivery finds the row done and stops; two workers that run the
    same analysis at once compute the same result (the search is a function of
    the events) and the last one stores it again.
    """
    row = GameAnalysis.objects.filter(pk=analysis_id).select_related("game").first()
    if row is None or row.status == GameAnalysis.Status.DONE:
        return 0
    GameAnalysis.objects.filter(pk=row.pk).update(status=GameAnalysis.Status.RUNNING)
    stream = [
        (seq, rules.Event(type_, data, seat))
        for seq, type_, data, seat in EventRow.objects.filter(game=row.game)
        .order_by("seq")
        .values_list("seq", "type", "data", "seat")
    ]
    saved = [0]

    def progress(done: int, total: int) -> None:
        if done - saved[0] >= ANALYSIS_SAVE_EVERY or done == total:
            saved[0] = done
            GameAnalysis.objects.filter(pk=row.pk).update(progress=done / max(total, 1))

    try:
        result = bot_analysis.analyse(
            stream,
            iterations=settings.PABLO_ANALYSIS_ITERATIONS,
            marks=_marks(row.game.ruleset),
            progress=progress,
        )
    except Exception:
        log.exception("analysis %s of game %s failed", row.pk, row.game_id)
        GameAnalysis.objects.filter(pk=row.pk).update(status=GameAnalysis.Status.FAILED)
        raise
    GameAnalysis.objects.filter(pk=row.pk).update(
        status=GameAnalysis.Status.DONE, progress=1.0, result=result
    )
    return len(result["decisions"])
