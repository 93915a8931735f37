"""The analysis task: thin, idempotent (``services.analysis.analysis_run``)."""

from __future__ import annotations

from celery import shared_task

from games.services import analysis as analysis_services


@shared_task(name=analysis_services.TASK, ignore_result=True)
def analyse_game(analysis_id: int) -> int:
    return analysis_services.analysis_run(analysis_id=analysis_id)
