"""Attacks of a stranger, replayed: each test failed before its fix (issue 18/19 follow-up)."""

from __future__ import annotations

import re
import threading
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.api.test_friends import finished_skipbo

pytestmark = pytest.mark.django_db


def test_the_database_refuses_a_second_spelling_of_a_name():
    """Uniqueness of names by their key is the database's, not only a check before insert."""
    users = get_user_model().objects
    users.create_user(username="racer", password="pw-pw-pw-pw")
    for other in ("RACER", "Racer", "\uff52acer"):
        with pytest.raises(IntegrityError), transaction.atomic():
            users.create_user(username=other, password="pw-pw-pw-pw")
    assert users.filter(username__iexact="racer").count() == 1
    users.create_user(username="stra\u00dfe", password="pw-pw-pw-pw")  # case folds to strasse
    with pytest.raises(IntegrityError), transaction.atomic():
        users.create_user(username="STRASSE", password="pw-pw-pw-pw")


def test_renaming_an_account_onto_another_spelling_is_refused():
    users = get_user_model().objects
    users.create_user(username="ann2", password="pw-pw-pw-pw")
    bob = users.create_user(username="bob2", password="pw-pw-pw-pw")
    bob.username = "ANN2"
    with pytest.raises(IntegrityError), transaction.atomic():
        bob.save()
    bob.refresh_from_db()
    bob.username = "bob3"
    bob.save()  # a rename to a free name moves the key with it
    users.create_user(username="BOB2", password="pw-pw-pw-pw")


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_case_variant_sign_ups_at_the_same_instant_make_one_account(require_postgres):
    """Eight spellings of one name sent at once: exactly one account (it was four)."""
    names = ["racer", "RACER", "Racer", " racer", "racer ", "\uff52acer", "rACER", "RaCeR"]
    barrier = threading.Barrier(len(names))
    codes: dict[str, int] = {}

    def sign_up(name: str) -> None:
        client = APIClient()
        barrier.wait()
        try:
            answer = client.post(
                "/api/auth/register/", {"username": name, "password": "secret-pw-1"}, format="json"
            )
            codes[name] = answer.status_code
            if answer.status_code == 400:
                assert answer.json()["code"] == "username_taken", answer.content
        finally:
            connection.close()

    threads = [threading.Thread(target=sign_up, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(codes.values()) == [201] + [400] * (len(names) - 1), codes
    assert get_user_model().objects.filter(username__iexact="racer").count() == 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_parallel_token_rotations_with_one_token_give_one_live_token(require_postgres):
    """Eight rotations sent at once with the same token: no 500, one 200, and its token works.

    Before: three answered 500 (a second ``Token`` for the user) and two answered 200, one
    of them with a token that was already dead.
    """
    user = get_user_model().objects.create_user(username="rota", password="secret-pw-1")
    key = Token.objects.create(user=user).key
    barrier = threading.Barrier(8)
    answers: list = []

    def rotate() -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        barrier.wait()
        try:
            answers.append(client.post("/api/auth/token/rotate/"))
        finally:
            connection.close()

    threads = [threading.Thread(target=rotate) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    codes = sorted(answer.status_code for answer in answers)
    assert codes == [200] + [401] * 7, codes
    (winner,) = [answer.json()["token"] for answer in answers if answer.status_code == 200]
    assert list(Token.objects.filter(user=user).values_list("key", flat=True)) == [winner]
    for answer in answers:
        assert set(answer.json()) == (
            {"token"} if answer.status_code == 200 else {"code", "detail"}
        )


@pytest.mark.parametrize(
    "impostor",
    [
        "\u0251lice",  # LATIN SMALL LETTER ALPHA: it was accepted beside "alice"
        "al\u0131ce",  # dotless i
        "AL\u0131CE",
        "\u0251l\u0131ce",
    ],
)
def test_a_latin_lookalike_of_a_taken_name_is_taken(anon, impostor):
    """One script, so not "mixed": the letters that only look like ASCII ones still name alice."""
    body = {"username": "alice", "password": "secret-pw-1"}
    assert anon.post("/api/auth/register/", body, format="json").status_code == 201
    answer = anon.post("/api/auth/register/", {**body, "username": impostor}, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == "username_taken"
    with pytest.raises(IntegrityError), transaction.atomic():  # the database agrees
        get_user_model().objects.create_user(username=impostor, password="pw-pw-pw-pw")


def test_names_with_letters_of_their_own_stay_free(anon):
    for name in (
        "alice",
        "\u00e5lice",
        "\u00f6laf",
        "olaf",
        "stra\u00dfe2",
        "\u03ba\u03b1\u03bb\u03b7",
    ):
        answer = anon.post(
            "/api/auth/register/", {"username": name, "password": "secret-pw-1"}, format="json"
        )
        assert answer.status_code == 201, (name, answer.content)


def test_the_replay_list_leaves_out_private_games_of_others(ann, bob, cid):
    """/replays/ listed a finished private game (and its players) to anyone, signed in or
    not, while every other list leaves it out for those without a seat in it."""
    private = finished_skipbo(ann, bob, private=True)
    public = finished_skipbo(ann, bob)
    web = Client()
    assert private["id"] not in web.get("/replays/").content.decode()
    assert public["id"] in web.get("/replays/").content.decode()
    web.force_login(cid.user)
    page = web.get("/replays/?player=ann").content.decode()
    assert private["id"] not in page and public["id"] in page
    web.force_login(bob.user)
    assert private["id"] in web.get("/replays/").content.decode()  # its players still see it


@pytest.mark.parametrize("name", ["STRASSE", "\u0251lice", "ALICE", "x\u200by", "\u0430lice"])
def test_the_admin_refuses_the_names_the_api_refuses(name):
    """The admin's "add user" made lookalike accounts (and, with the unique look, a 500)."""
    users = get_user_model().objects
    users.create_user(username="stra\u00dfe", password="pw-pw-pw-pw")
    users.create_user(username="alice", password="pw-pw-pw-pw")
    boss = users.create_superuser(username="boss", password="pw-pw-pw-pw", email="b@x.org")
    web = Client()
    web.force_login(boss)
    password = "Zz-secret-pw-123"
    answer = web.post(
        "/admin/auth/user/add/",
        {"username": name, "password1": password, "password2": password, "usable_password": "true"},
    )
    assert answer.status_code == 200, answer.status_code  # the form again, with its error
    assert "errorlist" in answer.content.decode()
    assert users.count() == 3


def test_the_admin_may_still_rename_an_account_to_a_free_name_and_keep_its_own():
    users = get_user_model().objects
    users.create_user(username="alice", password="pw-pw-pw-pw")
    bob = users.create_user(username="bob", password="pw-pw-pw-pw")
    boss = users.create_superuser(username="boss", password="pw-pw-pw-pw", email="b@x.org")
    web = Client()
    web.force_login(boss)
    page = f"/admin/auth/user/{bob.pk}/change/"
    form = {"username": "bob", "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"}
    assert web.post(page, {**form, "username": "\u0251lice"}).status_code == 200  # refused
    assert web.post(page, {**form, "username": "Bob"}).status_code == 302  # its own name
    assert web.post(page, {**form, "username": "robert"}).status_code == 302
    bob.refresh_from_db()
    assert bob.username == "robert"


@pytest.mark.parametrize("verb", ["cancel", "rematch"])
def test_the_web_answers_a_stranger_on_a_private_game_as_on_an_unknown_id(ann, cid, verb):
    """The API's cancel and rematch answer a stranger 404 on a private game (docs/api.md);
    the table's forms answered 302 with "only the creator ..." instead."""
    game = ann.post("/api/games/", {"ruleset": "cabo", "seats": 2, "private": True}, format="json")
    web = Client()
    web.force_login(cid.user)
    private = web.post(f"/play/{game.json()['id']}/{verb}/")
    unknown = web.post(f"/play/{uuid.uuid4()}/{verb}/")
    assert (private.status_code, unknown.status_code) == (404, 404)
    # the same page but for the header forms' CSRF token, masked anew on every answer
    masked = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')
    assert masked.sub(b"", private.content) == masked.sub(b"", unknown.content)


# --------------------------------------------------------------------------- bot accounts


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("how", ["create", "join"])
def test_an_account_becoming_a_bot_while_it_takes_a_seat_is_refused(require_postgres, how):
    """``POST /api/me/bot/`` while the same account's game creation (or join) is being
    written: the seat was not committed yet, so "never sat at a game" held, and the
    account became a bot with the seat of a person's game. Now the seat's writing locks
    the account's row as the bot call does: the call waits for it and answers 409."""
    from games.errors import Conflict
    from games.models import BotAccount
    from games.services import accounts as account_services
    from games.services import games as game_services
    from tests.fixtures import SKIPBO_QUICK_OPTIONS, user

    carl, dora = user("carl"), user("dora")
    waiting = None
    if how == "join":
        waiting = game_services.game_create(
            user=dora, ruleset="skipbo", seats=2, options=SKIPBO_QUICK_OPTIONS
        )
    seated, release = threading.Event(), threading.Event()
    outcome: dict[str, object] = {}

    def take_a_seat() -> None:
        try:
            with transaction.atomic():
                if waiting is None:
                    game_services.game_create(
                        user=carl, ruleset="skipbo", seats=2, options=SKIPBO_QUICK_OPTIONS
                    )
                else:
                    game_services.game_join(game_id=waiting.id, user=carl)
                seated.set()
                release.wait(10)
        finally:
            connection.close()

    def become_a_bot() -> None:
        try:
            with transaction.atomic():
                account_services.bot_account_make(user=carl)
            outcome["bot"] = "made"
        except Conflict as exc:
            outcome["bot"] = exc.code
        finally:
            connection.close()

    seat = threading.Thread(target=take_a_seat)
    seat.start()
    assert seated.wait(10)
    bot = threading.Thread(target=become_a_bot)
    bot.start()
    bot.join(1.0)  # without the lock it is done by now, the seat still uncommitted
    release.set()
    seat.join(10)
    bot.join(10)
    assert outcome == {"bot": "has_played"}
    assert not BotAccount.objects.filter(user=carl).exists()


# --------------------------------------------------------------------------- caches


def test_api_answers_holding_a_players_cards_are_never_stored():
    """The table's page is sent ``no-store``, but the API's answers that hold the same
    cards (the game's ``state``, the events with a drawn card) had no Cache-Control at
    all: a browser (a shared computer's disk cache) or a proxy was free to keep them."""
    from tests.fixtures import start_skipbo, user

    ann, bob = user("ann"), user("bob")
    game = start_skipbo(ann, bob, turn_timeout=3600)
    api = APIClient()
    api.force_authenticate(ann)
    web = Client()
    web.force_login(ann)
    for client in (api, web):
        for path in (f"/api/games/{game.id}/", f"/api/games/{game.id}/events/", "/api/me/turns/"):
            answer = client.get(path)
            assert answer.status_code == 200, (path, answer.content)
            assert "no-store" in answer.get("Cache-Control", ""), (path, answer.headers)
    refused = api.get("/api/games/00000000-0000-0000-0000-000000000000/")
    assert refused.status_code == 404 and "no-store" in refused["Cache-Control"]


# --------------------------------------------------------------------------- players


@pytest.mark.parametrize("name", ["%00", "ann%00", "a%00b"])
def test_a_player_name_with_a_null_character_is_unknown_not_a_500(name):
    """``/api/players/%00/`` and the player page answered 500: PostgreSQL refuses a NUL
    in a query's string (SQLite just finds nobody). Now the unknown player's 404."""
    from tests.fixtures import user

    ann = user("ann")
    api = APIClient()
    api.force_authenticate(ann)
    answer = api.get(f"/api/players/{name}/")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found", answer.content
    assert Client().get(f"/players/{name}/").status_code == 404
