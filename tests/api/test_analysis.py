"""POST/GET /api/games/{id}/analysis/ (API.md "Analysis"); the task's work in-process."""

from __future__ import annotations

import random

import pytest
from django.core.cache import caches

from games.models import GameAnalysis
from games.services.analysis import analysis_run
from games.turns.bots import play_stored_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(db):
    return play_stored_game(
        "skipbo", ["basic", "expert"], {"stock_size": 5, "start_seat": 0}, rng=random.Random(2)
    )


def test_a_running_game_is_not_analysed(ann, bob):
    game = ann.post("/api/games/", {"ruleset": "cabo", "seats": 2}, format="json").json()
    bob.post(f"/api/games/{game['id']}/join/")
    answer = ann.post(f"/api/games/{game['id']}/analysis/")
    assert answer.status_code == 409 and answer.json()["code"] == "game_not_finished"
    answer = ann.get(f"/api/games/{game['id']}/analysis/")
    assert answer.status_code == 404 and answer.json()["code"] == "no_analysis"
    assert not GameAnalysis.objects.exists()


def test_start_progress_and_result(ann, bob, finished, settings):
    settings.PABLO_ANALYSIS_ITERATIONS = 24
    url = f"/api/games/{finished.id}/analysis/"
    assert ann.get(url).status_code == 404
    answer = ann.post(url)
    assert answer.status_code == 202, answer.content
    assert answer.json() == {"status": "queued", "progress": 0.0, "place": 1}
    again = bob.post(url)  # the same analysis, not a second one
    assert again.status_code == 202 and GameAnalysis.objects.count() == 1
    assert ann.get(url).status_code == 202
    row = GameAnalysis.objects.get()
    assert analysis_run(analysis_id=row.pk) > 0  # what the worker does
    answer = ann.get(url)
    assert answer.status_code == 200
    data = answer.json()
    assert data["status"] == "done" and data["analyser"]
    assert {p["seat"] for p in data["players"]} == {0, 1}
    for d in data["decisions"]:
        assert {"step", "seat", "taken", "best", "loss", "stderr", "mark"} <= set(d)
        assert d["loss"] >= 0 and d["mark"] in (None, "inaccuracy", "mistake", "blunder")
        assert d["taken"]["type"] in ("play", "end")
    assert ann.post(url).status_code == 200  # done: POST answers the result
    assert analysis_run(analysis_id=row.pk) == 0  # a duplicate task does nothing


def test_analyses_are_throttled_per_user(ann, finished, settings):
    settings.PABLO_THROTTLE_ANALYSES = "1/min"
    # user ids start again after a flush on SQLite: an earlier test's count is not ann's
    caches["throttle"].clear()
    url = f"/api/games/{finished.id}/analysis/"
    assert ann.post(url).status_code == 202
    answer = ann.post(url)
    assert answer.status_code == 429 and answer.json()["code"] == "throttled"
    assert "Retry-After" in answer


def test_signed_in_only(anon, finished):
    assert anon.post(f"/api/games/{finished.id}/analysis/").status_code == 401


def test_expert_is_a_bot_level(anon):
    levels = anon.get("/api/rulesets/").json()[0]["bot_levels"]
    assert "expert" in levels
