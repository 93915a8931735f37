"""Schemathesis against a live server with the rate limits on: the answers a program
meets, 429s included, are what the schema says.

``pablo.asgi`` under uvicorn in this process (tests/asgi_server.py: the embedded
SQLite default works too) with small limits, so that the throttled operations answer
429 within a few requests. Every operation of the live ``/api/schema/`` gets a few
valid and invalid requests (derandomized: CI is repeatable), with a player's token,
mostly against a real running game; every answer must be below 500 and conform to the
schema: a documented status, content type, body and headers (a 429's ``Retry-After``,
a throttled answer's ``RateLimit-*``). Bounded in cases and in time. (The same fuzz
against gunicorn without limits: tests/faults/test_fuzz_live.py.)
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter

import pytest
from django.core.cache import caches

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

CASES = 4  # per operation and generation mode
BUDGET = 60.0  # seconds of requests at most
LIMITS = {
    "PABLO_THROTTLE_AUTH": "6/min",
    "PABLO_THROTTLE_LOGIN_FAILURES": "3/hour",
    "PABLO_THROTTLE_ACTIONS": "4/min",
    "PABLO_THROTTLE_GAMES": "2/hour",
    "PABLO_THROTTLE_SIGNUPS": "2/hour",
    "PABLO_THROTTLE_EMAILS": "2/hour",
}


@pytest.fixture
def fresh_limits():
    caches["throttle"].clear()
    yield
    caches["throttle"].clear()


def test_every_answer_conforms_to_the_schema_429s_included(
    asgi_server, ann, bob, cid, settings, fresh_limits
):
    import schemathesis
    from hypothesis import HealthCheck, given
    from hypothesis import settings as hypothesis_settings
    from hypothesis.errors import Unsatisfiable
    from schemathesis import GenerationMode
    from schemathesis.checks import (
        content_type_conformance,
        not_a_server_error,
        response_headers_conformance,
        response_schema_conformance,
        status_code_conformance,
    )

    from tests.api.conftest import create

    game = create(ann, ruleset="pablo", seats=2)
    assert bob.post(f"/api/games/{game['id']}/join/").status_code == 200
    for name, rate in LIMITS.items():
        setattr(settings, name, rate)

    base = asgi_server.url
    schema = schemathesis.openapi.from_url(base + "/api/schema/")
    checks = [
        not_a_server_error,
        status_code_conformance,
        content_type_conformance,
        response_schema_conformance,
        response_headers_conformance,
    ]
    failures: list[str] = []
    sent: Counter[tuple[str, str, int]] = Counter()
    started = time.monotonic()

    def send(case) -> None:
        if time.monotonic() - started > BUDGET:
            return
        if "game_id" in (case.path_parameters or {}) and sum(sent.values()) % 4:
            case.path_parameters["game_id"] = game["id"]  # mostly the real game
        if isinstance(case.query, dict) and "wait" in case.query:
            case.query["wait"] = 0  # no long polls in a bounded run
        # the token call that retires the token it is sent with: cid's, not ann's
        token = cid.token if case.operation.path.endswith("/rotate/") else ann.token
        response = case.call(base_url=base, headers={"Authorization": f"Token {token}"})
        sent[(case.method, case.operation.path, response.status_code)] += 1
        try:
            case.validate_response(response, checks=checks)
        except Exception as exc:  # a failed check: collect them all, report at the end
            failures.append(f"{case.method} {case.formatted_path} -> {response.status_code}: {exc}")

    for result in schema.get_all_operations():
        operation = result.ok()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @hypothesis_settings(
                max_examples=CASES,
                derandomize=True,
                deadline=None,
                database=None,
                suppress_health_check=list(HealthCheck),
            )
            @given(operation.as_strategy(generation_mode=mode))
            def fuzz(case) -> None:
                send(case)

            with contextlib.suppress(Unsatisfiable):  # nothing to make invalid
                fuzz()
    throttled = sorted({f"{m} {p}" for (m, p, status) in sent if status == 429})
    print(f"{sum(sent.values())} requests in {time.monotonic() - started:.1f} s; 429: {throttled}")
    assert not failures, "\n\n".join(failures[:5])
    assert sum(sent.values()) > 100
    assert {"POST /api/games/{game_id}/actions/", "POST /api/auth/token/"} <= set(throttled)
