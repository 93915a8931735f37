"""Schemathesis against live servers: every answer a program meets conforms to the schema.

One run makes two checks with the same generated requests (generating and checking
them is most of the cost, so each case is made once and sent to both servers):

- ``pablo.asgi`` under uvicorn in this process (tests/asgi_server.py: the embedded
  SQLite default works too) with small limits, so that the throttled operations
  answer 429 within a few requests: the 429s conform too (a 429's ``Retry-After``,
  a throttled answer's ``RateLimit-*``);
- on PostgreSQL, also gunicorn (``pablo.wsgi``, 2 processes x 2 threads, the test
  database) without limits, so that the same requests reach the views themselves
  through the production thread path, not the test client.

Every operation of the live ``/api/schema/`` gets a few valid and invalid requests
(derandomized: CI is repeatable), with a player's token, mostly against a real
running game; every answer must be below 500 and conform to the schema: a
documented status, content type, body and headers. Bounded in cases and in time.
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter

import pytest
from django.core.cache import caches
from django.db import connection

from tests.processes import Processes, database_url

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

CASES = 5  # per operation and generation mode
BUDGET = 120.0  # seconds of requests at most (each case to both servers: the two runs had 60 each)
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


@pytest.fixture
def gunicorn(tmp_path):
    """gunicorn on the test database (PostgreSQL only: SQLite's is in this process's
    memory), the test settings' unlimited throttles; ``None`` on SQLite."""
    if connection.vendor != "postgresql":
        yield None
        return
    service = Processes(
        tmp_path, DATABASE_URL=database_url(), CELERY_BROKER_URL="", PABLO_SWEEP_SECONDS="1"
    )
    try:
        yield service.web(workers=2, threads=2), service
    finally:
        service.close()
        connection.close()


def test_every_answer_conforms_to_the_schema_429s_included(
    asgi_server, gunicorn, ann, bob, cid, settings, fresh_limits
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

    limited = asgi_server.url
    servers = [limited] if gunicorn is None else [limited, gunicorn[0]]
    schema = schemathesis.openapi.from_url(limited + "/api/schema/")
    checks = [
        not_a_server_error,
        status_code_conformance,
        content_type_conformance,
        response_schema_conformance,
        response_headers_conformance,
    ]
    failures: list[str] = []
    sent: dict[str, Counter[tuple[str, str, int]]] = {base: Counter() for base in servers}
    started = time.monotonic()

    def send(case) -> None:
        if time.monotonic() - started > BUDGET:
            return
        if "game_id" in (case.path_parameters or {}) and sum(sent[limited].values()) % 4:
            case.path_parameters["game_id"] = game["id"]  # mostly the real game
        if isinstance(case.query, dict) and "wait" in case.query:
            case.query["wait"] = 0  # no long polls in a bounded run
        # the token call that retires the token it is sent with: cid's, not ann's
        token = cid.token if case.operation.path.endswith("/rotate/") else ann.token
        for base in servers:
            headers = {"Authorization": f"Token {token}"}
            response = case.call(base_url=base, headers=headers, timeout=30)
            sent[base][(case.method, case.operation.path, response.status_code)] += 1
            try:
                case.validate_response(response, checks=checks)
            except Exception as exc:  # a failed check: collect them all, report at the end
                failures.append(
                    f"{base}: {case.method} {case.formatted_path} -> {response.status_code}: {exc}"
                )

    for result in schema.get_all_operations():
        if time.monotonic() - started > BUDGET:
            break  # (generating cases that are not sent costs as much as sending them)
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
    throttled = sorted({f"{m} {p}" for (m, p, status) in sent[limited] if status == 429})
    took = time.monotonic() - started
    print(f"{sum(sent[limited].values())} cases in {took:.1f} s to {servers}; 429: {throttled}")
    logs = "" if gunicorn is None else "\n" + gunicorn[1].logs()[-2000:]
    assert not failures, "\n\n".join(failures[:5]) + logs
    assert all(sum(counts.values()) > 100 for counts in sent.values()), sent
    assert {"POST /api/games/{game_id}/actions/", "POST /api/auth/token/"} <= set(throttled)
