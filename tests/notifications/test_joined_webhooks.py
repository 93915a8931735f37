"""A rematch offered and a private game's seat taken reach webhooks, as they reach
push, under each player's per-kind webhook switch; a seat taken is never mailed (the
game's start is), a rematch offer is."""

from __future__ import annotations

import json

import pytest
from django.core import mail

from games.notifications import webhooks
from games.services import friends as friend_services
from games.services import games as game_services
from tests.fixtures import SKIPBO_QUICK, user
from tests.helpers import Receiver
from tests.notifications.common import client_for, private_game


def register(u, url: str) -> str:
    answer = client_for(u).put("/api/me/webhook/", {"url": url}, format="json")
    assert answer.status_code == 200, answer.content
    return answer.json()["secret"]


def received(receiver: Receiver, event: str) -> list[tuple[str, dict]]:
    found = [(r["path"], json.loads(r["body"]), r) for r in receiver.requests]
    return [(path, body) for path, body, _ in found if body["event"] == event]


@pytest.mark.django_db
def test_seat_taken_and_rematch_reach_webhooks_signed(
    eager, receiver, django_capture_on_commit_callbacks
):
    ann, bob = user("ann", "ann@example.org"), user("bob", "bob@example.org")
    ann_secret = register(ann, receiver.url + "/ann")
    bob_secret = register(bob, receiver.url + "/bob")
    with django_capture_on_commit_callbacks(execute=True):
        game = private_game(ann, decks=[SKIPBO_QUICK])
        game_services.game_join(game_id=game.id, user=bob, invite=game.invite)
    taken = received(receiver, "seat_taken")
    assert [(path, body["game_id"], body["seat"], body["by"]) for path, body in taken] == [
        ("/hook/ann", str(game.id), 0, "bob")
    ]
    request = next(r for r in receiver.requests if json.loads(r["body"])["event"] == "seat_taken")
    assert webhooks.verify(ann_secret, request["body"], request["headers"]["X-Pablo-Signature"])
    assert request["headers"]["X-Pablo-Event"] == "seat_taken"
    # never mailed: bob's join starts the game, and that "your turn" is
    assert [m.subject for m in mail.outbox] == ["Your turn in Skip-Bo"]
    for _ in range(5):  # ann plays out her stock of five: the game ends
        game_services.game_act(
            game_id=game.id, user=ann, command={"type": "play", "from": "stock", "pile": 0}
        )
    receiver.requests.clear()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        new, _ = friend_services.game_rematch(game_id=game.id, user=ann)
    offered = received(receiver, "rematch")
    assert [(path, body["game_id"], body["rematch_of"], body["by"]) for path, body in offered] == [
        ("/hook/bob", str(new.id), str(game.id), "ann")
    ]
    request = next(r for r in receiver.requests if json.loads(r["body"])["event"] == "rematch")
    assert webhooks.verify(bob_secret, request["body"], request["headers"]["X-Pablo-Signature"])
    assert [m.to for m in mail.outbox if "rematch" in m.body] == [["bob@example.org"]]


@pytest.mark.django_db
def test_the_webhook_switch_of_a_kind_is_honoured(
    eager, receiver, django_capture_on_commit_callbacks
):
    ann, bob = user("ann"), user("bob")
    register(ann, receiver.url)
    off = client_for(ann).patch(
        "/api/me/notifications/", {"kinds": {"seat_taken": {"webhook": False}}}, format="json"
    )
    assert off.status_code == 200 and off.json()["kinds"]["seat_taken"] == {
        "push": True,
        "webhook": False,
    }
    with django_capture_on_commit_callbacks(execute=True):
        game = private_game(ann)
        game_services.game_join(game_id=game.id, user=bob, invite=game.invite)
    assert received(receiver, "seat_taken") == []
    assert [b["event"] for _, b in received(receiver, "your_turn")] == ["your_turn"]  # still on


@pytest.mark.django_db
def test_a_seat_taken_has_no_email_switch():
    c = client_for(user("ann"))
    assert "email" not in c.get("/api/me/notifications/").json()["kinds"]["seat_taken"]
    answer = c.patch(
        "/api/me/notifications/", {"kinds": {"seat_taken": {"email": False}}}, format="json"
    )
    assert answer.status_code == 400 and "email" in answer.json()["detail"]
