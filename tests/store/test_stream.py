"""games/store/: the optimistic write on this process's last state, and its fallback."""

from __future__ import annotations

import pickle

import pytest

from games import errors, rules, store
from games.models import Event, Game
from games.selectors import games as game_selectors
from games.services import games as game_services
from games.store import cache
from tests.fixtures import start_skipbo

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def legal(game_id, users):
    """(user, a legal action of theirs) -- skipbo: play or end a turn."""
    game = Game.objects.get(pk=game_id)
    for user in users:
        for action in game_selectors.game_data(game=game, user=user)["state"]["legal_actions"]:
            body = {k: v for k, v in action.items() if k != "choices"}
            for name, values in (action.get("choices") or {}).items():
                body[name] = values[0]
            return user, body
    raise AssertionError("nobody can act")


def test_an_action_on_a_stale_process_cache_is_redone_on_the_locked_row(require_postgres, users):
    game = start_skipbo(*users[:2], quick=True)
    game_services.game_act(
        game_id=game.id, user=legal(game.id, users)[0], command=legal(game.id, users)[1]
    )
    old = store.latest(game.id)
    assert old is not None and not old.locked  # this process wrote it last
    user, body = legal(game.id, users)
    game_services.game_act(game_id=game.id, user=user, command=body)
    user, body = legal(game.id, users)
    # As if another process had written that last action: this one still believes `old`.
    store.clear_cache()
    cache._put(game.id, old.state)
    cache._rows[game.id] = old.game
    assert store.latest(game.id).version == old.version
    stale = []
    real_append = store.append

    def append(*args, **kwargs):
        try:
            return real_append(*args, **kwargs)
        except store.Stale:
            stale.append(True)
            raise

    store.append = append
    try:
        answer = game_services.game_act(game_id=game.id, user=user, command=body)
    finally:
        store.append = real_append
    assert stale == [True]  # the optimistic append found the game moved, stored nothing
    version = Game.objects.get(pk=game.id).version
    assert answer.data["version"] == version
    seqs = list(Event.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(1, version + 1))


def test_a_refusal_on_the_process_cache_is_confirmed_on_the_locked_row(require_postgres, users):
    game = start_skipbo(*users[:2], quick=True)
    user, body = legal(game.id, users)
    game_services.game_act(game_id=game.id, user=user, command=body)
    assert store.latest(game.id) is not None
    # users[2] has no seat in the cached state: 403, from the current game, and nothing stored
    version = Game.objects.get(pk=game.id).version
    with pytest.raises(errors.Forbidden):
        game_services.game_act(game_id=game.id, user=users[2], command=body)
    assert Game.objects.get(pk=game.id).version == version


def test_the_append_is_a_prepared_statement_that_survives_rollbacks(require_postgres, users):
    from django.db import connection, transaction

    game = start_skipbo(*users[:2], quick=True)
    for _ in range(2):
        user, body = legal(game.id, users)
        game_services.game_act(game_id=game.id, user=user, command=body)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("INSERT INTO games_event" in sql for sql in prepared)
    # A refused append (a stale expected version) rolls back; psycopg forgets its prepared
    # statements with it, and the next append prepares and stores again.
    user, body = legal(game.id, users)
    version = Game.objects.get(pk=game.id).version
    with pytest.raises(errors.Conflict), transaction.atomic():
        stream = store.lock(game.id)
        stream.version -= 1
        store.append(stream, [rules.Event("player_returned", {}, 0)])
    assert Game.objects.get(pk=game.id).version == version
    answer = game_services.game_act(game_id=game.id, user=user, command=body)
    assert answer.data["version"] > version
    seqs = list(Event.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(1, answer.data["version"] + 1))


# --------------------------------------------------------------------------- snapshots


PREFERENCE = ["look", "draw", "discard", "skip", "peek", "spy", "swap", "replace"]


def long_game(users):
    """A two-player Pablo game that goes on (nobody calls or throws)."""
    game = game_services.game_create(
        user=users[0], ruleset="pablo", seats=2, options={"start_seat": 0}
    )
    game_services.game_join(game_id=game.id, user=users[1])
    return game


def play_until(game_id, users, version):
    """Legal actions by a fixed preference until the game reaches ``version``."""
    game = Game.objects.get(pk=game_id)
    while game.version < version:
        assert game.status == "active"
        for user in users[:2]:
            actions = game_selectors.game_data(game=game, user=user)["state"]["legal_actions"]
            actions = [a for a in actions if a["type"] in PREFERENCE]
            if actions:
                actions.sort(key=lambda a: (PREFERENCE.index(a["type"]), a.get("source") != "deck"))
                body = dict(actions[0])
                for name, values in body.pop("choices", {}).items():
                    body[name] = values[0]
                game_services.game_act(game_id=game_id, user=user, command=body)
                break
        else:
            raise AssertionError("nobody can act")
        game = Game.objects.get(pk=game_id)
    return game


def full_fold(game):
    rows = Event.objects.filter(game=game).order_by("seq")
    return rules.fold(store.to_engine(row) for row in rows)


def test_a_long_game_loads_from_its_snapshot_and_the_events_after_it(require_postgres, users):
    from games.models import Snapshot

    game = play_until(long_game(users).id, users, store.SNAPSHOT_EVERY + 20)
    snapshot = Snapshot.objects.get(game=game)  # the append that crossed 100 wrote it
    assert snapshot.version >= store.SNAPSHOT_EVERY
    assert snapshot.code == store.code_version()
    assert snapshot.version < game.version
    store.clear_cache()
    loaded = store.state(game)
    assert loaded == full_fold(game)
    # The load started from the snapshot: a tampered one (same rules' code) shows through.
    tampered = pickle.loads(bytes(snapshot.state))
    tampered.options = {**tampered.options, "tampered": True}
    Snapshot.objects.filter(game=game).update(state=pickle.dumps(tampered))
    store.clear_cache()
    assert store.state(game).options["tampered"] is True
    # A snapshot of other rules' code is ignored.
    Snapshot.objects.filter(game=game).update(code="other rules")
    store.clear_cache()
    assert store.state(game) == full_fold(game)  # ignored: folded from the start
    # ... and that load folded more than SNAPSHOT_EVERY events: it kept a new snapshot.
    snapshot = Snapshot.objects.get(game=game)
    assert (snapshot.code, snapshot.version) == (store.code_version(), game.version)
    # An action on the loaded state stores the right events.
    store.clear_cache()
    game = play_until(game.id, users, game.version + 1)
    assert store.state(game) == full_fold(game)


def test_rebuilding_the_projection_drops_the_snapshot(require_postgres, users):
    from games.models import Snapshot

    game = play_until(long_game(users).id, users, store.SNAPSHOT_EVERY + 1)
    assert Snapshot.objects.filter(game=game).exists()
    game_services.game_rebuild_projection(game_id=game.id)
    assert not Snapshot.objects.filter(game=game).exists()
    store.clear_cache()
    assert store.state(Game.objects.get(pk=game.id)) == full_fold(game)
