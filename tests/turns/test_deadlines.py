"""The deadline sweep and enforcement against the real database (no Celery worker).

Games are made overdue by creating them with the services' clock set back
(``helpers.clock``): a Skip-Bo game created 61 s ago with a 60 s turn has a
deadline 1 s in the past. The sweep compares with the database's clock.
"""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from games import rules
from games.errors import ApplicationError
from games.models import Event, Game
from games.rules import RulesError
from games.services import bots as bot_services
from games.services import games as game_services
from games.turns import deadlines
from tests.fixtures import clock, start_skipbo, user
from tests.helpers import state, timeouts_per_turn, timeouts_per_turn_of, types


@pytest.fixture
def ann(db):
    return user("ann")


@pytest.fixture
def bob(db):
    return user("bob")


@pytest.mark.django_db
def test_sweep_times_out_an_overdue_turn_once_and_passes_it_on(ann, bob):
    game = start_skipbo(ann, bob, turn_timeout=60, ago=61)  # deadline 1 s ago
    first_key = game.turn_key
    assert state(game).turn_key == first_key
    assert deadlines.sweep() == 1
    game.refresh_from_db()
    view = rules.view(state(game), 1)
    assert view["turn"]["seat"] == 1  # seat 0 timed out: the next player is on turn
    assert game.turn_key != first_key
    # RULES §8 Skip-Bo: the first hand card goes onto the first empty discard pile
    assert view["discards"]["0"][0] != [] and view["discards"]["0"][1:] == [[], [], []]
    assert timeouts_per_turn(game.id) == {(first_key, 0): 1}
    # the new deadline is a full turn from now: nothing more is due
    assert game.deadline > timezone.now() + timedelta(seconds=55)
    assert deadlines.sweep() == 0
    assert types(game).count("turn_timed_out") == 1


@pytest.mark.django_db
def test_sweep_leaves_games_that_are_not_due(ann, bob):
    game = start_skipbo(ann, bob, turn_timeout=60, ago=50)  # deadline 10 s ahead
    assert deadlines.sweep() == 0
    assert "turn_timed_out" not in types(game)


@pytest.mark.django_db
def test_a_stale_turn_key_stores_nothing(ann, bob):
    game = start_skipbo(ann, bob, turn_timeout=60, ago=61)
    version = game.version
    assert bot_services.game_timeout(game_id=game.id, turn_key="not-this-turn") == 0
    # the fast path checks the key and the time before it locks anything
    assert deadlines.enforce(game_id=game.id, turn_key="not-this-turn") == 0
    game.refresh_from_db()
    assert game.version == version


@pytest.mark.django_db
def test_fast_path_enforces_only_when_due(ann, bob, monkeypatch):
    scheduled: list[dict[str, Any]] = []
    monkeypatch.setattr(
        deadlines, "schedule_fast_path", lambda **kwargs: scheduled.append(kwargs) or True
    )
    game = start_skipbo(ann, bob, turn_timeout=60, ago=30)  # 30 s left
    # a worker whose clock runs early re-schedules instead of acting
    assert deadlines.enforce(game_id=game.id, turn_key=game.turn_key) == 0
    assert scheduled[-1]["deadline"] == game.deadline and scheduled[-1]["force"] is True
    overdue = start_skipbo(user("cy"), user("di"), turn_timeout=60, ago=61)
    assert deadlines.enforce(game_id=overdue.id, turn_key=overdue.turn_key) > 0
    assert timeouts_per_turn(overdue.id) == {(overdue.turn_key, 0): 1}


@pytest.mark.django_db
def test_absent_players_are_marked_and_a_game_of_absentees_is_aborted(ann, bob):
    # max_timeouts 1: one timeout marks a player absent (RULES §8)
    game = start_skipbo(ann, bob, turn_timeout=60, ago=1000, max_timeouts=1)
    # enforce with the clock set back too, so that seat 1's new deadline is overdue as well
    with clock(timezone.now() - timedelta(seconds=500)):
        assert deadlines.sweep() == 1
    after_first = types(game)
    assert "player_absent" in after_first and "game_aborted" not in after_first
    assert state(game).absent == [True, False]
    assert deadlines.sweep() == 1  # seat 1's (overdue) turn
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.deadline is None
    tail = types(game)[len(after_first) :]
    assert tail[0] == "turn_timed_out" and tail[-2:] == ["player_absent", "game_aborted"]
    assert deadlines.sweep() == 0


@pytest.mark.django_db
def test_absent_player_turns_are_played_at_once(ann, bob):
    cy = user("cy")
    options = {"start_seat": 0, "max_timeouts": 1}
    with clock(timezone.now() - timedelta(seconds=1000)):
        game = game_services.game_create(
            user=ann, ruleset="skipbo", seats=3, turn_timeout=60, options=options
        )
        game_services.game_join(game_id=game.id, user=bob)
        game_services.game_join(game_id=game.id, user=cy)
        assert deadlines.sweep() == 1  # seat 0 absent; seat 1's deadline overdue as well
    assert deadlines.sweep() == 1  # seat 1 absent; seat 2 on turn, deadline ahead
    assert state(game).absent == [True, True, False]
    hand = rules.view(state(game), 2)["hand"]
    answer = game_services.game_act(
        game_id=game.id, user=cy, command={"type": "end", "card": hand[0], "discard_pile": 0}
    )
    kinds = [e["type"] for e in answer.data["events"]]
    # seat 2 ends; seats 0 and 1 are played at once; seat 2 is on turn again
    assert kinds.count("turn_timed_out") == 2
    assert kinds[-1] == "deadline_set"
    assert answer.data["game"]["state"]["turn"]["seat"] == 2


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_enforce_200_games_exactly_once(require_postgres):
    players = [user(f"p{i}") for i in range(4)]
    games = [
        start_skipbo(players[i % 2], players[2 + i % 2], turn_timeout=60, ago=61)
        for i in range(200)
    ]
    barrier = threading.Barrier(2)
    counts: list[int] = []

    def run() -> None:
        try:
            barrier.wait()
            counts.append(deadlines.sweep(batch=10))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sum(counts) == 200, counts
    assert min(counts) > 0, counts  # both sweeps took part (SKIP LOCKED split the work)
    assert Event.objects.filter(type="turn_timed_out").count() == 200
    counts = timeouts_per_turn_of([game.id for game in games])
    for game in games:
        assert counts.get(str(game.id)) == {(game.turn_key, 0): 1}


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_an_action_racing_its_own_timeout_stores_exactly_one(require_postgres):
    ann, bob = user("ann"), user("bob")
    outcomes = set()
    for _ in range(12):
        game = start_skipbo(ann, bob, turn_timeout=60, ago=61)
        key = game.turn_key
        hand = rules.view(state(game), 0)["hand"]
        barrier = threading.Barrier(2)
        result: dict[str, Any] = {}

        def act(game=game, hand=hand, barrier=barrier, result=result) -> None:
            try:
                barrier.wait()
                command = {"type": "end", "card": hand[0], "discard_pile": 1}
                game_services.game_act(game_id=game.id, user=ann, command=command)
                result["act"] = True
            except (RulesError, ApplicationError):
                result["act"] = False
            finally:
                connection.close()

        def sweep(barrier=barrier, result=result) -> None:
            try:
                barrier.wait()
                result["sweep"] = deadlines.sweep()
            finally:
                connection.close()

        threads = [threading.Thread(target=act), threading.Thread(target=sweep)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        timed_out = timeouts_per_turn(game.id).get((key, 0), 0)
        assert result["act"] != bool(timed_out), result
        assert timed_out == result["sweep"] <= 1
        rows = list(Event.objects.filter(game=game).order_by("seq").values_list("type", "data"))
        # exactly one of them ended turn `key`: one deadline_set follows it
        keys = [data["key"] for kind, data in rows if kind == "deadline_set"]
        assert keys.count(key) == 1 and len(keys) == 2
        outcomes.add("act" if result["act"] else "timeout")
    print("race outcomes:", outcomes)  # which one wins is up to the scheduler


@pytest.mark.django_db
def test_a_game_whose_rules_fail_does_not_stop_the_batch(ann, bob, monkeypatch):
    good = [start_skipbo(ann, bob, turn_timeout=60, ago=61) for _ in range(3)]
    bad = start_skipbo(user("cy"), user("di"), turn_timeout=60, ago=62)
    real = rules.timeout_in_place  # (the services time a stream's own state out)

    def timeout(state, key, ctx):
        if state.players == ["cy", "di"]:
            raise RuntimeError("a ruleset bug")
        return real(state, key, ctx)

    monkeypatch.setattr(rules, "timeout_in_place", timeout)
    assert deadlines.sweep() == 3
    assert "turn_timed_out" not in types(bad)
    assert all(timeouts_per_turn(g.id) == {(g.turn_key, 0): 1} for g in good)
    monkeypatch.setattr(rules, "timeout_in_place", real)
    assert deadlines.sweep() == 1  # fixed: the next sweep takes it
    assert timeouts_per_turn(bad.id) == {(bad.turn_key, 0): 1}


@pytest.mark.django_db
def test_a_failing_batch_is_enforced_game_by_game(ann, bob, monkeypatch):
    games = [start_skipbo(ann, bob, turn_timeout=60, ago=61) for _ in range(3)]

    def broken(**kwargs):
        Event.objects.create(game=games[0], seq=1, type="clash")  # poisons the savepoint
        raise AssertionError("unreachable")

    monkeypatch.setattr(bot_services, "game_timeout_many", broken)
    assert deadlines.sweep() == 3
    assert all(timeouts_per_turn(g.id) == {(g.turn_key, 0): 1} for g in games)


@pytest.mark.django_db
@pytest.mark.parametrize("ruleset", ["pablo", "pablo-50", "cabo"])
def test_setup_phase_times_out_every_player_who_has_not_looked(ruleset, ann, bob):
    with clock(timezone.now() - timedelta(seconds=61)):
        game = game_services.game_create(
            user=ann, ruleset=ruleset, seats=2, turn_timeout=60, options={"start_seat": 0}
        )
        game_services.game_join(game_id=game.id, user=bob)
    game.refresh_from_db()
    setup_key = game.turn_key
    assert rules.view(state(game), 0)["phase"] == "setup"
    game_services.game_act(game_id=game.id, user=bob, command={"type": "look", "positions": [2, 3]})
    assert deadlines.sweep() == 1
    # only ann had not looked: she is acted for (slots 0 and 1), then play begins with seat 0
    assert timeouts_per_turn(game.id) == {(setup_key, 0): 1}
    view = rules.view(state(game), 0)
    assert view["phase"] == "turn" and view["turn"]["seat"] == 0
    assert view["fields"]["0"][:2] != ["?", "?"]  # she knows slots 0 and 1 now


@pytest.mark.django_db
@pytest.mark.parametrize("ruleset", ["pablo", "pablo-50", "tamalou", "cabo"])
def test_family_turn_times_out_with_draw_and_discard(ruleset, ann, bob):
    with clock(timezone.now() - timedelta(seconds=200)):
        game = game_services.game_create(
            user=ann, ruleset=ruleset, seats=2, turn_timeout=60, options={"start_seat": 0}
        )
        game_services.game_join(game_id=game.id, user=bob)
        if ruleset != "tamalou":  # tamalou has no setup phase
            for u in (ann, bob):
                look = {"type": "look", "positions": [0, 1]}
                game_services.game_act(game_id=game.id, user=u, command=look)
    game.refresh_from_db()
    key = game.turn_key
    before = rules.view(state(game), None)["discard"]["count"]
    assert deadlines.sweep() == 1
    assert timeouts_per_turn(game.id) == {(key, 0): 1}
    view = rules.view(state(game), None)
    # RULES §8: nothing drawn -> draw from the pile and discard it: one more on the discard pile
    assert view["discard"]["count"] == before + 1
    assert view["turn"]["seat"] == 1
