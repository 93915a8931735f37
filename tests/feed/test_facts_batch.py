"""A feed process learns the games of its reconnecting clients in batches.

After a restart under thousands of waiting clients, each game's first waiter made
the process read that game's version with a query of its own, on an executor
thread: about 1,300 queries in the first two seconds of a 10,000-client storm
(bench/README.md), when the two cores are busiest. ``Application._facts`` reads one
batch at a time; the games asked for meanwhile go into the next batch's single
query (``waiting.games_facts``).
"""

from __future__ import annotations

import asyncio
import threading
import uuid

import pytest

from games.feed import asgi, waiting
from games.models import Game
from tests.feed.test_live import started_game, users


def test_games_asked_for_during_a_read_share_the_next_query(monkeypatch):
    calls: list[list[str]] = []
    release = threading.Event()

    def games_facts(ids: list[str]) -> dict:
        calls.append(list(ids))
        if len(calls) == 1:
            release.wait(10)  # the first read is slow: the others pile up meanwhile
        return {gid: (int(gid[-2:]), None) for gid in ids if not gid.endswith("99")}

    monkeypatch.setattr(waiting, "games_facts", games_facts)
    app = asgi.Application(threads=2)
    ids = [f"00000000-0000-0000-0000-0000000000{n:02d}" for n in range(100)]

    async def main() -> list:
        first = asyncio.ensure_future(app._facts(ids[0]))
        while not calls:
            await asyncio.sleep(0.001)
        rest = [asyncio.ensure_future(app._facts(gid)) for gid in ids[1:]]
        await asyncio.sleep(0.01)
        release.set()
        return [await first, *[await r for r in rest]]

    found = asyncio.run(main())
    assert calls == [ids[:1], ids[1:]]  # two queries, not a hundred
    assert found[:3] == [(0, None), (1, None), (2, None)]
    assert found[99] is None  # (no such game: Django answers, as before)
    assert app._facts_reading is None and not app._facts_wanted


def test_a_failed_read_answers_none_for_its_batch_and_the_next_one_reads_again(monkeypatch):
    calls: list[list[str]] = []

    def games_facts(ids: list[str]) -> dict:
        calls.append(list(ids))
        if len(calls) == 1:
            raise RuntimeError("the database went away")
        return {gid: (7, None) for gid in ids}

    monkeypatch.setattr(waiting, "games_facts", games_facts)
    app = asgi.Application(threads=1)
    gid = str(uuid.uuid4())

    async def twice() -> tuple:
        return await app._facts(gid), await app._facts(gid)

    assert asyncio.run(twice()) == (None, (7, None))
    assert calls == [[gid], [gid]]


def test_batches_are_bounded(monkeypatch):
    calls: list[int] = []
    monkeypatch.setattr(waiting, "games_facts", lambda ids: calls.append(len(ids)) or {})
    app = asgi.Application(threads=1)

    async def many() -> None:
        await asyncio.gather(*(app._facts(str(uuid.uuid4())) for _ in range(1200)))

    asyncio.run(many())
    assert sum(calls) == 1200 and max(calls) <= asgi.FACTS_BATCH


@pytest.mark.django_db
def test_games_facts_reads_every_public_game_with_one_query(django_assert_num_queries):
    (ann, _t), (ben, _u) = users(2, prefix="facts")
    games = [started_game([ann, ben]) for _ in range(3)]
    Game.objects.filter(pk=games[2].pk).update(private=True)
    ids = [str(g.pk) for g in games[:2]]
    with django_assert_num_queries(1):
        found = waiting.games_facts([*ids, str(uuid.uuid4())])
    assert found == {gid: (Game.objects.get(pk=gid).version, None) for gid in ids}
    private = str(games[2].pk)
    Game.objects.filter(pk=games[1].pk).update(private=True)
    with django_assert_num_queries(2):  # the games, then every private one's readers at once
        found = waiting.games_facts([*ids, private])
    both = frozenset({str(ann.pk), str(ben.pk)})
    assert found == {
        ids[0]: (games[0].version, None),
        ids[1]: (games[1].version, both),
        private: (games[2].version, both),
    }
    assert waiting.games_facts([private]) == {
        private: (games[2].version, frozenset({str(ann.pk), str(ben.pk)}))
    }
    assert waiting.game_facts(private) == waiting.games_facts([private])[private]
    assert waiting.game_facts(str(uuid.uuid4())) is None
