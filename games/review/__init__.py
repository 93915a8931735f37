"""Game analysis on the service's side (docs/analysis.md): reading the derived table.

The estimation itself is pure (``games.bots.analysis``). The ``GameAnalysis``
row of a game and analyser version is rebuildable from the events at any
time (never an event); it is written only by the services
(``services.analysis.analysis_request``, ``services.analysis.analysis_run``: the work of the
Celery task ``games.analyse_game``, in ``tasks``). Here: the reads.
"""

from __future__ import annotations

from typing import Any

from games import errors
from games.bots import analysis
from games.models import Game, GameAnalysis

ANALYSER = analysis.ANALYSER

JSON = dict[str, Any]


def analysis_get(*, game: Game) -> GameAnalysis | None:
    """The game's analysis by the current analyser, if it was ever started."""
    return GameAnalysis.objects.filter(game=game, analyser=ANALYSER).first()


def analysis_unit(ruleset: str) -> str:
    """What an analysis of ``ruleset`` counts: "points" (round points) or "chance" (to win)."""
    return analysis.unit(ruleset)


def analysis_data(row: GameAnalysis) -> JSON:
    """What ``GET /api/games/{id}/analysis/`` answers for this row."""
    if row.status == GameAnalysis.Status.DONE and row.result is not None:
        return {
            "status": "done",
            "analyser": row.analyser,
            "decisions": row.result.get("decisions", []),
            "players": row.result.get("players", []),
        }
    if row.status == GameAnalysis.Status.RUNNING:
        return {"status": "running", "progress": round(row.progress, 3)}
    # queued: its place in the (FIFO) queue, 1 = next
    ahead = GameAnalysis.objects.filter(
        status=GameAnalysis.Status.QUEUED, created_at__lt=row.created_at
    ).count()
    return {"status": "queued", "progress": round(row.progress, 3), "place": ahead + 1}


def not_started() -> errors.NotFound:
    return errors.NotFound("Nobody has asked for this game's analysis yet.", "no_analysis")
