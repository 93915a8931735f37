"""The analysis task: thin, idempotent (``games.review.analysis_run``)."""

from __future__ import annotations

from celery import shared_task

from . import analysis_run


@shared_task(name="games.analyse_game", ignore_result=True)
def analyse_game(analysis_id: int) -> int:
    return analysis_run(analysis_id=analysis_id)
