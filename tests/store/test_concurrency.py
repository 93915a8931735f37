"""Concurrent writers on a real PostgreSQL: the row lock and the unique seq decide.

These run in real transactions (``transaction=True``) with one database
connection per thread, as gunicorn workers would.
"""

from __future__ import annotations

import threading
import time
from collections import Counter

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import rules
from games.errors import Conflict
from games.models import Event, IdempotentAnswer
from games.services import games as game_services
from tests.fixtures import STOCK_TO_PILE_0, start_skipbo

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

THREADS = 10


def run_together(work, n=THREADS):
    """Run ``work(i)`` in ``n`` threads released at the same moment; their results."""
    barrier = threading.Barrier(n)
    results: list = [None] * n

    def main(i):
        try:
            barrier.wait()
            results[i] = work(i)
        except Exception as exc:  # reported through the results
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=main, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def client_for(user):
    token, _ = Token.objects.get_or_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def test_ten_threads_at_the_same_expected_version_one_wins(require_postgres, users):
    game = start_skipbo(*users[:2], quick=True)
    version = game.version

    def act(_i):
        try:
            answer = game_services.game_act(
                game_id=game.id, user=users[0], command=STOCK_TO_PILE_0, expected_version=version
            )
            return "replayed" if answer.replayed else "stored"
        except Conflict as exc:
            return exc.code

    results = run_together(act)
    assert Counter(results) == {"stored": 1, "version_conflict": THREADS - 1}, results
    assert Event.objects.filter(game=game).count() == version + 1
    game.refresh_from_db()
    assert game.version == version + 1


def test_ten_threads_over_http_one_wins(require_postgres, users):
    game = start_skipbo(*users[:2], quick=True)
    version = game.version
    clients = [client_for(users[0]) for _ in range(THREADS)]
    body = {**STOCK_TO_PILE_0, "expected_version": version}

    def act(i):
        response = clients[i].post(f"/api/games/{game.id}/actions/", body, format="json")
        return response.status_code, response.json().get("code")

    results = run_together(act)
    assert Counter(results) == {(201, None): 1, (409, "version_conflict"): THREADS - 1}
    assert Event.objects.filter(game=game).count() == version + 1


def test_concurrent_idempotent_repeats_answer_byte_for_byte(require_postgres, users):
    game = start_skipbo(*users[:2], quick=True)
    version = game.version
    clients = [client_for(users[0]) for _ in range(THREADS)]

    def act(i):
        response = clients[i].post(
            f"/api/games/{game.id}/actions/",
            STOCK_TO_PILE_0,
            format="json",
            HTTP_IDEMPOTENCY_KEY="same-key",
        )
        return response.status_code, response.content

    results = run_together(act)
    assert {status for status, _ in results} == {201}
    assert len({content for _, content in results}) == 1
    # One action stored: the 1 went onto pile 0, nothing else.
    assert Event.objects.filter(game=game).count() == version + 1
    assert IdempotentAnswer.objects.count() == 1


def test_long_poll_wakes_up_on_a_new_event(require_postgres, users):
    game = start_skipbo(*users[:2], quick=True)
    version = game.version
    client = client_for(users[1])
    answer: dict = {}

    def poll():
        started = time.monotonic()
        response = client.get(f"/api/games/{game.id}/events/?after={version}&wait=20")
        answer["elapsed"] = time.monotonic() - started
        answer["body"] = response.json()
        connection.close()

    thread = threading.Thread(target=poll)
    thread.start()
    time.sleep(0.6)
    game_services.game_act(game_id=game.id, user=users[0], command=STOCK_TO_PILE_0)
    thread.join(30)
    assert 0.5 < answer["elapsed"] < 5
    assert [e["seq"] for e in answer["body"]["events"]] == [version + 1]
    assert answer["body"]["version"] == version + 1


def test_committed_writes_fill_the_fold_cache(require_postgres, users):
    from games import store
    from games.selectors import games as game_selectors

    store.clear_cache()
    game = start_skipbo(*users[:2], quick=True)
    game_services.game_act(game_id=game.id, user=users[0], command=STOCK_TO_PILE_0)
    cached = store.cached(game.id)
    assert cached is not None
    game.refresh_from_db()
    assert cached.version == game.version
    assert cached == rules.fold(game_selectors.game_events(game))
