"""Rate limits a program can read: RateLimit-* on every answer a throttle counts, and
the schema's 429 on every throttled operation."""

from __future__ import annotations

import re

import pytest
from django.core.cache import caches
from django.urls import resolve
from drf_spectacular.generators import SchemaGenerator

from games.api.throttling import throttled

GAME = {"ruleset": "skipbo", "seats": 2}


@pytest.fixture(autouse=True)
def _empty_throttle_cache():
    caches["throttle"].clear()
    yield
    caches["throttle"].clear()


def limit_headers(answer):
    return [answer.get(h) for h in ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset")]


def test_every_counted_answer_says_how_many_are_left(ann, settings):
    settings.PABLO_THROTTLE_GAMES = "3/hour"
    answers = [ann.post("/api/games/", GAME, format="json") for _ in range(4)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    assert [limit_headers(a)[:2] for a in answers] == [
        ["3", "2"],
        ["3", "1"],
        ["3", "0"],
        ["3", "0"],
    ]
    resets = [int(limit_headers(a)[2]) for a in answers]
    assert all(3590 <= r <= 3600 for r in resets)
    assert int(answers[-1]["Retry-After"]) == resets[-1]
    # an answer no limit counts has none
    assert limit_headers(ann.get("/api/games/")) == [None, None, None]


@pytest.mark.django_db
def test_a_refused_body_is_counted_too(anon, settings):
    settings.PABLO_THROTTLE_AUTH = "5/min"
    settings.PABLO_THROTTLE_LOGIN_FAILURES = "10/hour"
    answer = anon.post("/api/auth/token/", {"username": "nobody", "password": "x"}, format="json")
    assert answer.status_code == 400
    # the tightest of the two limits: 4 of 5 calls left this minute
    assert limit_headers(answer)[:2] == ["5", "4"] and 0 < int(answer["RateLimit-Reset"]) <= 60


def test_the_schema_documents_the_429_of_every_throttled_operation():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    throttled_ops = []
    for path, operations in schema["paths"].items():
        concrete = re.sub(r"\{[^}]+\}", "0", path)
        for method, operation in operations.items():
            if throttled(method.upper(), concrete, resolve(concrete).view_name):
                throttled_ops.append(f"{method.upper()} {path}")
                assert "429" in operation["responses"], (method, path)
    for named in (
        "POST /api/auth/token/",
        "POST /api/games/",
        "POST /api/games/{game_id}/rematch/",
        "PATCH /api/me/notifications/",
    ):
        assert named in throttled_ops
