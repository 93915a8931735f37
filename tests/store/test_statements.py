"""The statements of an action's POST, counted: exactly what docs/design.md says.

Transactional tests (``transaction=True``): as in production, no transaction is
open around the request, so the receivers of ``events_appended`` run inside
it (``on_commit`` with nothing to wait for) and their queries count too.

What an action costs now, and why (the counts changed when the branches of
2026-11-27 met; each change is one the code means to make):

* **The token from memory, as before -- once its user's last save is older than
  ``games.tokens.MARGIN``.** The token cache checks the user's change mark, and an
  entry read less than ``MARGIN`` (5 s) after the user's last save goes to the
  database again (a save's mark is written before its commit, and machines' clocks
  differ). A test that signs ann up and acts within a second met that window, not a
  regression: ``_player`` ages the mark as if ann had signed up a minute ago.
* **The ordering lock of the log costs no statement**: it is taken inside the
  append's one statement (``pg_advisory_xact_lock`` in a ``LATERAL``), checked below.
* **The answer's players' ``bot_account``** (docs/programs.md) is read once per
  process and player, then kept (``games.selectors.accounts.bot_account_names``):
  only an account that has never sat may become a program's, so a seated player's
  answer does not change. Read every time, it was a third of ``game_act``. A process
  that has not met the players reads it once -- one indexed query over the game's
  usernames, after the append (optimistic path) or before COMMIT (locked path).

So: this process wrote the game last -> the CTE alone (1); otherwise BEGIN, the
lock, the load, the CTE, COMMIT (5); plus the players' read in a process that has
not met them.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import followers, rules, store, tokens
from games.models import Game
from games.selectors import bots as bot_selectors
from games.selectors import games as game_selectors
from games.selectors.accounts import bot_accounts_forget
from games.services import bots as bot_services
from games.services import games as game_services
from games.store import write as store_write
from tests.fixtures import SKIPBO_QUICK

pytestmark = pytest.mark.django_db(transaction=True)


def _player(name: str, email: str = "") -> tuple[object, APIClient]:
    user = get_user_model().objects.create_user(username=name, password="secret-pw", email=email)
    # signed up a minute ago: past the token cache's margin after a user's save
    caches["default"].set(tokens.user_mark(user.pk), tokens.wall_ms() - 60_000)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return user, client


def _game(ann: object, bob: object, **create: object) -> Game:
    game = game_services.game_create(
        user=ann,
        ruleset="skipbo",
        seats=2,
        options={"start_seat": 0, "stock_size": 5},
        decks=[SKIPBO_QUICK],
        **create,
    )
    game_services.game_join(game_id=game.id, user=bob)
    return Game.objects.get(pk=game.id)


def _post(client: APIClient, game: Game, body: dict) -> list[str]:
    """POST the action; the SQL statements it ran."""
    with CaptureQueriesContext(connection) as ran:
        answer = client.post(f"/api/games/{game.id}/actions/", body, format="json")
    assert answer.status_code == 201, answer.content
    return [q["sql"] for q in ran.captured_queries]


def _warm(client: APIClient, game: Game) -> None:
    """A first request: the token enters the per-process cache."""
    assert client.get(f"/api/games/{game.id}/").status_code == 200


def _players_are_read(sql: str) -> bool:
    """The answer's read of which players are programs' accounts (module docstring)."""
    return sql.lstrip().startswith("SELECT") and "games_botaccount" in sql


def test_an_action_this_process_wrote_last_is_one_statement(require_postgres):
    ann, ann_client = _player("ann")
    bob, _ = _player("bob")
    game = _game(ann, bob)
    _warm(ann_client, game)
    ran = _post(ann_client, game, {"type": "play", "from": "stock", "pile": 0})
    # No bots, no deadline near, nobody listening: the receivers read nothing. The
    # append is one statement, the log's ordering lock inside it; the players' flags
    # were read by the first request.
    assert len(ran) == 1, ran
    assert ran[0].lstrip().startswith("WITH bumped AS")
    assert "pg_advisory_xact_lock" in ran[0]


def test_a_process_that_has_not_met_the_players_reads_their_flags_once(require_postgres):
    ann, ann_client = _player("ann")
    bob, _ = _player("bob")
    game = _game(ann, bob)
    _warm(ann_client, game)
    bot_accounts_forget()  # as a new process
    ran = _post(ann_client, game, {"type": "play", "from": "stock", "pile": 0})
    assert len(ran) == 2 and _players_are_read(ran[1]), ran
    ran = _post(ann_client, game, {"type": "play", "from": "stock", "pile": 0})
    assert len(ran) == 1, ran


def test_an_action_on_a_game_this_process_has_not_seen_takes_the_lock(require_postgres):
    ann, ann_client = _player("ann")
    bob, _ = _player("bob")
    game = _game(ann, bob)
    _warm(ann_client, game)
    store.clear_cache()  # as if another process had written the game last
    ran = _post(ann_client, game, {"type": "play", "from": "stock", "pile": 0})
    kinds = [q.split()[0].upper() for q in ran]
    # The lock, the load (the snapshot and the events after it in one statement), the
    # append (one statement), in one transaction.
    assert kinds == ["BEGIN", "SELECT", "SELECT", "WITH", "COMMIT"], ran
    assert ran[1].rstrip().endswith("FOR UPDATE")
    assert "games_snapshot" in ran[2]


def test_the_bots_receiver_reads_nothing_in_a_game_without_bots(require_postgres):
    ann, ann_client = _player("ann")
    bob, _ = _player("bob")
    game = _game(ann, bob)
    _warm(ann_client, game)
    state = game_selectors.game_state(game=game)
    assert bot_selectors.bot_seats(state) == {}
    ran = _post(ann_client, game, {"type": "play", "from": "stock", "pile": 0})
    assert not any("games_game" in q and q.lstrip().upper().startswith("SELECT") for q in ran)


def test_a_listener_costs_the_action_nothing(require_postgres, monkeypatch):
    ann, ann_client = _player("ann")
    bob, _ = _player("bob", email="bob@example.org")
    game = _game(ann, bob)
    _warm(ann_client, game)
    sent = []
    monkeypatch.setattr("games.outbox.send", lambda *a, **k: sent.append((a, k)))
    # Ending the turn sets bob's deadline: "your turn" for bob, who has an address; the
    # log's notifications follower sends it, out of the request.
    ran = _post(ann_client, game, {"type": "end", "card": "7", "discard_pile": 0})
    assert len(ran) == 1, ran  # as without a listener
    assert sent == []
    followers.follow(next(f for f in followers.registered() if f.name == "notifications"))
    # (the follower writes the notice; "games.send_mail" mails it: notify branch)
    assert [a[0] for a, _ in sent] == ["games.send_mail"]


def test_a_bots_move_is_evolved_by_the_rules_alone(monkeypatch):
    """The rules evolve the stream's private state in place; the store applies nothing
    again (it would through ``rules.apply``)."""
    ann, _ = _player("ann")
    game = game_services.game_create(
        user=ann, ruleset="cabo", seats=2, bots=[{"seat": 1, "level": "basic"}]
    )
    game = Game.objects.get(pk=game.id)
    state = game_selectors.game_state(game=game)
    assert 1 in bot_selectors.bots_due(state)
    applied = []
    real = store_write.rules.apply
    monkeypatch.setattr(store_write.rules, "apply", lambda s, e: applied.append(e) or real(s, e))
    stored = bot_services.game_bot_act(game_id=game.id, seat=1, version=game.version)
    assert stored > 0 and applied == []
    after = Game.objects.get(pk=game.id)
    assert game_selectors.game_state(game=after) == rules.fold(game_selectors.game_events(after))


@pytest.mark.parametrize("seen_before", [True, False], ids=["optimistic", "locked"])
def test_an_actions_events_are_evolved_by_the_rules_alone(monkeypatch, seen_before):
    """A player's action: the rules evolve the stream's private state in place and redact
    each event for the actor as they go (``rules.act_seen``); the store applies nothing
    again, and the answer is what stepping the events from the old state gives."""
    ann, _ = _player("ann")
    bob, _ = _player("bob")
    game = _game(ann, bob)
    before = game_selectors.game_state(game=game)
    if not seen_before:
        store.clear_cache()  # as if another process had written the game last
    applied = []
    real = store_write.rules.apply
    monkeypatch.setattr(store_write.rules, "apply", lambda s, e: applied.append(e) or real(s, e))
    answer = game_services.game_act(
        game_id=game.id, user=ann, command={"type": "play", "from": "stock", "pile": 0}
    )
    monkeypatch.undo()
    assert applied == []
    events = game_selectors.game_events(Game.objects.get(pk=game.id))[before.version :]
    assert len(events) == len(answer.data["events"]) > 0
    stepped = before.copy()
    for event, shown in zip(events, answer.data["events"], strict=True):
        assert shown["type"] == event.type
        assert shown["data"] == rules.event_view(stepped, event, 0)
        rules.apply(stepped, event)
    after = Game.objects.get(pk=game.id)
    assert answer.data["version"] == after.version == stepped.version
    assert (
        game_selectors.game_state(game=after)
        == stepped
        == rules.fold(game_selectors.game_events(after))
    )


@pytest.mark.parametrize("path", ["one", "batch"])
def test_a_timeouts_events_are_evolved_by_the_rules_alone(monkeypatch, path):
    """A timeout (issue 24: "timeouts applied twice"): the rules evolve the stream's
    private state as they emit the events (``rules.timeout_in_place``), for one game
    (``game_timeout_rest``) and for the sweep's batch (``store.append_many``); the store
    applies nothing again, and the stored state is the events' fold."""
    ann, _ = _player("ann")
    bob, _ = _player("bob")
    game = _game(ann, bob)
    turn_key = game_selectors.game_state(game=game).turn_key
    store.clear_cache()  # the batch loads from the snapshot and the events
    applied = []
    real = rules.apply
    monkeypatch.setattr(rules, "apply", lambda s, e: applied.append(e) or real(s, e))
    if path == "one":
        stored = bot_services.game_timeout_rest(game_id=game.id, turn_key=turn_key)
    else:
        with transaction.atomic():
            locked = list(Game.objects.select_for_update().filter(pk=game.id))
            counts, waiting = bot_services.game_timeout_many(games=locked)
        stored = counts[game.id]
        assert waiting == []
    monkeypatch.undo()
    assert stored > 0 and applied == []
    after = Game.objects.get(pk=game.id)
    events = game_selectors.game_events(after)
    assert "turn_timed_out" in [e.type for e in events]
    store.clear_cache()
    assert game_selectors.game_state(game=after) == rules.fold(events)
