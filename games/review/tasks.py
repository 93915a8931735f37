"""The analysis task: thin, idempotent (``services.analysis_run``)."""

from __future__ import annotations

from celery import shared_task

from games import services


@shared_task(name="games.analyse_game", ignore_result=True)
def analyse_game(analysis_id: int) -> int:
    return services.analysis_run(analysis_id=analysis_id)
