"""Every real follower of the log, killed in the middle of a batch in a real Celery worker.

One harness for all of them (``test_a_follower_killed_mid_batch``): a log of real
games that gives the follower plenty of work is stored first; a worker
(``tests.followers.settings``) runs the followers with the one under test paused
after each ``handle`` -- its writes done, its transaction and new position not
committed (``tests.followers.pause``); once it is inside its second batch the
worker is killed with SIGKILL; a second worker (and beat) takes over. Then the
follower's position is the log's head and each of its effects exists exactly once.
"""

from __future__ import annotations

import contextlib
import email
import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import get_language

from games import followers, rules
from games.feed.followers import READS, AccountFeed, items
from games.models import (
    AccountEvent,
    Event,
    FollowerPosition,
    Game,
    MailNotice,
    NotificationSettings,
    PushDelivery,
)
from games.ratings.models import Rating, RatingChange
from games.selectors import games as game_selectors
from games.services import games as game_services
from pablo.celery import app
from replays.steps import Replay, build_replay, code_version
from tests.fixtures import start_skipbo, user
from tests.helpers import Receiver, timeouts_per_turn
from tests.notifications.test_push import PAIR, subscribe
from tests.poll import wait_for
from tests.processes import AS_MAKE_RUN
from tests.pushservice import PushService
from tests.ratings.conftest import play

from .conftest import PROBE_SETTINGS

pytestmark = [
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]

#: The workers' environment: the tests' settings with the probe app (the pause), bots
#: quick. (Beat's tasks expire after 5 s: sent faster than a loaded machine's worker
#: runs them, they would all expire in its queue, the sweeps too.)
#: A bot's move held by the killed worker (unacknowledged in Redis for an hour) is
#: enqueued again by beat's bot sweep (games/turns/bots.py ``sweep_stalled``).
WORKER = {
    **PROBE_SETTINGS,
    "PABLO_FOLLOW_SECONDS": "1",
    "PABLO_BOT_DELAY": "0.05",
    "PABLO_BOT_SWEEP_SECONDS": "1",
    "PABLO_BOT_SWEEP_GRACE": "3",
}


@dataclass
class Case:
    """One follower's kill test: ``build`` stores the log (and returns what ``check``
    needs), ``done`` says the follower's effects are all there, ``check`` proves
    them exactly once. ``batch`` events a batch, ``pause`` seconds in each."""

    name: str
    build: Callable[[Any, Any, Path], Any]
    check: Callable[[Any], None]
    done: Callable[[Any], bool] = lambda context: True
    batch: int = 10
    pause: float = 0.5
    #: Where the worker is killed (``tests.followers.pause``): ``handled`` (its batch
    #: not committed), ``committed`` (committed, its after-commit work not done).
    at: str = "handled"

    @property
    def id(self) -> str:
        return self.name if self.at == "handled" else f"{self.name}-{self.at}"


# --------------------------------------------------------------------------- logs


def finished_games(count: int = 6) -> list[Any]:
    """``count`` rated Skip-Bo games played to their end (three players, two at a
    time); their ids."""
    people = [user("ann", "ann@example.org"), user("bob", "bob@example.org"), user("cid")]
    pairs = [(0, 1), (1, 2), (2, 0)]
    return [
        play([people[a], people[b]], seed=i) for i, (a, b) in enumerate((pairs * count)[:count])
    ]


# --------------------------------------------------------------------------- ratings


def ratings_build(celery: Any, settings: Any, tmp: Path) -> Any:
    return finished_games(6)


def ratings_check(games: Any) -> None:
    changes = Counter(RatingChange.objects.values_list("game_id", "user_id"))
    assert set(changes.values()) == {1}  # each game counted once per player
    assert {str(g) for g, _ in changes} == set(games)  # ... and every game counted
    live = _ratings()
    assert sorted(Rating.objects.values_list("user_id", "games")) == sorted(
        Counter(u for _, u in changes).items()
    )
    call_command("ratings", "--rebuild")
    assert _ratings() == live  # what a rebuild from the events makes


def _ratings() -> dict[Any, Any]:
    ratings = {
        (r.user_id, r.ruleset): (r.mu, r.sigma, r.rating, r.games) for r in Rating.objects.all()
    }
    changes = {
        (c.game_id, c.user_id): (c.before, c.after, c.mu, c.sigma, c.place)
        for c in RatingChange.objects.all()
    }
    return {"ratings": ratings, "changes": changes}


# --------------------------------------------------------------------------- account feed


def feed_build(celery: Any, settings: Any, tmp: Path) -> Any:
    return finished_games(4)


def feed_check(games: Any) -> None:
    rows = list(AccountEvent.objects.order_by("user_id", "position"))
    by_user: dict[Any, list[AccountEvent]] = {}
    for row in rows:
        by_user.setdefault(row.user_id, []).append(row)
    for mine in by_user.values():  # gapless, from 1
        assert [r.position for r in mine] == list(range(1, len(mine) + 1))
    stored = Counter((r.user_id, r.type, r.source, r.game_id) for r in rows)
    assert set(stored.values()) == {1}  # no entry twice
    log = Event.objects.filter(type__in=list(READS)).order_by("position")
    expected = Counter((i.user_id, i.type, i.source, i.game_id) for i in items(list(log)))
    assert stored == expected  # each expected entry, in the log's order
    for mine in by_user.values():
        assert [r.source for r in mine] == sorted(r.source for r in mine)


# --------------------------------------------------------------------------- notifications


@dataclass
class Listeners:
    push: PushService
    hook: Receiver
    mails: Path
    finished: list[Any]
    active: list[Any]
    ann: Any
    bob: Any

    def close(self) -> None:
        self.push.close()
        self.hook.close()


def notifications_build(celery: Any, settings: Any, tmp: Path) -> Any:
    keys = {
        "PABLO_VAPID_PRIVATE_KEY": PAIR["private_key"],
        "PABLO_VAPID_PUBLIC_KEY": PAIR["public_key"],
        "PABLO_PUSH_ALLOW_PRIVATE": "1",
        "PABLO_PUSH_SECONDS": "1",
        "PABLO_PUSH_LOST_SECONDS": "2",
        "PABLO_MAIL_SECONDS": "1",
        "PABLO_DIGEST_SECONDS": "3600",
        "PABLO_TEST_MAIL_DIR": str(tmp / "mail"),
    }
    for name, value in keys.items():
        setattr(settings, name, value if "KEY" in name or "DIR" in name else float(value))
    celery.env.update(keys)
    push, hook = PushService(), Receiver()
    ann, bob = user("ann", "ann@example.org"), user("bob", "bob@example.org")
    subscribe(ann, push)
    for person in (ann, bob):
        NotificationSettings.objects.update_or_create(
            user=person, defaults={"webhook_url": hook.url, "webhook_secret": "s" * 32}
        )
    active = [str(start_skipbo(ann, bob).id) for _ in range(12)]  # ann's turn in each
    finished = [play([ann, bob], seed=i) for i in range(3)]
    return Listeners(push, hook, tmp / "mail", finished, active, ann, bob)


def notifications_done(c: Listeners) -> bool:
    return (
        len(c.push.requests) >= len(c.active) + len(c.finished)
        and not PushDelivery.objects.filter(status="pending").exists()
        and len(_game_over_mails(c)) >= 2 * len(c.finished)
        and len(c.hook.requests) >= len(c.active) + 2 * len(c.finished)
    )


def _game_over_mails(c: Listeners) -> list[tuple[str, str]]:
    """(address, game id) of each "game over" mail in the file outbox (its replay link)."""
    found = []
    for path in sorted(c.mails.glob("*.log")) if c.mails.exists() else []:
        for chunk in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
            if not chunk.strip():
                continue
            message = email.message_from_bytes(chunk)
            text = message.get_payload(decode=True).decode()
            for game in re.findall(r"/replays/([0-9a-f-]{36})/", text):
                found.append((message["To"], game))
    return found


def notifications_check(c: Listeners) -> None:
    try:
        # Web Push: one per device and notification ("your turn" to ann in each
        # active game, "game over" in each finished one), each delivered once.
        opened = [c.push.open(r, PAIR["public_key"]) for r in c.push.requests]
        sent = Counter((m["game"], m["kind"]) for m in opened)
        want = Counter(
            [(g, "your_turn") for g in c.active] + [(g, "game_over") for g in c.finished]
        )
        missing = {game for game, _ in want - sent}
        rows = PushDelivery.objects.filter(game_id__in=missing).values_list(
            "status", "tries", "next_try", "held", "kind", "turn"
        )
        assert sent == want, (want - sent, sent - want, list(rows), timezone.now())
        assert PushDelivery.objects.filter(status="sent").count() == len(opened)
        # Webhooks: one per notification and player.
        bodies = [json.loads(r["body"]) for r in c.hook.requests]
        hooks = Counter((b["game_id"], b["event"], b["seat"]) for b in bodies)
        want = Counter(
            [(g, "your_turn", 0) for g in c.active]
            + [(g, "game_finished", s) for g in c.finished for s in (0, 1)]
        )
        assert hooks == want, (want - hooks, hooks - want)
        assert len({b["delivery"] for b in bodies}) == len(bodies)
        # Mail: each "game over" once to each player.
        mailed = Counter(_game_over_mails(c))
        addresses = (c.ann.email, c.bob.email)
        assert mailed == Counter((a, g) for g in c.finished for a in addresses), mailed
        notices = MailNotice.objects.values("game", "user", "turn", "kind")
        assert not notices.annotate(n=Count("id")).filter(n__gt=1).exists()
    finally:
        c.close()


# --------------------------------------------------------------------------- bots


#: The stocks and first hands of the bots' games (four seats, stock 5): no 1 and no
#: Skip-Bo card, so nobody can start a building pile -- each bot's turn is a discard and
#: no bot can win in its first turn, as a shuffled deck sometimes let it (the game then
#: finished before ann's turn: the known gap this case was marked xfail for).
NO_START = [str(2 + i % 11) for i in range(40)]


def bots_build(celery: Any, settings: Any, tmp: Path) -> Any:
    """Games of ann and three basic bots, the bots first: they play three turns, then
    wait for ann."""
    ann = user("ann")
    bots = [{"seat": s, "level": "basic"} for s in (1, 2, 3)]
    return [
        str(
            game_services.game_create(
                user=ann,
                ruleset="skipbo",
                seats=4,
                options={"stock_size": 5, "start_seat": 1},
                bots=bots,
                decks=[NO_START],
            ).id
        )
        for _ in range(8)
    ]


def _turns(game_id: Any) -> list[list[int]]:
    rows = Event.objects.filter(game_id=game_id, type="deadline_set").order_by("seq")
    return [list(r.data["seats"]) for r in rows]


def bots_done(games: Any) -> bool:
    return all(_turns(g)[-1:] == [[0]] for g in games)


def bots_check(games: Any) -> None:
    for game_id in games:
        assert _turns(game_id) == [[1], [2], [3], [0]]  # each bot's turn once, then ann's
        rows = list(Event.objects.filter(game_id=game_id).order_by("seq"))
        assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
        assert "turn_timed_out" not in {r.type for r in rows}
        game = Game.objects.get(id=game_id)
        assert game.version == len(rows) and game.status == "active"
        assert rules.get_ruleset("skipbo").actors(game_selectors.game_state(game=game)) == [0]


# --------------------------------------------------------------------------- deadlines


def deadlines_build(celery: Any, settings: Any, tmp: Path) -> Any:
    """Games whose turns of two seconds have passed: every turn times out."""
    people = [user(f"p{i}") for i in range(2)]
    return [str(start_skipbo(*people, turn_timeout=2, max_timeouts=2).id) for _ in range(10)]


def deadlines_done(games: Any) -> bool:
    return all(not Game.objects.filter(id=g, status="active").exists() for g in games)


def deadlines_check(games: Any) -> None:
    for game_id in games:
        counts = timeouts_per_turn(game_id)
        assert counts and set(counts.values()) == {1}, counts  # each timeout once


# --------------------------------------------------------------------------- replays


def replays_build(celery: Any, settings: Any, tmp: Path) -> Any:
    return finished_games(6)


def replays_check(games: Any) -> None:
    for game_id in games:
        game = Game.objects.get(id=game_id)
        key = f"replay:{game.id}:{game.version}:{code_version()}:{get_language()}"
        cached = cache.get(key)
        assert isinstance(cached, Replay), key  # prepared by the follower
        fresh = build_replay(str(game.id), game.version, game_selectors.game_events(game))
        assert len(cached.steps) == len(fresh.steps)


# --------------------------------------------------------------------------- the harness

CASES = [
    Case("ratings", ratings_build, ratings_check, batch=20, pause=1.0),
    Case(AccountFeed.name, feed_build, feed_check, batch=15),
    Case("notifications", notifications_build, notifications_check, notifications_done, 8),
    Case(
        "notifications",
        notifications_build,
        notifications_check,
        notifications_done,
        batch=8,
        at="committed",
    ),
    Case("bots", bots_build, bots_check, bots_done, batch=5, pause=0.3),
    Case("deadlines", deadlines_build, deadlines_check, deadlines_done, batch=2),
    Case("replays", replays_build, replays_check, batch=20, pause=1.0),
]


def _marks(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def _position(name: str) -> int:
    row = FollowerPosition.objects.filter(name=name).first()
    return row.position if row is not None else 0


@pytest.mark.parametrize(
    "case",
    CASES,
    ids=[c.id for c in CASES],
)
def test_a_follower_killed_mid_batch(case, celery, probe_table, settings, tmp_path):
    assert case.name in {f.name for f in followers.registered()}
    context = case.build(celery, settings, tmp_path)
    marks = tmp_path / "marks"
    pause = {
        "PABLO_TEST_PAUSE_FOLLOWER": case.name,
        "PABLO_TEST_PAUSE_BATCH": str(case.batch),
        "PABLO_TEST_PAUSE_MARKS": str(marks),
        "PABLO_TEST_PAUSE_AT": case.at,
    }
    worker = celery.worker("w1", **WORKER, **pause, PABLO_TEST_PAUSE_SECONDS=str(case.pause))
    app.send_task("games.follow")
    # In its second batch: the first committed, the second handled, not committed
    # (or committed, what it does after the commit not done).
    wait_for(lambda: len(_marks(marks)) >= 2, 60, step=0.05, what="the second batch")
    celery.kill(worker)
    handled = _marks(marks)
    position = _position(case.name)
    last_handled = int(handled[-1].split()[1])
    if case.at == "committed":
        assert position == last_handled, (position, handled)
    else:
        assert 0 < position < last_handled, (position, handled)  # killed mid-batch
    celery.worker("w2", options=AS_MAKE_RUN, **WORKER, **pause, PABLO_TEST_PAUSE_SECONDS="0")
    celery.beat(**WORKER)
    wait_for(lambda: _position(case.name) == followers.head(), 60, 0.3, f"{case.name} caught up")
    with contextlib.suppress(AssertionError):  # (else ``check`` says what is missing)
        wait_for(lambda: case.done(context) and _position(case.name) == followers.head(), 30)
    if case.at == "handled":  # the killed batch was handled again by the second worker
        again = [line for line in _marks(marks) if int(line.split()[1]) >= last_handled]
        assert len(again) > 1 and len({line.split()[2] for line in again}) == 2
    case.check(context)
