"""The fold cache keeps a few recent states per game, so the event feed of a
client that follows a game (``after`` = the version it last saw) starts from
that state instead of refolding the whole stream."""

from __future__ import annotations

from unittest import mock

from games import rules, store
from games.models import Game
from games.selectors import games as game_selectors
from games.services import games as game_services
from tests.factories import UserFactory


def test_a_follower_of_the_feed_is_served_without_refolding(db, django_capture_on_commit_callbacks):
    store.clear_cache()
    users = [UserFactory(username=n, password="pw") for n in "ab"]
    with django_capture_on_commit_callbacks(execute=True):
        game = game_services.game_create(
            user=users[0],
            ruleset="pablo",
            seats=2,
            turn_timeout=86400,
            options={"start_seat": 0},
            decks=None,
        )
        game_services.game_join(game_id=game.id, user=users[1])
        for user in users:
            game_services.game_act(
                game_id=game.id, user=user, command={"type": "look", "positions": [0, 1]}
            )
    seen = Game.objects.get(pk=game.id).version  # what the follower (seat 1) last saw
    with django_capture_on_commit_callbacks(execute=True):
        game_services.game_act(
            game_id=game.id, user=users[0], command={"type": "draw", "source": "deck"}
        )
    game.refresh_from_db()
    assert game.version > seen

    with mock.patch.object(rules, "fold", side_effect=AssertionError("refolded")):
        feed = game_selectors.event_feed(game=game, user=users[1], after=seen)
    assert [e["seq"] for e in feed["events"]] == list(range(seen + 1, game.version + 1))
    drawn = [e for e in feed["events"] if e["type"] == "drawn"]
    assert drawn and "code" not in drawn[0]["data"]  # seat 0's drawn card, hidden from seat 1

    # The same answer as a feed folded from scratch.
    store.clear_cache()
    assert game_selectors.event_feed(game=game, user=users[1], after=seen) == feed
