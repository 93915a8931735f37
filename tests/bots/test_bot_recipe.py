"""One recipe for a bot's move (games/services/bots.py): a bot's task, a stand-in's and a
bot at its deadline all decide on a snapshot without the game's row lock, at their
level's budget, append at the snapshot's version and decide again on a conflict."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import rules
from games.models import Event, Game
from games.services import bots as bot_services
from games.services import games as game_services
from tests.fixtures import clock, user
from tests.helpers import state

LOOK = {"type": "look", "positions": [0, 1]}


def bot_game(ann, **options):
    """Pablo, ann in seat 0 and a basic bot in seat 1, in the setup phase (both must look)."""
    game = game_services.game_create(
        user=ann,
        ruleset="pablo",
        seats=2,
        options={"start_seat": 0, **options},
        bots=[{"seat": 1, "level": "basic"}],
    )
    return Game.objects.get(id=game.id)


def rows(game):
    return [(e.seq, e.type, e.seat) for e in Event.objects.filter(game=game).order_by("seq")]


def spy_decide(monkeypatch, during=None):
    """Record every decision of the recipe (level, budget, the game's version in the
    database as it decides); ``during()`` runs inside the first decision."""
    real = bot_services.decide
    calls = []

    def decide(level, ruleset, view, seat, rng, **budget):
        game_id = spy_decide.game_id
        calls.append((level, budget, Game.objects.get(id=game_id).version))
        if during is not None and len(calls) == 1:
            during()
        return real(level, ruleset, view, seat, rng, **budget)

    monkeypatch.setattr(bot_services, "decide", decide)
    return calls


@pytest.mark.django_db
def test_a_timed_out_seat_with_an_expert_stand_in_is_played_by_its_bot(monkeypatch, settings):
    """At its deadline the stand-in plays the absent player's turn (before, the seat timed
    out again) by the one recipe: at its configured level with that level's budget.

    (A branch had the deadline play a heavy level's move with the cheap policy, a second
    recipe; now the deadline of such a turn is heavy work and runs on the ``bots`` lane:
    tests/turns/test_deadline_lane.py.)"""
    settings.PABLO_EXPERT_ITERATIONS = 7
    ann, bob = user("ann"), user("bob")
    game = game_services.game_create(
        user=ann,
        ruleset="pablo",
        seats=2,
        options={"start_seat": 0, "stand_in": "expert", "max_timeouts": 1},
    )
    game_services.game_join(game_id=game.id, user=bob)
    game_services.game_act(game_id=game.id, user=ann, command=LOOK)
    setup = state(game)
    # bob never looks: the setup's deadline times him out, once is enough to be absent
    bot_services.game_timeout(game_id=game.id, turn_key=setup.turn_key)
    now = state(game)
    assert now.absent[1] and now.turn_seat == 0
    rulebook = rules.get_ruleset("pablo")
    for _ in range(5):  # ann's turn: draw, discard (and skip a power)
        now = state(game)
        if now.turn_seat != 0:
            break
        legal = {a["type"]: a for a in rulebook.legal_actions(now, 0)}
        kind = next((k for k in ("draw", "discard", "skip") if k in legal), None)
        if kind is None:  # a power that cannot be skipped (a random deal): its first choice
            action = next(iter(legal.values()))
            choices = action.get("choices") or {}
            body = {k: v for k, v in action.items() if k != "choices"}
            body |= {name: values[0] for name, values in choices.items()}
        else:
            body = {"type": kind, "source": "deck"} if kind == "draw" else {"type": kind}
        game_services.game_act(game_id=game.id, user=ann, command=body)
    turn = state(game)
    assert turn.turn_seat == 1 and turn.absent[1]
    before = len(rows(game))
    spy_decide.game_id = game.id
    calls = spy_decide(monkeypatch)

    with clock(timezone.now() + timedelta(seconds=turn.turn_timeout + 1)):
        stored = bot_services.game_timeout(game_id=game.id, turn_key=turn.turn_key)

    assert stored > 0
    assert calls and all(c[:2] == ("expert", {"iterations": 7}) for c in calls)
    after = rows(game)[before:]
    assert ("drawn", 1) in [(t, s) for _, t, s in after]  # the expert played bob's turn
    assert ("turn_timed_out", 1) not in [(t, s) for _, t, s in after]
    assert state(game).absent[1]  # a stand-in's move does not bring bob back


@pytest.mark.django_db
def test_a_bot_racing_a_persons_action_decides_again_and_never_applies_a_stale_move(
    monkeypatch,
):
    ann = user("ann")
    game = bot_game(ann)
    start = game.version
    spy_decide.game_id = game.id

    # A task for this version: ann looks while the bot decides -- the task is stale.
    calls = spy_decide(
        monkeypatch,
        during=lambda: game_services.game_act(game_id=game.id, user=ann, command=LOOK),
    )
    assert bot_services.game_bot_act(game_id=game.id, seat=1, version=start) == 0
    assert [c[2] for c in calls] == [start]
    assert [(t, s) for _, t, s in rows(game)[start:]] == [("looked", 0)]

    # At the deadline (the same setup turn): a move of ann's races the bot's decision;
    # the bot decides again on the new state and its look follows ann's.
    cy = user("cy")
    game = bot_game(cy)
    start = game.version
    turn_key = state(game).turn_key
    spy_decide.game_id = game.id
    calls = spy_decide(
        monkeypatch,
        during=lambda: game_services.game_act(game_id=game.id, user=cy, command=LOOK),
    )
    assert bot_services.game_timeout(game_id=game.id, turn_key=turn_key) > 0
    assert [c[2] for c in calls] == [start, start + 1]  # decided again after cy's look
    stored = rows(game)[start:]
    assert stored[:2] == [(start + 1, "looked", 0), (start + 2, "looked", 1)]
    assert "turn_timed_out" not in [t for _, t, _ in stored]


@pytest.mark.django_db(transaction=True)
def test_the_row_lock_is_not_held_while_a_bot_decides(require_postgres, monkeypatch):
    """Another writer's append goes through while the bot decides (before, it waited
    for the bot's whole decision behind the game's row lock)."""
    ann = user("ann")
    game = bot_game(ann)
    start = game.version
    done = threading.Event()

    def ann_looks():
        try:
            game_services.game_act(game_id=game.id, user=ann, command=LOOK)
            done.set()
        finally:
            connection.close()

    def during():
        other = threading.Thread(target=ann_looks)
        other.start()
        other.join(timeout=10)  # behind a lock held by the bot, this would time out

    spy_decide.game_id = game.id
    spy_decide(monkeypatch, during=during)
    bot_services.game_bot_act(game_id=game.id, seat=1, version=start)
    assert done.is_set()
    assert [(t, s) for _, t, s in rows(game)[start:]] == [("looked", 0)]
