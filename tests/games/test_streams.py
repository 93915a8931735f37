"""games/streams.py: the optimistic write on this process's last state, and its fallback."""

from __future__ import annotations

import pytest

from games import selectors, services, streams
from games.models import Event, Game
from tests.games.conftest import start_skipbo

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def legal(game_id, users):
    """(user, a legal action of theirs) -- skipbo: play or end a turn."""
    game = Game.objects.get(pk=game_id)
    for user in users:
        for action in selectors.game_data(game=game, user=user)["state"]["legal_actions"]:
            body = {k: v for k, v in action.items() if k != "choices"}
            for name, values in (action.get("choices") or {}).items():
                body[name] = values[0]
            return user, body
    raise AssertionError("nobody can act")


def test_an_action_on_a_stale_process_cache_is_redone_on_the_locked_row(require_postgres, users):
    game = start_skipbo(users)
    services.game_act(
        game_id=game.id, user=legal(game.id, users)[0], command=legal(game.id, users)[1]
    )
    old = streams.latest(game.id)
    assert old is not None and not old.locked  # this process wrote it last
    user, body = legal(game.id, users)
    services.game_act(game_id=game.id, user=user, command=body)
    user, body = legal(game.id, users)
    # As if another process had written that last action: this one still believes `old`.
    streams.clear_cache()
    streams._cache_put(game.id, old.state)
    streams._rows[game.id] = old.game
    assert streams.latest(game.id).version == old.version
    stale = []
    real_store = streams._store

    def store(*args, **kwargs):
        try:
            return real_store(*args, **kwargs)
        except streams.Stale:
            stale.append(True)
            raise

    streams._store = store
    try:
        answer = services.game_act(game_id=game.id, user=user, command=body)
    finally:
        streams._store = real_store
    assert stale == [True]  # the optimistic append found the game moved, stored nothing
    version = Game.objects.get(pk=game.id).version
    assert answer.data["version"] == version
    seqs = list(Event.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(1, version + 1))


def test_a_refusal_on_the_process_cache_is_confirmed_on_the_locked_row(require_postgres, users):
    game = start_skipbo(users)
    user, body = legal(game.id, users)
    services.game_act(game_id=game.id, user=user, command=body)
    assert streams.latest(game.id) is not None
    # users[2] has no seat in the cached state: 403, from the current game, and nothing stored
    version = Game.objects.get(pk=game.id).version
    with pytest.raises(services.errors.Forbidden):
        services.game_act(game_id=game.id, user=users[2], command=body)
    assert Game.objects.get(pk=game.id).version == version


def test_the_append_is_a_prepared_statement_that_survives_rollbacks(require_postgres, users):
    from django.db import connection, transaction

    game = start_skipbo(users)
    for _ in range(2):
        user, body = legal(game.id, users)
        services.game_act(game_id=game.id, user=user, command=body)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("INSERT INTO games_event" in sql for sql in prepared)
    # A refused append (a stale expected version) rolls back; psycopg forgets its prepared
    # statements with it, and the next append prepares and stores again.
    user, body = legal(game.id, users)
    version = Game.objects.get(pk=game.id).version
    with pytest.raises(services.errors.Conflict), transaction.atomic():
        stream = streams.lock(game.id)
        stream.version -= 1
        streams.append(stream, [streams.engine.Event("player_returned", {}, 0)])
    assert Game.objects.get(pk=game.id).version == version
    answer = services.game_act(game_id=game.id, user=user, command=body)
    assert answer.data["version"] > version
    seqs = list(Event.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(1, answer.data["version"] + 1))
