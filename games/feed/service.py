"""The process's hub (one per event loop) and the re-check's one query."""

from __future__ import annotations

import asyncio
from typing import Any

from django.conf import settings
from django.db import connections

from games.feed import publish
from games.feed.followers import PREFIX, user_of
from games.feed.hub import Hub
from games.models import Game
from games.selectors import programs as program_selectors

_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def versions(ids: list[str]) -> dict[str, int]:
    """``{key: version}`` of these hub keys: a game's version by its id, an account
    feed's newest position by ``account:<user id>``; one query per kind and 1,000 keys
    (run on a thread by the hub)."""
    try:
        found: dict[str, int] = {}
        games = [key for key in ids if not key.startswith(PREFIX)]
        accounts = {user_of(key): key for key in ids if key.startswith(PREFIX)}
        for start in range(0, len(games), 1000):
            rows = Game.objects.filter(pk__in=games[start : start + 1000])
            found.update((str(pk), v) for pk, v in rows.values_list("pk", "version"))
        users = list(accounts)
        for start in range(0, len(users), 1000):
            heads = program_selectors.account_heads(users[start : start + 1000])
            found.update((accounts[user], head) for user, head in heads.items())
        return found
    finally:
        connections.close_all()


def hub() -> Hub:
    """This event loop's hub, started on first use."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = Hub(
            url=publish.redis_url() or None,
            channel=publish.channel,
            versions=versions,
            recheck=float(getattr(settings, "PABLO_FEED_RECHECK", 0.5)),
            audit=float(getattr(settings, "PABLO_FEED_AUDIT", 20.0)),
        )
        publish.local_hubs.add(found)
    return found


def draining() -> bool:
    """Is this loop's process stopping (``Hub.drain``)? Its answers then close their
    connection: the client polls again elsewhere, not here in a loop of instant answers."""
    found = _hubs.get(asyncio.get_running_loop())
    return found is not None and found.draining


async def close_hubs() -> None:
    loop = asyncio.get_running_loop()
    found = _hubs.pop(loop, None)
    if found is not None:
        publish.local_hubs.discard(found)
        await found.close()


def stats() -> dict[str, Any]:
    return {str(id(h)): {**h.stats, "waiting": h.waiting()} for h in _hubs.values()}
