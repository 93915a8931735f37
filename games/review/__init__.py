"""Game analysis on the service's side (docs/analysis.md): a derived table and a task.

The estimation itself is pure (``games.bots.analysis``). Here: the
``GameAnalysis`` row of a game and analyser version (rebuildable from the
events at any time; never an event), the service that starts it, the selector
that reads it, and the work of the Celery task ``games.analyse_game``, which
stores its progress on the row as it goes. Nothing of it runs in a request.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction

from games import errors, outbox, rules
from games.bots import analysis
from games.errors import Conflict
from games.models import Event, Game, GameAnalysis

log = logging.getLogger(__name__)

ANALYSER = analysis.ANALYSER
TASK = "games.analyse_game"
#: Progress is written at most this often (decisions between two saves).
SAVE_EVERY = 5

JSON = dict[str, Any]


def analysis_get(*, game: Game) -> GameAnalysis | None:
    """The game's analysis by the current analyser, if it was ever started."""
    return GameAnalysis.objects.filter(game=game, analyser=ANALYSER).first()


def analysis_data(row: GameAnalysis) -> JSON:
    """What ``GET /api/games/{id}/analysis/`` answers for this row."""
    if row.status == GameAnalysis.Status.DONE and row.result is not None:
        return {
            "status": "done",
            "analyser": row.analyser,
            "decisions": row.result.get("decisions", []),
            "players": row.result.get("players", []),
        }
    status = "running" if row.status == GameAnalysis.Status.RUNNING else "queued"
    return {"status": status, "progress": round(row.progress, 3)}


@transaction.atomic
def analysis_request(*, game: Game, user: Any) -> GameAnalysis:
    """Start the analysis of a finished (or aborted) game; an existing one is returned.

    A running game is refused (``409 game_not_finished``): its events must not
    leak. A failed analysis is queued again.
    """
    if game.status not in (Game.Status.FINISHED, Game.Status.ABORTED):
        raise Conflict("A game is analysed once it is finished.", "game_not_finished")
    row, created = GameAnalysis.objects.select_for_update().get_or_create(
        game=game,
        analyser=ANALYSER,
        defaults={"requested_by": user if getattr(user, "is_authenticated", False) else None},
    )
    if created or row.status == GameAnalysis.Status.FAILED:
        row.status = GameAnalysis.Status.QUEUED
        row.progress = 0.0
        row.save(update_fields=["status", "progress", "updated_at"])
        pk = row.pk
        transaction.on_commit(lambda: outbox.send(TASK, kwargs={"analysis_id": pk}))
    return row


def _marks(ruleset: str) -> analysis.Marks:
    values = (
        settings.PABLO_ANALYSIS_MARKS_SKIPBO
        if ruleset == "skipbo"
        else settings.PABLO_ANALYSIS_MARKS
    )
    return analysis.Marks(*(float(v) for v in values))


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
        for seq, type_, data, seat in Event.objects.filter(game=row.game)
        .order_by("seq")
        .values_list("seq", "type", "data", "seat")
    ]
    saved = [0]

    def progress(done: int, total: int) -> None:
        if done - saved[0] >= SAVE_EVERY or done == total:
            saved[0] = done
            GameAnalysis.objects.filter(pk=row.pk).update(progress=done / max(total, 1))

    try:
        result = analysis.analyse(
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


def not_started() -> errors.NotFound:
    return errors.NotFound("Nobody has asked for this game's analysis yet.", "no_analysis")
