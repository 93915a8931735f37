"""Limits that mean something when accounts are cheap (games/api/shares.py, throttling).

The attack: sign-up allowed 60 accounts a minute per address, and every other
limit was per account, so a few accounts from one address queued analyses and
self-playing bot games without end. Now sign-ups are limited per address, and
games with bots going on and analyses unfinished are bounded per account and
per address; over a bound: 429 ``throttled`` with ``Retry-After``.
"""

from __future__ import annotations

import random

import pytest
from django.core.cache import caches
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Game, GameAnalysis
from games.services import accounts as account_services
from games.turns.bots import play_stored_game

pytestmark = pytest.mark.django_db(transaction=True)

BOTS = [{"seat": 1, "level": "basic"}]


@pytest.fixture(autouse=True)
def fresh_counters():
    caches["throttle"].clear()
    yield
    caches["throttle"].clear()


def register(name: str, address: str) -> tuple[int, APIClient, dict]:
    client = APIClient(REMOTE_ADDR=address)
    answer = client.post(
        "/api/auth/register/", {"username": name, "password": "long enough 123"}, format="json"
    )
    if answer.status_code == 201:
        client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    return answer.status_code, client, answer


def player(name: str, address: str) -> APIClient:
    _user, token = account_services.user_register(username=name, password="long enough 123")
    client = APIClient(REMOTE_ADDR=address)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_sign_ups_are_limited_per_address(settings):
    settings.PABLO_THROTTLE_SIGNUPS = "3/hour"
    answers = [register(f"cheap{i}", "203.0.113.5")[2] for i in range(4)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    assert answers[-1].json()["code"] == "throttled" and int(answers[-1]["Retry-After"]) > 0
    assert register("elsewhere", "198.51.100.7")[0] == 201  # another address
    # the web sign-up shares the counter
    page = Client(REMOTE_ADDR="203.0.113.5").post(
        "/accounts/signup/",
        {"username": "webcheap", "password1": "long enough 123", "password2": "long enough 123"},
    )
    assert page.status_code == 429 and int(page["Retry-After"]) > 0
    assert Token.objects.count() == 4


def create(client: APIClient, bots: list | None = BOTS):
    body = {"ruleset": "cabo", "seats": 2, **({"bots": bots} if bots else {})}
    return client.post("/api/games/", body, format="json")


def test_games_with_bots_going_on_are_bounded_per_account_and_address(settings):
    settings.PABLO_BOT_GAMES, settings.PABLO_BOT_GAMES_PER_ADDRESS = 2, 3
    one, two = player("one", "203.0.113.9"), player("two", "203.0.113.9")
    assert [create(one).status_code for _ in range(3)] == [201, 201, 429]
    refused = create(one)
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    assert int(refused["Retry-After"]) > 0
    assert create(one, bots=None).status_code == 201  # a game of people: not bounded
    # a second account from the same address: the address' share is 3
    assert [create(two).status_code for _ in range(2)] == [201, 429]
    assert create(player("far", "198.51.100.1")).status_code == 201
    assert Game.objects.filter(created_from="").count() == 0  # every game knows its address
    # a game ended gives its share back
    first = Game.objects.filter(created_by__username="one").order_by("created_at").first()
    Game.objects.filter(pk=first.pk).update(status=Game.Status.FINISHED)
    assert create(two).status_code == 201


def test_unfinished_analyses_are_bounded_per_account_and_address(settings):
    settings.PABLO_ANALYSES_QUEUED, settings.PABLO_ANALYSES_QUEUED_PER_ADDRESS = 2, 3
    rng = random.Random(4)
    games = [
        play_stored_game("skipbo", ["basic", "basic"], {"stock_size": 5}, rng=rng) for _ in range(5)
    ]
    one, two = player("one", "203.0.113.9"), player("two", "203.0.113.9")
    answers = [one.post(f"/api/games/{g.id}/analysis/") for g in games[:3]]
    assert [a.status_code for a in answers] == [202, 202, 429]
    assert answers[0].json() == {"status": "queued", "progress": 0.0, "place": 1}
    assert answers[1].json()["place"] == 2  # "queued, your place 2"
    assert answers[2].json()["code"] == "throttled" and int(answers[2]["Retry-After"]) > 0
    assert GameAnalysis.objects.count() == 2  # the refused one was not queued
    # asking again for one already queued costs nothing
    assert one.post(f"/api/games/{games[0].id}/analysis/").status_code == 202
    # the address' share is 3
    assert two.post(f"/api/games/{games[3].id}/analysis/").status_code == 202
    assert two.post(f"/api/games/{games[4].id}/analysis/").status_code == 429
    # a finished analysis gives its share back
    GameAnalysis.objects.filter(game=games[0]).update(status=GameAnalysis.Status.DONE)
    assert two.post(f"/api/games/{games[4].id}/analysis/").status_code == 202


def test_a_bot_as_stand_in_makes_a_game_with_bots(settings):
    """A game of people with ``options.stand_in`` a bot level has bots too: each absent
    seat's turns are that bot's moves (an ``expert`` stand-in's on the heavy ``bots``
    queue). Such games were not counted: one account ran any number of them at once
    (two accounts, ``turn_timeout`` 1, ``max_timeouts`` 1 and one seat silent: an expert
    playing it within seconds), past ``PABLO_BOT_GAMES`` and the address's share."""
    settings.PABLO_BOT_GAMES, settings.PABLO_BOT_GAMES_PER_ADDRESS = 2, 3

    def stand_in(client: APIClient, level: str = "expert"):
        body = {"ruleset": "cabo", "seats": 2, "options": {"stand_in": level}}
        return client.post("/api/games/", body, format="json")

    one, two = player("one", "203.0.113.9"), player("two", "203.0.113.9")
    assert [stand_in(one).status_code for _ in range(3)] == [201, 201, 429]
    assert stand_in(one, "random").status_code == 429  # any bot level
    assert create(one).status_code == 429  # counted with the games with bot seats
    assert stand_in(one, "rules").status_code == 201  # the rules' automatic action: no bot
    assert create(one, bots=None).status_code == 201
    assert stand_in(two).status_code == 201  # the address's third
    assert create(two).status_code == 429  # the address's share is used up
    assert Game.objects.filter(options__stand_in="expert").count() == 3
