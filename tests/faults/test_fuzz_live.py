"""Schemathesis against the running gunicorn (not the test client), authenticated, bounded.

gunicorn (2 processes x 2 threads) serves the pytest-django test database;
the schema is fetched from the live ``/api/schema/``; every operation gets a
few valid and invalid requests (derandomized, so CI is repeatable), sent over
HTTP with a player's token, mostly against a real running game. Every answer
must be below 500 and conform to the schema: status code documented, content
type, body and headers as documented. Bounded: a handful of cases per
operation and mode, well under a minute of requests.
"""

from __future__ import annotations

import contextlib
import time

import pytest
from django.db import connection

from tests.faults.servers import call
from tests.processes import Processes, database_url

pytestmark = [
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]

CASES = 5  # per operation and generation mode
BUDGET = 60.0  # seconds of fuzzing at most


@pytest.fixture
def live(require_postgres, tmp_path):
    service = Processes(
        tmp_path, DATABASE_URL=database_url(), CELERY_BROKER_URL="", PABLO_SWEEP_SECONDS="1"
    )
    try:
        yield service.web(workers=2, threads=2), service
    finally:
        service.close()
        connection.close()


def test_schemathesis_against_the_live_server(live):
    import schemathesis
    from hypothesis import HealthCheck, given, settings
    from hypothesis.errors import Unsatisfiable
    from schemathesis import GenerationMode
    from schemathesis.checks import (
        content_type_conformance,
        not_a_server_error,
        response_headers_conformance,
        response_schema_conformance,
        status_code_conformance,
    )

    base, service = live
    tokens = []
    for name in ("fuzz-ann", "fuzz-bob"):
        status, _, data = call(
            base, "POST", "/api/auth/register/", {"username": name, "password": "secret-pw"}
        )
        assert status == 201, data
        tokens.append(data["token"])
    status, _, game = call(base, "POST", "/api/games/", {"ruleset": "pablo", "seats": 2}, tokens[0])
    assert status == 201, game
    assert call(base, "POST", f"/api/games/{game['id']}/join/", None, tokens[1])[0] == 200

    schema = schemathesis.openapi.from_url(base + "/api/schema/")
    checks = [
        not_a_server_error,
        status_code_conformance,
        content_type_conformance,
        response_schema_conformance,
        response_headers_conformance,
    ]
    headers = {"Authorization": f"Token {tokens[0]}"}
    failures: list[str] = []
    sent: list[int] = []
    started = time.monotonic()

    def send(case) -> None:
        if time.monotonic() - started > BUDGET:
            return
        if "game_id" in (case.path_parameters or {}) and len(sent) % 4:
            case.path_parameters["game_id"] = game["id"]  # mostly the real game
        if isinstance(case.query, dict) and "wait" in case.query:
            case.query["wait"] = 0  # no 30-s long polls in a bounded run
        response = case.call(base_url=base, headers=headers, timeout=30)
        sent.append(response.status_code)
        try:
            case.validate_response(response, checks=checks)
        except Exception as exc:  # a failed check: collect them all, report at the end
            failures.append(f"{case.method} {case.formatted_path} -> {response.status_code}: {exc}")

    for result in schema.get_all_operations():
        operation = result.ok()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @settings(
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
    print(f"{len(sent)} requests in {time.monotonic() - started:.1f} s")
    assert len(sent) > 50
    assert not failures, "\n\n".join(failures[:5]) + "\n" + service.logs()[-2000:]
