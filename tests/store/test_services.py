"""games.services: appends, projection, signal on commit, timeouts, rebuild, races."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games import rules
from games.errors import ApplicationError, Conflict, Forbidden, NotFound
from games.models import Event, Game
from games.selectors import games as game_selectors
from games.services import bots as bot_services
from games.services import games as game_services
from games.store import cache
from games.store.signals import events_appended
from tests.fixtures import STOCK_TO_PILE_0

pytestmark = pytest.mark.django_db

PROJECTION = ("status", "version", "turn_key", "deadline", "result", "finished_at")


def projection(game_id):
    return Game.objects.filter(pk=game_id).values(*PROJECTION).get()


def test_act_appends_with_consecutive_seqs_and_projects(users, skipbo_game):
    version = skipbo_game.version
    answer = game_services.game_act(game_id=skipbo_game.id, user=users[0], command=STOCK_TO_PILE_0)
    assert not answer.replayed
    assert answer.data["version"] == version + 1
    seqs = list(Event.objects.filter(game=skipbo_game).values_list("seq", flat=True))
    assert seqs == list(range(1, version + 2))
    skipbo_game.refresh_from_db()
    assert skipbo_game.version == version + 1
    # The deadline on the row is the one in the last deadline_set event.
    last = Event.objects.filter(game=skipbo_game, type="deadline_set").last()
    assert rules.iso(skipbo_game.deadline) == last.data["deadline"]
    assert skipbo_game.turn_key == last.data["key"]


def test_signal_is_sent_on_commit_with_the_new_rows(
    users, skipbo_game, django_capture_on_commit_callbacks
):
    seen = []

    def receiver(sender, game_id, version, events, **kwargs):
        seen.append((game_id, version, [e.seq for e in events], [e.type for e in events]))

    events_appended.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            game_services.game_act(game_id=skipbo_game.id, user=users[0], command=STOCK_TO_PILE_0)
        assert seen == []  # nothing before the commit
        for callback in callbacks:
            callback()
    finally:
        events_appended.disconnect(receiver)
    v = skipbo_game.version + 1
    assert seen == [(skipbo_game.id, v, [v], ["card_played"])]


def test_a_failing_receiver_does_not_fail_the_write(
    users, skipbo_game, django_capture_on_commit_callbacks
):
    def broken(**kwargs):
        raise RuntimeError("boom")

    events_appended.connect(broken)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            answer = game_services.game_act(
                game_id=skipbo_game.id, user=users[0], command=STOCK_TO_PILE_0
            )
    finally:
        events_appended.disconnect(broken)
    assert not answer.replayed


def test_refusals(users, skipbo_game):
    with pytest.raises(NotFound):
        game_services.game_act(game_id="nope", user=users[0], command=STOCK_TO_PILE_0)
    with pytest.raises(Forbidden):
        game_services.game_act(game_id=skipbo_game.id, user=users[3], command=STOCK_TO_PILE_0)
    with pytest.raises(Conflict) as conflict:
        game_services.game_act(
            game_id=skipbo_game.id, user=users[0], command=STOCK_TO_PILE_0, expected_version=1
        )
    assert conflict.value.code == "version_conflict"
    with pytest.raises(ApplicationError):
        game_services.game_create(user=users[0], ruleset="skipbo", seats=2, turn_timeout=0)


def test_a_lost_race_on_the_unique_seq_is_a_version_conflict(users, skipbo_game):
    # Someone appended seq version+1 behind the projection's back: the append clashes.
    version = skipbo_game.version
    Event.objects.create(game=skipbo_game, seq=version + 1, type="intruder", data={})
    with pytest.raises(Conflict) as conflict:
        game_services.game_act(game_id=skipbo_game.id, user=users[0], command=STOCK_TO_PILE_0)
    assert conflict.value.code == "version_conflict"
    assert Event.objects.filter(game=skipbo_game).count() == version + 1  # only the intruder
    assert Game.objects.get(pk=skipbo_game.id).version == version


def test_timeout_stale_key_stores_nothing(skipbo_game):
    assert bot_services.game_timeout(game_id=skipbo_game.id, turn_key="not-the-key") == 0
    assert (
        bot_services.game_timeout(game_id="00000000-0000-0000-0000-000000000000", turn_key="k") == 0
    )
    assert Game.objects.get(pk=skipbo_game.id).version == skipbo_game.version


def test_timeout_plays_for_the_player_once(skipbo_game):
    key = skipbo_game.turn_key
    stored = bot_services.game_timeout(game_id=skipbo_game.id, turn_key=key)
    assert stored > 0
    new = Event.objects.filter(game=skipbo_game, seq__gt=skipbo_game.version).order_by("seq")
    assert new[0].type == "turn_timed_out"
    assert new[0].seat == 0
    # RULES.md §8: the first hand card (a 7) onto the first empty discard pile (0).
    discarded = next(e for e in new if e.type == "card_discarded")
    assert (discarded.data["code"], discarded.data["discard_pile"]) == ("7", 0)
    game = Game.objects.get(pk=skipbo_game.id)
    assert game.version == skipbo_game.version + stored
    assert game.turn_key != key
    # A repeat (second sweep, redelivered task) finds the key moved on.
    assert bot_services.game_timeout(game_id=skipbo_game.id, turn_key=key) == 0


def test_timeout_inside_an_outer_transaction_holding_the_lock(skipbo_game):
    with transaction.atomic():
        locked = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(deadline__lte=timezone.now() + timedelta(days=2))
            .get(pk=skipbo_game.id)
        )
        assert bot_services.game_timeout(game_id=locked.id, turn_key=locked.turn_key) > 0
    assert Game.objects.get(pk=skipbo_game.id).version > skipbo_game.version


def test_rebuild_projection_equals_the_live_projection(users, skipbo_game):
    gid = skipbo_game.id
    game_services.game_act(game_id=gid, user=users[0], command=STOCK_TO_PILE_0)
    bot_services.game_timeout(game_id=gid, turn_key=Game.objects.get(pk=gid).turn_key)
    live = projection(gid)
    Game.objects.filter(pk=gid).update(status="waiting", version=0, turn_key="", deadline=None)
    game_services.game_rebuild_projection(game_id=gid)
    assert projection(gid) == live


def test_rebuild_projection_of_a_finished_game(users, skipbo_game):
    gid = skipbo_game.id
    for _ in range(5):
        game_services.game_act(game_id=gid, user=users[0], command=STOCK_TO_PILE_0)
    live = projection(gid)
    assert live["status"] == "finished"
    assert live["result"] == {"winners": [0], "losers": []}
    assert live["deadline"] is None
    assert live["finished_at"] == Event.objects.get(game_id=gid, type="game_finished").created_at
    Game.objects.filter(pk=gid).update(status="active", finished_at=None, result=None)
    game_services.game_rebuild_projection(game_id=gid)
    assert projection(gid) == live


def test_game_state_cache_hands_out_copies(users, skipbo_game):
    state = game_selectors.game_state(game=skipbo_game)
    cache._put(skipbo_game.id, state.copy())
    first = game_selectors.game_state(game=skipbo_game)
    first.scores[0] = 999
    again = game_selectors.game_state(game=skipbo_game)
    assert again.scores[0] != 999
    assert again == rules.fold(game_selectors.game_events(skipbo_game))
    # A newer version folds on from the cached one.
    game_services.game_act(game_id=skipbo_game.id, user=users[0], command=STOCK_TO_PILE_0)
    skipbo_game.refresh_from_db()
    assert game_selectors.game_state(game=skipbo_game) == rules.fold(
        game_selectors.game_events(skipbo_game)
    )


def test_game_events_reads_the_stream(skipbo_game):
    events = game_selectors.game_events(skipbo_game)
    assert len(events) == skipbo_game.version
    assert isinstance(events[0], rules.Event)
    assert events[0].type == "game_created"
    assert events[1] == rules.Event("player_joined", {"seat": 0, "username": "u0"}, 0)
