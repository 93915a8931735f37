"""The account feed's write (docs/programs.md "The account feed"): rows for
``GET /api/me/events/``, numbered per account without a gap.

Called by the ``account_feed`` follower of the log (``games.feed.followers``)
inside its transaction, so the rows, the accounts' heads and the follower's
stored position commit together or not at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games.models import AccountEvent, AccountFeed

JSON = dict[str, Any]


@dataclass(frozen=True)
class FeedItem:
    """One account event to be stored: what ``AccountEvent`` holds but its position."""

    user_id: Any
    type: str
    game_id: Any
    at: datetime
    data: JSON
    #: the log position (``Event.position``) of the event it was made from
    source: int


def account_events_add(items: Sequence[FeedItem]) -> dict[Any, int]:
    """Store ``items`` (in the log's order) at the next positions of their accounts;
    ``{user id: new head}`` of the accounts that got any.

    An item already stored (same source, account and type: a batch handled again)
    is left out, so a replay doubles nothing and leaves no gap. The heads are read
    ``FOR UPDATE``: the follower is the only writer (its row lock), this only
    keeps two writers from ever numbering the same account at once.
    """
    if not items:
        return {}
    sources = {item.source for item in items}
    seen = set(
        AccountEvent.objects.filter(source__in=sources).values_list("source", "user_id", "type")
    )
    fresh = [item for item in items if (item.source, item.user_id, item.type) not in seen]
    if not fresh:
        return {}
    users = sorted({item.user_id for item in fresh})
    heads = {
        row.user_id: row
        for row in AccountFeed.objects.select_for_update().filter(user_id__in=users)
    }
    missing = [AccountFeed(user_id=user, position=0) for user in users if user not in heads]
    if missing:
        AccountFeed.objects.bulk_create(missing)
        for row in missing:
            heads[row.user_id] = row
    rows = []
    done: set[tuple[int, Any, str]] = set()
    for item in fresh:
        key = (item.source, item.user_id, item.type)
        if key in done:
            continue
        done.add(key)
        head = heads[item.user_id]
        head.position += 1
        rows.append(
            AccountEvent(
                user_id=item.user_id,
                position=head.position,
                type=item.type,
                game_id=item.game_id,
                at=item.at,
                data=item.data,
                source=item.source,
            )
        )
    AccountEvent.objects.bulk_create(rows)
    touched = [heads[user] for user in users]
    AccountFeed.objects.bulk_update(touched, ["position"])
    return {row.user_id: row.position for row in touched}
