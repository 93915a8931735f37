"""The account feed's long poll (``GET /api/me/events/?after=p&wait=s``) on the ASGI
path: woken when a turn arrives, under the same ``PABLO_FEED_WAITS`` as the game feed.

In this process (``tests.asgi_server``, the followers run at each commit: works on
the embedded default too), then with real processes: the Celery worker follows the
log and wakes a uvicorn process through Redis, where idle re-polls are answered by
the fast path.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.authtoken.models import Token

from games import followers, rules, store, tokens
from games.feed.followers import account_key
from games.models import Game
from games.services import games as game_services
from tests.feed.test_live import call
from tests.fixtures import SKIPBO_QUICK, SKIPBO_QUICK_OPTIONS
from tests.poll import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

User = get_user_model()


def player(name: str) -> tuple[Any, str]:
    user = User.objects.create_user(username=name, password="secret12")
    return user, Token.objects.create(user=user).key


def quick_game(first: Any, second: Any, start_seat: int) -> Game:
    """Skip-Bo on the quick deck; ``start_seat`` on turn."""
    game = game_services.game_create(
        user=first,
        ruleset="skipbo",
        seats=2,
        turn_timeout=3600,
        options={**SKIPBO_QUICK_OPTIONS, "start_seat": start_seat},
        decks=[SKIPBO_QUICK],
    )
    game_services.game_join(game_id=game.id, user=second)
    return Game.objects.get(pk=game.id)


def end_turn(game: Game, user: Any, seat: int) -> None:
    """``seat`` ends its turn (a discard): the other seat's turn."""
    state = store.state(Game.objects.get(pk=game.pk))
    legal = rules.get_ruleset(state.ruleset).legal_actions(state, seat)
    command = next(a for a in legal if a["type"] == "end")
    game_services.game_act(game_id=game.pk, user=user, command=command)


class Poll(threading.Thread):
    """One long poll in a thread: ``answer`` = (status, headers, body), ``done`` its time."""

    def __init__(self, base: str, token: str, query: str) -> None:
        super().__init__(daemon=True)
        self.base, self.token, self.query = base, token, query
        self.answer: Any = None
        self.done = 0.0
        self.start()

    def run(self) -> None:
        self.answer = call(self.base, f"/api/me/events/?{self.query}", self.token)
        self.done = time.monotonic()


def head(base: str, token: str) -> int:
    status, _, body = call(base, "/api/me/events/", token)
    assert status == 200, body
    return body["position"]


@pytest.fixture(scope="module")
def asgi_server(request):
    from tests.asgi_server import shared

    request.getfixturevalue("django_db_setup")
    server = shared()
    yield server
    server.close_connections()


@pytest.fixture
def asgi(asgi_server, followers_inline):
    return asgi_server.url


def test_a_turn_wakes_the_waiting_account_feed(asgi, settings):
    ann, ann_token = player("ann")
    bob, _ = player("bob")
    game = quick_game(ann, bob, start_seat=1)  # bob on turn
    after = head(asgi, ann_token)
    assert after == 1  # game_started
    poll = Poll(asgi, ann_token, f"after={after}&wait=20")
    time.sleep(1.0)  # parked on the hub
    assert poll.answer is None, "nothing to say yet"
    acted = time.monotonic()
    end_turn(game, bob, 1)
    wait_for(lambda: poll.answer is not None, 10, step=0.02, what="the wake-up")
    status, _, body = poll.answer
    assert status == 200, body
    assert [(e["type"], e["position"]) for e in body["events"]] == [("your_turn", 2)]
    assert body["position"] == 2
    # woken by the turn, not by the end of its wait (the 1 s goal is bench_feed's to
    # measure: a unit test asserts no wall-clock limit on a loaded machine)
    assert poll.done - acted < 10, poll.done - acted


def test_a_wait_ends_with_the_position_and_counts_among_the_feed_waits(asgi, settings):
    settings.PABLO_FEED_WAITS = 2
    ann, ann_token = player("ann")
    bob, _ = player("bob")
    game = quick_game(ann, bob, start_seat=1)
    after = head(asgi, ann_token)
    started = time.monotonic()
    status, _, body = call(asgi, f"/api/me/events/?after={after}&wait=0.5", ann_token)
    assert (status, body) == (200, {"events": [], "position": after})
    assert time.monotonic() - started >= 0.4
    # one game-feed wait and one account-feed wait: the third is refused, either kind
    game_poll = threading.Thread(
        target=call,
        args=(asgi, f"/api/games/{game.id}/events/?after={game.version}&wait=5", ann_token),
        daemon=True,
    )
    game_poll.start()
    account_poll = Poll(asgi, ann_token, f"after={after}&wait=5")
    time.sleep(1.0)
    status, headers, body = call(asgi, f"/api/me/events/?after={after}&wait=5", ann_token)
    assert status == 429 and body["code"] == "throttled" and headers["retry-after"] == "5"
    game_poll.join(10)
    account_poll.join(10)
    # HEAD waits like GET; 401 without a token; 400 for a bad wait
    status, _, _ = call(asgi, f"/api/me/events/?after={after}&wait=31", ann_token)
    assert status == 400
    assert call(asgi, f"/api/me/events/?after={after}&wait=1")[0] == 401


@pytest.mark.services
def test_through_the_worker_redis_and_the_fast_path(pg_servers, celery):
    """The real path: this process appends, the worker's follower stores the account
    events and publishes the account's head on Redis, uvicorn's hub wakes the poll.
    Idle re-polls are answered by the fast path (no Django)."""
    base = pg_servers.feed(PABLO_FEED_DEBUG="1")
    celery.worker(PABLO_BOT_DELAY="0")
    ann, ann_token = player("ann")
    bob, bob_token = player("bob")
    games = [quick_game(ann, bob, start_seat=1) for _ in range(4)]  # bob on turn in each
    wait_for(lambda: head(base, ann_token) == 4, 30, what="the follower (game_started x4)")
    after = head(base, ann_token)
    # a first wait through Django (the process learns the answer's headers), then fast
    for _ in range(2):
        status, _, body = call(base, f"/api/me/events/?after={after}&wait=1", ann_token)
        assert (status, body) == (200, {"events": [], "position": after})
    # a client that has just read where to start (through Django: its token is new)
    # waits on the fast path at once: the head is read with one query, not Django
    feed_log = next(path for _, path in pg_servers.procs if path.name.startswith("feed"))
    # (a token read within games.tokens.MARGIN of its user's last save is read again
    # from the database, as a save's mark may precede its commit: bob is older than that)
    time.sleep(tokens.MARGIN + 0.5)
    djangos = feed_log.read_text().count("FEEDDBG django GET /api/me/events/")
    bobs = head(base, bob_token)
    status, _, body = call(base, f"/api/me/events/?after={bobs}&wait=1", bob_token)
    assert (status, body) == (200, {"events": [], "position": bobs})
    text = feed_log.read_text()
    assert text.count("FEEDDBG django GET /api/me/events/") == djangos + 1, "one: the head"
    assert f"fast answered {account_key(bob.pk)[-8:]} v{bobs}" in text
    delays = []
    for game in games[:3]:
        poll = Poll(base, ann_token, f"after={after}&wait=25")
        time.sleep(0.5)
        # (this process's cache is its own: the hint's mark, which the worker clears in
        # a service's shared cache when its task starts, is cleared here)
        cache.delete(followers.WAKE_KEY)
        acted = time.monotonic()
        end_turn(game, bob, 1)  # ann's turn
        poll.join(30)
        status, _, body = poll.answer
        assert status == 200, body
        assert [e["type"] for e in body["events"]] == ["your_turn"], body
        assert body["events"][0]["game"] == str(game.id)
        delays.append(poll.done - acted)
        after = body["position"]
    print(f"account feed woken after a turn: {[round(d * 1000) for d in delays]} ms")
    assert max(delays) < 10, delays  # woken by the turn (the wait is 25 s): see above
    log = pg_servers.logs()
    assert "FEEDDBG fast answered" in log, "an idle re-poll is answered before Django"
