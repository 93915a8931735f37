"""Attacks of a stranger (round 3): the leaderboard's ``page`` is checked like the games
list's and the history's (a 400 naming ``page``), not DRF's "Invalid page." 404 for
``page=0``, ``page=-1`` or ``page=1e9`` (and ``page=last`` was the last page)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("page", ["0", "-1", "1e9", "last", "1.5", "\x00"])
def test_a_page_that_is_not_a_whole_number_from_1_is_a_400(ann, page):
    response = ann.get("/api/ratings/cabo/", {"page": page})
    assert response.status_code == 400, response.content
    assert set(response.json()) == {"code", "detail"}
    assert response.json()["detail"].startswith("page:")
    # the games list and the history answer the same
    for path in ("/api/games/", "/api/me/history/"):
        assert ann.get(path, {"page": page}).status_code == 400


def test_pages_that_are_whole_numbers_keep_their_answers(ann):
    assert ann.get("/api/ratings/cabo/", {"page": "1"}).status_code == 200
    beyond = ann.get("/api/ratings/cabo/", {"page": "2"})
    assert beyond.status_code == 404 and beyond.json()["code"] == "not_found"
    assert ann.get("/api/ratings/nope/", {"page": "0"}).status_code == 404  # the ruleset first
